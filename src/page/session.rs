//! A match at a game page, as both doors that serve one keep it (the server for each of
//! its matches, the offline page in the browser): the match, who sits at its screen, the
//! chart of where it stood after each change, and the page's search cap. Every change
//! and every answer of a page's match goes through it, so that the turn rules, the time
//! each search is given, the chart's points, the views and the record come out the same
//! at both doors; a door adds only what is its own (the match's id, its storage, the
//! name of the AI it plays).

use std::time::Duration;

use super::analysis::{self, Chart, Searchers};
use super::seats::{AiTurn, Seats, SeatsError};
use super::view::{self, Json, ViewError};
use crate::ai::Bot;
use crate::game::match_rules::{Match, MatchError};
use crate::game::record::{self, RecordError};
use crate::game::rules::{Player, Position};
use crate::search::{Limits, On};

/// The longest a page's AI searches for a move (less where the page's cap is less).
pub const AI_MOVE_TIME: Duration = Duration::from_secs(1);

/// A page's match.
#[derive(Clone, Debug)]
pub struct Session {
    game: Match,
    human: Player,
    seats: Seats,
    chart: Chart,
    cap: Duration,
}

/// What the AI did with its turn ([`Session::ai_move`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AiAction {
    /// It chose who starts the next battle.
    Chose(Player),
    /// It played this move.
    Played(usize),
}

impl Session {
    /// The page's match `game`: `players` 1 (the person plays `human` against the AI)
    /// or 2 (both sides people at one screen); `cap` the longest any of its searches
    /// takes (a hint, a review; the AI's move within [`AI_MOVE_TIME`] at most).
    pub fn new(
        game: Match,
        human: Player,
        players: u8,
        cap: Duration,
    ) -> Result<Session, SeatsError> {
        Ok(Session {
            seats: Seats::new(human, players)?,
            game,
            human,
            chart: Chart::new(),
            cap,
        })
    }

    /// The match.
    pub fn game(&self) -> &Match {
        &self.game
    }

    /// The colour the person plays against the AI (with two people, the one given).
    pub fn human(&self) -> Player {
        self.human
    }

    /// The people at the screen: 1 or 2.
    pub fn players(&self) -> u8 {
        match self.seats {
            Seats::Against(_) => 1,
            Seats::PassAndPlay => 2,
        }
    }

    /// Who sits at the screen.
    pub fn seats(&self) -> Seats {
        self.seats
    }

    /// The longest any of its searches takes.
    pub fn cap(&self) -> Duration {
        self.cap
    }

    /// The limits of the AI's search for a move: [`AI_MOVE_TIME`], within the cap.
    pub fn ai_limits(&self) -> Limits {
        Limits {
            time: Some(AI_MOVE_TIME.min(self.cap)),
            ..Limits::default()
        }
    }

    /// The side whose hints and choices the page shows: the person's, or with two
    /// people the side to move's.
    pub fn acts(&self) -> Player {
        self.seats.acts(&self.game)
    }

    /// A person's move (with two people, the side to move's).
    pub fn play(&mut self, mv: usize) -> Result<(), SeatsError> {
        self.seats.play(&mut self.game, mv).map(|_| ())
    }

    /// A person's choice of starter (the tie rule).
    pub fn choose(&mut self, starter: Player) -> Result<(), SeatsError> {
        self.seats.choose(&mut self.game, starter)
    }

    /// Takes back the person's last move of the battle and the AI's replies after it
    /// (with two people, the battle's last move).
    pub fn undo(&mut self) -> Result<(), SeatsError> {
        self.seats.undo(&mut self.game).map(|_| ())
    }

    /// What the AI is to do now.
    pub fn ai_turn(&self) -> Result<AiTurn, SeatsError> {
        self.seats.ai_turn(&self.game)
    }

    /// The AI's turn taken by `bot` (a bot of the level scale, its limits set to
    /// [`ai_limits`](Self::ai_limits)): its choice of starter, or its move.
    pub fn ai_move(&mut self, bot: &mut Bot) -> Result<AiAction, SeatsError> {
        match self.ai_turn()? {
            AiTurn::ChooseStarter => {
                let starter = bot.choose_starter(&self.game);
                self.game.choose_starter(starter)?;
                Ok(AiAction::Chose(starter))
            }
            AiTurn::Move => {
                bot.set_limits(self.ai_limits());
                let position = self.game.position();
                let mv = bot
                    .choose(&position, Some(&self.game))
                    .ok_or(MatchError::Illegal(crate::IllegalMove::BattleOver))?;
                self.game.play(mv)?;
                Ok(AiAction::Played(mv))
            }
        }
    }

    /// The AI's move chosen by a player of the door's own (a server's extra
    /// opponent), where the AI is to move.
    pub fn play_for_ai(&mut self, mv: usize) -> Result<(), SeatsError> {
        match self.ai_turn()? {
            AiTurn::Move => Ok(self.game.play(mv).map(|_| ())?),
            AiTurn::ChooseStarter => Err(SeatsError::NotAiTurn),
        }
    }

    /// The AI's choice of starter made by a player of the door's own.
    pub fn choose_for_ai(&mut self, starter: Player) -> Result<(), SeatsError> {
        match self.ai_turn()? {
            AiTurn::ChooseStarter => Ok(self.game.choose_starter(starter)?),
            AiTurn::Move => Err(SeatsError::NotAiTurn),
        }
    }

    /// The time each margin of a chart's point is solved within: half the cap.
    pub fn chart_time(&self) -> Duration {
        self.cap / 2
    }

    /// The chart's points (a copy to change off a lock: [`absorb`](Self::absorb)).
    pub fn chart(&self) -> &Chart {
        &self.chart
    }

    /// Keeps the points of `chart` too (a copy of this session's, changed meanwhile).
    pub fn absorb(&mut self, chart: Chart) {
        self.chart.absorb(chart);
    }

    /// Records the chart's point for the state the last change left (run after every
    /// change).
    pub fn note(&mut self, searchers: &mut Searchers<'_>) -> Result<(), MatchError> {
        let limit = self.chart_time();
        self.chart.note(&self.game, limit, searchers)
    }

    /// Records what [`note`](Self::note) would have for a match made elsewhere (read
    /// from a record).
    pub fn backfill(&mut self, searchers: &mut Searchers<'_>) -> Result<(), MatchError> {
        let limit = self.chart_time();
        self.chart.backfill(&self.game, limit, searchers)
    }

    /// The chart's points of battle `number`: one before its first move and one after
    /// each (`null` where none was recorded); a battle the match does not have refused
    /// in the words every door answers.
    pub fn points(&self, number: usize) -> Result<Json, ViewError> {
        self.battle(number, None)?;
        Ok(self
            .chart
            .points(&self.game, number)
            .unwrap_or(Json::List(Vec::new())))
    }

    /// Battle `number`'s start and its first `ply` moves (every move so far with
    /// `None`); a battle the match does not have, or more moves than it has, refused in
    /// the words every door answers (a page's 404).
    pub fn battle(
        &self,
        number: usize,
        ply: Option<usize>,
    ) -> Result<(Position, Vec<usize>), ViewError> {
        let (start, moves) = view::battle_moves(&self.game, number, ply)?;
        Ok((start, moves.to_vec()))
    }

    /// The match's whole state as the page shows it: the core's view of the match
    /// (with `battles`, the scored battles too; with `played`, the move just made), the
    /// chart's points of the battle shown, who plays and how many people do.
    pub fn view(&self, battles: bool, played: bool) -> Result<Json, ViewError> {
        let mut data = view::match_state(&self.game, battles, played)?;
        if let Some(mut battle) = data.get("battle").cloned() {
            battle.set("points", self.points(view::battle_number(&self.game))?);
            data.set("battle", battle);
        }
        data.set("human", Json::letter(self.human));
        data.set("players", Json::Int(self.players().into()));
        Ok(data)
    }

    /// Battle `number` as the page shows it: its start, its plies, its scoring once
    /// scored, and the chart's points.
    pub fn battle_view(&self, number: usize) -> Result<Json, ViewError> {
        self.battle(number, None)?;
        let mut data = view::battle_view(&self.game, number)?.ok_or(ViewError::NoBattle {
            number,
            shown: view::battle_number(&self.game),
        })?;
        data.set("points", self.points(number)?);
        Ok(data)
    }

    /// The position after the first `ply` moves of battle `number`, drawn with its piles
    /// where they were and the move that led there marked.
    pub fn ply_view(&self, number: usize, ply: usize) -> Result<Json, ViewError> {
        let (start, moves) = self.battle(number, Some(ply))?;
        let mut data = view::line(&start, &moves)?;
        if let Json::Object(fields) = &mut data {
            fields.retain(|(name, _)| *name != "line");
        }
        data.set("battle", Json::Int(number as i64));
        data.set("ply", Json::Int(ply as i64));
        Ok(data)
    }

    /// The hint for the side that acts: the analysis of the position and the chances
    /// of winning the match, within the cap.
    pub fn hint(&self, searchers: &mut Searchers<'_>) -> Result<Json, MatchError> {
        analysis::hint(&self.game, self.acts(), self.cap, searchers)
    }

    /// Battle `number`'s moves judged against perfect play: each position looked at
    /// within a quarter of the cap, the whole review within the cap.
    pub fn review(&self, number: usize, on: On<'_>) -> Result<Json, ViewError> {
        let (start, moves) = self.battle(number, None)?;
        let judged = analysis::review(&start, &moves, self.cap / 4, self.cap, on)?;
        Ok(Json::Object(vec![
            ("number", Json::Int(number as i64)),
            ("start", Json::Str(start.to_string())),
            ("moves", judged),
        ]))
    }

    /// The match's record with the sides named as the seats name them (`ai`: the AI's
    /// name), and the door's `event` and `date` tags.
    pub fn record(&self, ai: &str, event: &str, date: &str) -> Result<String, RecordError> {
        let [red, black] = self.seats.names(ai);
        let tags = [
            ("Event".to_string(), event.to_string()),
            ("Date".to_string(), date.to_string()),
            ("Red".to_string(), red),
            ("Black".to_string(), black),
        ];
        record::write(&self.game, &tags, &record::Notes::default(), true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::odds::with_match_searcher;

    fn session(players: u8) -> Session {
        let game = Match::new(Player::Red, 15, 3, 5, &[]).unwrap();
        Session::new(game, Player::Red, players, Duration::from_secs(2)).unwrap()
    }

    fn noted(session: &mut Session) {
        with_match_searcher(|odds| {
            let mut searchers = Searchers {
                margin: On::thread(1),
                odds,
            };
            session.note(&mut searchers).unwrap();
        });
    }

    #[test]
    fn a_match_against_the_ai_takes_turns_and_keeps_its_chart() {
        let mut session = session(1);
        noted(&mut session);
        let mut bot = Bot::new(9, 1).unwrap();
        // Red is the person: the AI may not move first, the person may.
        assert_eq!(session.ai_move(&mut bot), Err(SeatsError::NotAiTurn));
        let mv = session.game().legal_moves()[0];
        session.play(mv).unwrap();
        noted(&mut session);
        while session.game().position().to_move() == Player::Red {
            let mv = session.game().legal_moves()[0];
            session.play(mv).unwrap();
            noted(&mut session);
        }
        assert_eq!(session.play(0), Err(SeatsError::AiToMove));
        let played = session.ai_move(&mut bot).unwrap();
        assert!(matches!(played, AiAction::Played(_)));
        // Within the page's time, one second at most.
        assert_eq!(bot.limits().time, Some(Duration::from_secs(1)));
        noted(&mut session);
        let view = session.view(true, true).unwrap();
        assert_eq!(view.get("human"), Some(&Json::Str("r".into())));
        assert_eq!(view.get("players"), Some(&Json::Int(1)));
        let Some(Json::List(points)) = view.get("battle").and_then(|b| b.get("points")) else {
            panic!("the battle's points");
        };
        assert_eq!(points.len(), session.game().moves().len() + 1);
        assert!(points.iter().all(|point| *point != Json::Null));
        assert!(view.get("played").is_some());
    }

    #[test]
    fn the_searches_share_out_the_cap() {
        let game = Match::new(Player::Red, 15, 3, 5, &[]).unwrap();
        let short = Session::new(game, Player::Black, 1, Duration::from_millis(400)).unwrap();
        assert_eq!(short.ai_limits().time, Some(Duration::from_millis(400)));
        assert_eq!(short.chart_time(), Duration::from_millis(200));
        assert_eq!(session(1).ai_limits().time, Some(AI_MOVE_TIME));
    }

    #[test]
    fn battles_and_plies_out_of_the_match_are_refused_in_its_words() {
        let mut session = session(2);
        session.play(session.game().legal_moves()[0]).unwrap();
        assert_eq!(
            session.battle(3, None).unwrap_err().to_string(),
            "no battle 3 in this match (it has 1)"
        );
        assert_eq!(
            session.battle(1, Some(4)).unwrap_err().to_string(),
            "battle 1 has 1 moves, not 4"
        );
        let ply = session.ply_view(1, 1).unwrap();
        assert_eq!(ply.get("ply"), Some(&Json::Int(1)));
        assert!(ply.get("line").is_none());
        assert!(session.battle_view(2).is_err());
        // Two people: no AI to ask, the side to move plays and acts.
        assert_eq!(session.ai_turn(), Err(SeatsError::NoAi));
        assert_eq!(session.acts(), session.game().position().to_move());
    }

    #[test]
    fn the_record_names_the_sides_as_the_seats_do() {
        let text = session(1)
            .record("buttonup level 5", "a page", "2026.12.06")
            .unwrap();
        assert!(text.contains("[Red \"You\"]"), "{text}");
        assert!(text.contains("[Black \"buttonup level 5\"]"), "{text}");
        assert!(text.contains("[Event \"a page\"]"), "{text}");
        let two = session(2).record("unused", "a page", "2026.12.06").unwrap();
        assert!(two.contains("[Red \"Red player\"]"), "{two}");
    }
}

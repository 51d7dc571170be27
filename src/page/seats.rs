//! Who plays a match at one screen, and the turn rules that follow: one person against
//! the AI, or two people passing the screen. The web page's matches (the server's and
//! the offline page's) ask these rules before they change a match, so that what a page
//! may do, and the words of each refusal, are written once. The match's own
//! rules come after them: a refusal the match makes (no choice due, nothing to undo, an
//! illegal move) is the match's error, unchanged.

use std::fmt;

use crate::game::error_kind::{ErrorKind, HasKind};
use crate::game::match_rules::{Match, MatchError};
use crate::game::rules::{Player, Sowing};

/// Who sits at a match's screen.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Seats {
    /// One person, playing this colour, against the AI.
    Against(Player),
    /// Two people sharing the screen: each move is the side to move's.
    PassAndPlay,
}

/// Why the people at the screen may not do what they asked.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SeatsError {
    /// A person's move while the AI is to move.
    AiToMove,
    /// The AI asked for in a match two people play.
    NoAi,
    /// The AI asked for while it is neither to move nor to choose.
    NotAiTurn,
    /// The person's choice of starter while the AI must make it.
    AiChooses,
    /// An undo of the person's moves in a battle where he has made none.
    NoMoveOfYours,
    /// A count of people at the screen other than 1 or 2.
    Players(u8),
    /// What the match itself refuses.
    Match(MatchError),
}

impl fmt::Display for SeatsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SeatsError::AiToMove => write!(f, "it is the AI's turn"),
            SeatsError::NoAi => write!(f, "no AI in this match: two players share the screen"),
            SeatsError::NotAiTurn => write!(f, "it is not the AI's turn"),
            SeatsError::AiChooses => write!(f, "no choice of starter is yours to make"),
            SeatsError::NoMoveOfYours => {
                write!(f, "there is no move of yours to take back in this battle")
            }
            SeatsError::Players(players) => {
                write!(f, "players must be 1 (against the AI) or 2, not {players}")
            }
            SeatsError::Match(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for SeatsError {}

impl From<MatchError> for SeatsError {
    fn from(error: MatchError) -> SeatsError {
        SeatsError::Match(error)
    }
}

impl HasKind for SeatsError {
    fn kind(&self) -> ErrorKind {
        match self {
            SeatsError::Match(error) => error.kind(),
            SeatsError::Players(_) => ErrorKind::InvalidArgument,
            _ => ErrorKind::MatchState,
        }
    }
}

/// What the AI is to do now (:meth:`Seats::ai_turn`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AiTurn {
    /// Choose who starts the next battle (the tie rule gives it the choice).
    ChooseStarter,
    /// Play a move.
    Move,
}

impl Seats {
    /// The seats of a match: `players` 1 (the person plays `human`) or 2.
    pub fn new(human: Player, players: u8) -> Result<Seats, SeatsError> {
        match players {
            1 => Ok(Seats::Against(human)),
            2 => Ok(Seats::PassAndPlay),
            _ => Err(SeatsError::Players(players)),
        }
    }

    /// The AI's colour (`None` with two people).
    pub fn ai(self) -> Option<Player> {
        match self {
            Seats::Against(human) => Some(human.other()),
            Seats::PassAndPlay => None,
        }
    }

    /// The side whose hints and choices the screen shows: the person's, or with two
    /// people the side to move's.
    pub fn acts(self, game: &Match) -> Player {
        match self {
            Seats::Against(human) => human,
            Seats::PassAndPlay => game.position().to_move(),
        }
    }

    /// The names a record of the match gives its sides, Red's first: `You` and `ai`
    /// (the AI's name) for one person against the AI, `Red player` and `Black player`
    /// for two.
    pub fn names(self, ai: &str) -> [String; 2] {
        match self {
            Seats::Against(Player::Red) => ["You".to_string(), ai.to_string()],
            Seats::Against(Player::Black) => [ai.to_string(), "You".to_string()],
            Seats::PassAndPlay => ["Red player".to_string(), "Black player".to_string()],
        }
    }

    /// Whether a person may move now (the match's own refusals come after).
    pub fn check_play(self, game: &Match) -> Result<(), SeatsError> {
        if let Seats::Against(human) = self {
            if game.check_playing().is_ok() && game.position().to_move() != human {
                return Err(SeatsError::AiToMove);
            }
        }
        Ok(())
    }

    /// A person's move (with two people, the side to move's).
    pub fn play(self, game: &mut Match, mv: usize) -> Result<Sowing, SeatsError> {
        self.check_play(game)?;
        Ok(game.play(mv)?)
    }

    /// What the AI is to do now, if anything.
    pub fn ai_turn(self, game: &Match) -> Result<AiTurn, SeatsError> {
        let ai = self.ai().ok_or(SeatsError::NoAi)?;
        if game.chooser() == Some(ai) {
            return Ok(AiTurn::ChooseStarter);
        }
        if game.check_playing().is_err() || game.position().to_move() != ai {
            return Err(SeatsError::NotAiTurn);
        }
        Ok(AiTurn::Move)
    }

    /// Whether a person may choose the starter now (the match's own refusals, no
    /// choice due, come after).
    pub fn check_choose(self, game: &Match) -> Result<(), SeatsError> {
        match self.ai() {
            Some(ai) if game.chooser() == Some(ai) => Err(SeatsError::AiChooses),
            _ => Ok(()),
        }
    }

    /// A person's choice of starter (the tie rule).
    pub fn choose(self, game: &mut Match, starter: Player) -> Result<(), SeatsError> {
        self.check_choose(game)?;
        Ok(game.choose_starter(starter)?)
    }

    /// Takes back the person's last move of the battle and the AI's replies after it
    /// (with two people, the battle's last move); the moves taken back, the last first.
    pub fn undo(self, game: &mut Match) -> Result<Vec<usize>, SeatsError> {
        let Seats::Against(human) = self else {
            return Ok(vec![game.undo()?]);
        };
        let mut movers = game.movers();
        if game.check_playing().is_ok() && !movers.is_empty() && !movers.contains(&human) {
            return Err(SeatsError::NoMoveOfYours);
        }
        let mut taken = Vec::new();
        loop {
            taken.push(game.undo()?);
            if movers.pop() == Some(human) {
                return Ok(taken);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn match_of(seed: u64) -> Match {
        Match::new(Player::Red, 15, 3, seed, &[]).unwrap()
    }

    #[test]
    fn a_record_names_the_person_you_and_two_people_by_colour() {
        assert_eq!(
            Seats::Against(Player::Black).names("level 4"),
            ["level 4", "You"]
        );
        assert_eq!(
            Seats::Against(Player::Red).names("level 4"),
            ["You", "level 4"]
        );
        assert_eq!(
            Seats::PassAndPlay.names("level 4"),
            ["Red player", "Black player"]
        );
    }

    #[test]
    fn a_person_moves_only_on_his_turn_and_the_ai_only_on_its() {
        let seats = Seats::Against(Player::Red);
        let mut game = match_of(1);
        assert_eq!(seats.ai_turn(&game), Err(SeatsError::NotAiTurn));
        let mv = game.legal_moves()[0];
        seats.play(&mut game, mv).unwrap();
        while game.position().to_move() == Player::Red && game.check_playing().is_ok() {
            let mv = game.legal_moves()[0];
            seats.play(&mut game, mv).unwrap();
        }
        if game.check_playing().is_ok() {
            let mv = game.legal_moves()[0];
            assert_eq!(seats.play(&mut game, mv).unwrap_err(), SeatsError::AiToMove);
            assert_eq!(seats.ai_turn(&game), Ok(AiTurn::Move));
        }
        assert_eq!(Seats::PassAndPlay.ai_turn(&game), Err(SeatsError::NoAi));
    }

    #[test]
    fn undo_takes_back_the_persons_move_and_the_replies_after_it() {
        let seats = Seats::Against(Player::Red);
        let mut game = match_of(2);
        // Nothing played: the match's own refusal.
        let nothing = seats.undo(&mut game).unwrap_err();
        assert_eq!(nothing, SeatsError::Match(MatchError::NothingToUndo));
        assert_eq!(nothing.kind(), ErrorKind::MatchState);
        let first = game.legal_moves()[0];
        seats.play(&mut game, first).unwrap();
        let mut played = vec![first];
        while game.position().to_move() == Player::Black && game.check_playing().is_ok() {
            let mv = game.legal_moves()[0];
            game.play(mv).unwrap();
            played.push(mv);
        }
        if game.battles().is_empty() {
            let taken = seats.undo(&mut game).unwrap();
            played.reverse();
            assert_eq!(taken, played);
            assert!(game.moves().is_empty());
        }
    }

    #[test]
    fn only_the_ai_s_moves_in_a_battle_are_none_of_the_persons() {
        // Black against an AI that starts: after its first move, nothing is Black's.
        let seats = Seats::Against(Player::Black);
        let mut game = match_of(3);
        let mv = game.legal_moves()[0];
        game.play(mv).unwrap();
        if game.position().to_move() == Player::Red || !game.battles().is_empty() {
            return; // an extra move, or a one-move battle: not this case
        }
        assert_eq!(
            seats.undo(&mut game).unwrap_err(),
            SeatsError::NoMoveOfYours
        );
        assert_eq!(
            seats.undo(&mut game).unwrap_err().to_string(),
            "there is no move of yours to take back in this battle"
        );
        assert_eq!(game.moves(), &[mv]);
    }

    #[test]
    fn the_choice_is_the_persons_only_where_the_tie_rule_gives_it_him() {
        let seats = Seats::Against(Player::Red);
        let mut game = match_of(4);
        // No choice due: the match's own words.
        let refused = seats.choose(&mut game, Player::Red).unwrap_err();
        assert_eq!(refused.to_string(), "no choice of starter is due");
        assert!(Seats::new(Player::Red, 3).is_err());
        // A match played on (the first legal move each time) until the tie rule gives
        // a colour the choice: some seed gets there.
        let (mut game, chooser) = (1..200)
            .find_map(|seed| {
                let mut game = match_of(seed);
                while game.winner().is_none() {
                    if let Some(who) = game.chooser() {
                        return Some((game, who));
                    }
                    let mv = game.legal_moves()[0];
                    game.play(mv).unwrap();
                }
                None
            })
            .expect("a seed whose match reaches the tie rule");
        let against_it = Seats::Against(chooser.other());
        let refused = against_it.choose(&mut game, Player::Red).unwrap_err();
        assert_eq!(refused, SeatsError::AiChooses);
        assert_eq!(refused.kind(), ErrorKind::MatchState);
        assert_eq!(against_it.ai_turn(&game), Ok(AiTurn::ChooseStarter));
        Seats::Against(chooser)
            .choose(&mut game, Player::Black)
            .unwrap();
        assert_eq!(game.position().to_move(), Player::Black);
        assert_eq!(Seats::new(Player::Black, 2).unwrap(), Seats::PassAndPlay);
    }
}

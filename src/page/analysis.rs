//! What a page shows of the engine's judgement, made once for every door: a
//! position's analysis (every move's exact value, the best line), the hint of a match
//! (that analysis and the chances of winning the match), the review of a battle's
//! moves, and the chart's points (each colour's margin under perfect play and chance of
//! winning the match, after each move) kept for a match. The server (Python) and the
//! offline page (WebAssembly) convert the same [`Json`]; each says where its searches
//! run (the server on its threads' tables, the page on its module's searchers).

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::time::Duration;

use crate::game::match_rules::{Match, MatchError};
use crate::game::rules::{Player, Position};
use crate::game::variant::Capability;
use crate::odds::{lock_odds, move_chances, red_chance_at, shared_odds};
use crate::page::view::{self, Json, ViewError};
use crate::search::{analyze_within, go, Limits, On, Searcher};

/// Positions of at most this many buttons get a margin on the chart (solved at once).
pub const CHARTED_BUTTONS: usize = 15;

/// Where a door's analysis searches: battle margins on the tables (and threads) `margin`
/// names, the match odds' positions (whose payoff is the match's) on `odds`.
pub struct Searchers<'a> {
    /// Battle margins (`Payoff::Margin`).
    pub margin: On<'a>,
    /// The match odds' positions.
    pub odds: &'a mut Searcher,
}

/// `{"r": red, "b": black}`.
fn by_colour(red: Json, black: Json) -> Json {
    Json::Object(vec![("r", red), ("b", black)])
}

/// A value for the side to move, as the page shows it: a whole number where it is one
/// (exact margins), else the estimate itself.
fn number(value: f64) -> Json {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        Json::Int(value as i64)
    } else {
        Json::Float(value)
    }
}

/// Every legal move's exact value for the side to move, or `None` if the analysis is
/// not done within `limit`.
fn values_within(position: &Position, limit: Duration, on: On<'_>) -> Option<Vec<(usize, f64)>> {
    let values = analyze_within(position, limit, on).ok()?;
    Some(
        values
            .into_iter()
            .map(|(mv, v)| (mv, f64::from(v)))
            .collect(),
    )
}

/// Each colour's margin in the battle under perfect play (his sum minus the other's
/// once it is over), Red's first; `None` for a position of more than
/// [`CHARTED_BUTTONS`] buttons or one not solved within `limit`.
pub fn margins(position: &Position, limit: Duration, on: On<'_>) -> [Option<i64>; 2] {
    if let Some(scoring) = position.scoring() {
        let margin = i64::from(scoring.margin());
        return [Some(margin), Some(-margin)];
    }
    if position.button_count() > CHARTED_BUTTONS {
        return [None, None];
    }
    let Some(values) = values_within(position, limit, on) else {
        return [None, None];
    };
    let best = values
        .iter()
        .map(|&(_, v)| v)
        .fold(f64::NEG_INFINITY, f64::max) as i64;
    match position.to_move() {
        Player::Red => [Some(best), Some(-best)],
        Player::Black => [Some(-best), Some(best)],
    }
}

/// Each colour's chance of winning `game` from where it stands under perfect match
/// play, Red's first: 1 and 0 once it is won; `None` for a variant beyond the match
/// odds' tables. A table that cannot be built, or an interruption, is the error.
pub fn chances(game: &Match, searcher: &mut Searcher) -> Result<[Option<f64>; 2], MatchError> {
    if let Some(winner) = game.winner() {
        let red = f64::from(u8::from(winner == Player::Red));
        return Ok([Some(red), Some(1.0 - red)]);
    }
    if !Capability::MatchOdds.supports(game.per_colour()) {
        return Ok([None, None]);
    }
    let battle = game.battle_position();
    let red = red_chance_at(game.standing(), battle.as_ref(), 1, searcher, None)?;
    Ok([Some(red), Some(1.0 - red)])
}

/// Where a match stood after some moves of a battle: each colour's margin and chance.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Point {
    /// Each colour's margin under perfect play (Red's first).
    pub margin: [Option<i64>; 2],
    /// Each colour's chance of winning the match (Red's first).
    pub chance: [Option<f64>; 2],
}

impl Point {
    /// Where `game` stands with `position` (its current one, or the final pile of the
    /// battle it just scored): its margins solved within `limit`, and its chances.
    fn at(
        game: &Match,
        position: &Position,
        limit: Duration,
        searchers: &mut Searchers<'_>,
    ) -> Result<Point, MatchError> {
        Ok(Point {
            margin: margins(position, limit, searchers.margin.reborrow()),
            chance: chances(game, searchers.odds)?,
        })
    }

    /// `{"margin": {"r", "b"}, "chance": {"r", "b"}}`.
    pub fn json(&self) -> Json {
        let int = |v: Option<i64>| v.map_or(Json::Null, Json::Int);
        let float = |v: Option<f64>| v.map_or(Json::Null, Json::Float);
        Json::Object(vec![
            (
                "margin",
                by_colour(int(self.margin[0]), int(self.margin[1])),
            ),
            (
                "chance",
                by_colour(float(self.chance[0]), float(self.chance[1])),
            ),
        ])
    }
}

/// The chart's key of the battle being played (its number and its moves so far) and
/// its position; `None` when the match is won or a starter must be chosen.
fn being_played(game: &Match) -> Option<((usize, Vec<usize>), Position)> {
    if game.winner().is_some() || game.chooser().is_some() {
        return None;
    }
    Some((
        (game.battles().len() + 1, game.moves().to_vec()),
        game.position(),
    ))
}

/// The chart's points of a match, by battle and the moves played in it: where the
/// match stood after each change a page saw (or, for a match read from a record, after
/// each move of its current battle and at the end of each scored one).
#[derive(Clone, Default, Debug)]
pub struct Chart {
    points: HashMap<(usize, Vec<usize>), Point>,
}

impl Chart {
    /// An empty chart.
    pub fn new() -> Chart {
        Chart::default()
    }

    /// Keeps the points of `other` too (a chart changed on a copy, merged back).
    pub fn absorb(&mut self, other: Chart) {
        self.points.extend(other.points);
    }

    /// Records the point of `key` (a battle and its moves so far), where it is not yet:
    /// `game` standing at `position` (its current one, or the final pile of the battle
    /// it just scored).
    fn record(
        &mut self,
        key: (usize, Vec<usize>),
        game: &Match,
        position: &Position,
        limit: Duration,
        searchers: &mut Searchers<'_>,
    ) -> Result<(), MatchError> {
        if let Entry::Vacant(slot) = self.points.entry(key) {
            slot.insert(Point::at(game, position, limit, searchers)?);
        }
        Ok(())
    }

    /// Records the point for the state `game` is in (run after every change): the end
    /// of the battle just scored, if not recorded, and the current position of the
    /// battle being played. Each margin is solved within `limit`; the match odds'
    /// error (a table not built, an interruption) leaves the point unrecorded.
    pub fn note(
        &mut self,
        game: &Match,
        limit: Duration,
        searchers: &mut Searchers<'_>,
    ) -> Result<(), MatchError> {
        if let Some(last) = game.battles().last() {
            let key = (game.battles().len(), last.moves.clone());
            self.record(key, game, &last.last, limit, searchers)?;
        }
        match being_played(game) {
            Some((key, position)) => self.record(key, game, &position, limit, searchers),
            None => Ok(()),
        }
    }

    /// Records what [`note`](Self::note) would have for a match made elsewhere (read
    /// from a record): a point for each move of its current battle so far (its moves
    /// taken back one by one on a copy), and the final point of each battle scored (its
    /// chance known for the last one only: the match as it stood right after it).
    pub fn backfill(
        &mut self,
        game: &Match,
        limit: Duration,
        searchers: &mut Searchers<'_>,
    ) -> Result<(), MatchError> {
        let done = game.battles().len();
        let mut earlier = game.clone();
        while let Some((key, position)) = being_played(&earlier) {
            self.record(key, &earlier, &position, limit, searchers)?;
            if earlier.moves().is_empty() || earlier.undo().is_err() {
                break;
            }
        }
        for (index, battle) in game.battles().iter().enumerate() {
            let number = index + 1;
            let chance = if number == done {
                chances(&earlier, searchers.odds)?
            } else {
                [None, None]
            };
            let point = Point {
                margin: margins(&battle.last, limit, searchers.margin.reborrow()),
                chance,
            };
            self.points.insert((number, battle.moves.clone()), point);
        }
        Ok(())
    }

    /// The points of battle `number` of `game`: one before its first move and one after
    /// each (`null` where none was recorded); `None` when the match has no such battle.
    pub fn points(&self, game: &Match, number: usize) -> Option<Json> {
        let (_, moves) = view::battle(game, number)?;
        let points = (0..=moves.len())
            .map(|ply| {
                let key = (number, moves[..ply].to_vec());
                self.points.get(&key).map_or(Json::Null, Point::json)
            })
            .collect();
        Some(Json::List(points))
    }
}

/// Every move's exact value for the side to move and the best line, when the engine
/// solves them within half of `limit`; else the best line and value of a search
/// of the other half (`exact` false); which moves give an extra move.
pub fn analysis(position: &Position, limit: Duration, mut on: On<'_>) -> Json {
    if position.is_over() {
        return Json::Object(vec![
            ("value", Json::Null),
            ("moves", Json::Map(Vec::new())),
            ("pv", Json::List(Vec::new())),
            ("exact", Json::Bool(true)),
            ("extra_moves", Json::Map(Vec::new())),
        ]);
    }
    let half = limit / 2;
    let values = values_within(position, half, on.reborrow()).unwrap_or_default();
    let limits = Limits {
        time: Some(half),
        ..Limits::default()
    };
    let best = go(position, &limits, on, &mut |_| true);
    let value = if values.is_empty() {
        number(best.value)
    } else {
        number(
            values
                .iter()
                .map(|&(_, v)| v)
                .fold(f64::NEG_INFINITY, f64::max),
        )
    };
    let extra = position
        .legal_moves()
        .map(|mv| {
            let outcome = position.play_unchecked(mv);
            (mv.to_string(), Json::Bool(outcome.extra_move))
        })
        .collect();
    Json::Object(vec![
        ("value", value),
        (
            "moves",
            Json::Map(
                values
                    .iter()
                    .map(|&(mv, v)| (mv.to_string(), number(v)))
                    .collect(),
            ),
        ),
        (
            "pv",
            Json::List(best.pv.iter().map(|&mv| Json::Int(mv as i64)).collect()),
        ),
        ("exact", Json::Bool(!values.is_empty() && best.exact)),
        ("extra_moves", Json::Map(extra)),
    ])
}

/// The hint of a match for `side` (the human, or the side to move with two players at
/// one screen): the [`analysis`] of its position within `limit`, the position
/// answered for, `side`'s chance of winning the match from here
/// (`match_win_probability`, `null` once it is over or beyond the odds' tables) and,
/// when `side` is to move, his chance after each move (`match_odds`; his chance from
/// here is then the best of them). A match-odds table that cannot be built, or an
/// interruption, is the error.
pub fn hint(
    game: &Match,
    side: Player,
    limit: Duration,
    searchers: &mut Searchers<'_>,
) -> Result<Json, MatchError> {
    let position = game.position();
    let mut out = analysis(&position, limit, searchers.margin.reborrow());
    let mut chance = Json::Null;
    let mut odds = Vec::new();
    if game.winner().is_none() && Capability::MatchOdds.supports(game.per_colour()) {
        match (game.battle_position(), game.chooser()) {
            (Some(battle), None) if battle.to_move() == side && !battle.is_over() => {
                let standing = game.standing();
                let table = shared_odds(standing.target, standing.per_colour)?;
                let payoff = lock_odds(&table).payoff(standing)?;
                let after = move_chances(&payoff, &battle, 1, searchers.odds)
                    .map_err(|_| MatchError::Interrupted)?;
                let best = after
                    .iter()
                    .map(|&(_, c)| c)
                    .fold(f64::NEG_INFINITY, f64::max);
                chance = Json::Float(best);
                odds = after
                    .into_iter()
                    .map(|(mv, c)| (mv.to_string(), Json::Float(c)))
                    .collect();
            }
            _ => {
                let [red, black] = chances(game, searchers.odds)?;
                let mine = if side == Player::Red { red } else { black };
                chance = mine.map_or(Json::Null, Json::Float);
            }
        }
    }
    out.set("position", Json::Str(position.to_string()));
    out.set("match_odds", Json::Map(odds));
    out.set("match_win_probability", chance);
    Ok(out)
}

/// Each of `moves` played from a battle's `start` judged against perfect play (the
/// core's review: each position within `per_position`, the whole within
/// `budget`): each ply of the battle's line view with the mover's best margin, the
/// played move's, the loss (`mistake` when at least 1), the best moves and the best line
/// from the position before it (`null` values where not solved in time).
pub fn review(
    start: &Position,
    moves: &[usize],
    per_position: Duration,
    budget: Duration,
    on: On<'_>,
) -> Result<Json, ViewError> {
    let (plies, _) = view::plies(start, moves)?;
    let judged = crate::search::review(on, start, moves, per_position, budget)?;
    let optional = |v: Option<i32>| v.map_or(Json::Null, |v| Json::Int(i64::from(v)));
    let indices = |v: &[usize]| Json::List(v.iter().map(|&mv| Json::Int(mv as i64)).collect());
    Ok(Json::List(
        plies
            .into_iter()
            .zip(&judged)
            .map(|(mut ply, move_review)| {
                let loss = move_review.loss();
                ply.set("best_value", optional(move_review.best));
                ply.set("played_value", optional(move_review.played));
                ply.set("loss", optional(loss));
                ply.set("mistake", Json::Bool(loss.is_some_and(|l| l != 0)));
                ply.set("best_moves", indices(&move_review.best_moves));
                ply.set("best_line", indices(&move_review.best_line));
                ply
            })
            .collect(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules::Position;
    use crate::search::Payoff;

    const LIMIT: Duration = Duration::from_secs(60);

    fn searchers() -> (Searcher, Searcher) {
        (
            Searcher::new(Payoff::Margin, 1 << 20),
            Searcher::new(Payoff::Margin, 1 << 20),
        )
    }

    /// Plays the first legal move until battle `battles` is scored.
    fn played_until(game: &mut Match, battles: usize) {
        while game.battles().len() < battles {
            let mv = game.legal_moves()[0];
            game.play(mv).unwrap();
        }
    }

    #[test]
    fn a_margin_is_the_scoring_once_over_and_unknown_past_the_charted_size() {
        let mut game = Match::new(Player::Red, 15, 3, 4, &[]).unwrap();
        played_until(&mut game, 1);
        let (mut margin, _) = searchers();
        let last = &game.battles()[0];
        let expected = i64::from(last.scoring.red) - i64::from(last.scoring.black);
        assert_eq!(
            margins(&last.last, LIMIT, On::from(&mut margin)),
            [Some(expected), Some(-expected)]
        );
        let big = Position::random(6, Player::Red, 1).unwrap();
        assert!(big.button_count() > CHARTED_BUTTONS);
        assert_eq!(margins(&big, LIMIT, On::from(&mut margin)), [None, None]);
    }

    #[test]
    fn the_chart_has_a_point_per_move_and_backfill_agrees_with_note() {
        let mut game = Match::new(Player::Red, 15, 3, 9, &[]).unwrap();
        let (mut margin, mut odds) = searchers();
        let mut searchers = Searchers {
            margin: On::from(&mut margin),
            odds: &mut odds,
        };
        let mut noted = Chart::new();
        noted.note(&game, LIMIT, &mut searchers).unwrap();
        while game.battles().len() < 2 {
            let mv = game.legal_moves()[0];
            game.play(mv).unwrap();
            noted.note(&game, LIMIT, &mut searchers).unwrap();
        }
        let Some(Json::List(first)) = noted.points(&game, 1) else {
            panic!("battle 1")
        };
        assert_eq!(first.len(), game.battles()[0].moves.len() + 1);
        assert!(first.iter().all(|point| *point != Json::Null));
        assert_eq!(noted.points(&game, 9), None);
        let mut read = Chart::new();
        read.backfill(&game, LIMIT, &mut searchers).unwrap();
        // A chart read from a record knows each battle's end and the current battle.
        let Some(Json::List(current)) = read.points(&game, 3) else {
            panic!("battle 3")
        };
        assert_eq!(Some(Json::List(current)), noted.points(&game, 3));
        let Some(Json::List(ended)) = read.points(&game, 2) else {
            panic!("battle 2")
        };
        let Some(Json::List(seen)) = noted.points(&game, 2) else {
            panic!("battle 2")
        };
        assert_eq!(ended.last(), seen.last());
        assert_eq!(ended[0], Json::Null);
    }

    #[test]
    fn a_review_marks_the_moves_that_give_a_margin_away() {
        let mut game = Match::new(Player::Red, 15, 3, 5, &[]).unwrap();
        played_until(&mut game, 1);
        let battle = &game.battles()[0];
        let (mut searcher, _) = searchers();
        let Json::List(plies) = review(
            &battle.start,
            &battle.moves,
            LIMIT,
            LIMIT,
            On::from(&mut searcher),
        )
        .unwrap() else {
            panic!("a list")
        };
        assert_eq!(plies.len(), battle.moves.len());
        let mut position = battle.start;
        for (ply, &mv) in plies.iter().zip(&battle.moves) {
            let values = searcher.analyze(&position);
            let best = values
                .iter()
                .map(|&(_, v)| v)
                .fold(f64::NEG_INFINITY, f64::max) as i64;
            let played = values.iter().find(|&&(m, _)| m == mv).unwrap().1 as i64;
            assert_eq!(ply.get("best_value"), Some(&Json::Int(best)));
            assert_eq!(ply.get("loss"), Some(&Json::Int(best - played)));
            assert_eq!(ply.get("mistake"), Some(&Json::Bool(best != played)));
            position = position.play(mv).unwrap().position;
        }
    }
}

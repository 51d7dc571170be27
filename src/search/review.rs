//! The review of a battle's moves against perfect play, within a time budget: what the
//! page shows after a battle, for every door (the server and the offline page ask this,
//! so that a big imported battle costs the same bounded time everywhere).

use std::time::Duration;

use crate::run::clock::Instant;
use crate::{IllegalMove, Position};

use super::{analyze_within, go, Limits, On};

/// One move judged against perfect play.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// The mover's best margin (exact; `None` where not solved in its time).
    pub best: Option<i32>,
    /// The margin of the move played, for the mover (exact, or `None`).
    pub played: Option<i32>,
    /// The moves of the best value, in pile order.
    pub best_moves: Vec<usize>,
    /// The best line from the position before the move (empty when no time was left).
    pub best_line: Vec<usize>,
}

impl MoveReview {
    /// The margin the move gave away (`None` when either value is unknown).
    pub fn loss(&self) -> Option<i32> {
        Some(self.best? - self.played?)
    }
}

/// Below this much time left, a position is not looked at (no search is useful in it).
const LEAST: Duration = Duration::from_millis(5);

/// Each of `moves`, played from a battle's `start`, judged: each analysis and each best
/// line within `per_position`, all of it within `budget`; an illegal move is refused
/// before any search. The moves are judged from the last one back: late positions are
/// small and solved at once, so a budget too short for a big battle leaves unknown only
/// its first moves, not all of them.
pub fn review<'a>(
    on: impl Into<On<'a>>,
    start: &Position,
    moves: &[usize],
    per_position: Duration,
    budget: Duration,
) -> Result<Vec<MoveReview>, IllegalMove> {
    let mut plies = Vec::with_capacity(moves.len());
    let mut position = *start;
    for &mv in moves {
        plies.push((position, mv));
        position = position.play(mv)?.position;
    }
    let budget = Budget {
        started: Instant::now(),
        total: budget,
        per_position,
    };
    let mut on = on.into();
    let mut out: Vec<MoveReview> = plies
        .iter()
        .rev()
        .map(|&(before, played)| judge(on.reborrow(), &before, played, &budget))
        .collect();
    out.reverse();
    Ok(out)
}

/// The move `played` in `before`, judged within what is left of `budget`.
fn judge(mut on: On<'_>, before: &Position, played: usize, budget: &Budget) -> MoveReview {
    let values = budget
        .next_look()
        .and_then(|time| analyze_within(before, time, on.reborrow()).ok())
        .unwrap_or_default();
    let value_of = |&(mv, value): &(usize, i32)| (mv, value);
    let best = values.iter().map(|v| value_of(v).1).max();
    let best_moves = values
        .iter()
        .map(value_of)
        .filter(|&(_, value)| Some(value) == best)
        .map(|(mv, _)| mv)
        .collect();
    let played = values
        .iter()
        .map(value_of)
        .find(|&(mv, _)| mv == played)
        .map(|(_, v)| v);
    let best_line = budget
        .next_look()
        .map(|time| {
            let limits = Limits {
                time: Some(time),
                ..Limits::default()
            };
            go(before, &limits, on, &mut |_| true).pv
        })
        .unwrap_or_default();
    MoveReview {
        best,
        played,
        best_moves,
        best_line,
    }
}

/// The time of a review: `total` from `started`, at most `per_position` a look.
struct Budget {
    started: Instant,
    total: Duration,
    per_position: Duration,
}

impl Budget {
    /// The time of the next look: `per_position`, but not past the end of the budget;
    /// `None` when too little of it is left.
    fn next_look(&self) -> Option<Duration> {
        let left = self.total.saturating_sub(self.started.elapsed());
        (left >= LEAST).then(|| self.per_position.min(left))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Payoff, Searcher};

    const START: &str = "W/R/B/W/B/R/R/W/B r";

    /// `count` moves from `start`, each the first legal move.
    fn moves_of(start: &Position, count: usize) -> Vec<usize> {
        let mut position = *start;
        (0..count)
            .map(|_| {
                let mv = position.legal_moves().next().unwrap();
                position = position.play(mv).unwrap().position;
                mv
            })
            .collect()
    }

    #[test]
    fn each_move_is_judged_by_the_exact_values() {
        let mut searcher = Searcher::new(Payoff::Margin, 1 << 16);
        let start: Position = START.parse().unwrap();
        let moves = moves_of(&start, 3);
        let second = Duration::from_secs(1);
        let judged = review(&mut searcher, &start, &moves, second, 5 * second).unwrap();
        assert_eq!(judged.len(), 3);
        let mut before = start;
        for (&played, judged) in moves.iter().zip(&judged) {
            let values: Vec<(usize, i32)> = searcher
                .analyze(&before)
                .iter()
                .map(|&(m, v)| (m, v as i32))
                .collect();
            let best = values.iter().map(|v| v.1).max();
            assert_eq!(judged.best, best);
            assert_eq!(
                judged.played,
                values.iter().find(|v| v.0 == played).map(|v| v.1)
            );
            assert_eq!(judged.loss(), Some(best.unwrap() - judged.played.unwrap()));
            let best_moves: Vec<usize> = values
                .iter()
                .filter(|v| Some(v.1) == best)
                .map(|v| v.0)
                .collect();
            assert_eq!(judged.best_moves, best_moves);
            assert!(best_moves.contains(&judged.best_line[0]));
            before = before.play(played).unwrap().position;
        }
    }

    #[test]
    fn no_budget_leaves_every_move_unknown() {
        let mut searcher = Searcher::new(Payoff::Margin, 1 << 16);
        let start: Position = START.parse().unwrap();
        let moves = moves_of(&start, 2);
        let judged = review(
            &mut searcher,
            &start,
            &moves,
            Duration::from_secs(1),
            Duration::ZERO,
        )
        .unwrap();
        let unknown = MoveReview {
            best: None,
            played: None,
            best_moves: vec![],
            best_line: vec![],
        };
        assert_eq!(judged, vec![unknown.clone(), unknown]);
        assert_eq!(judged[0].loss(), None);
    }

    #[test]
    fn an_illegal_move_is_refused() {
        let mut searcher = Searcher::new(Payoff::Margin, 1 << 16);
        let start: Position = START.parse().unwrap();
        let second = Duration::from_secs(1);
        assert!(review(&mut searcher, &start, &[1], second, second).is_err());
    }
}

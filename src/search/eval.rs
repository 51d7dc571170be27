//! The horizon estimates of searches that stop before the end: the projection, here,
//! and which estimate a search uses ([`Estimate`]; the network is in [`super::net`]).
//!
//! The projection projects the final tower: buttons in piles that hold a white button will be lifted
//! and dropped on top of others, so they are expected above every button of a pile
//! without white (which can only be covered); within each group a button higher in its
//! pile is expected higher in the tower. Ranking all buttons that way gives each an
//! estimated strength 1..N, and the estimate is Red's projected sum minus Black's.

use crate::game::rules::Position;

/// The buttons counted by group, (liftable pile, height in pile): the projection's ranks
/// come from them without sorting. A button's rank is the number of buttons in earlier
/// groups, plus the number before it (clockwise) in its own group, plus one. One pass
/// over the buttons sums, for each group, its signs (+1 red, -1 black, 0 white) and its
/// signs times their places in the group; [`Groups::each`] adds the offsets.
pub(super) struct Groups {
    count: [i32; GROUPS],
    signs: [i32; GROUPS],
    placed: [i32; GROUPS],
    tallest: usize,
}

const GROUPS: usize = 2 * crate::MAX_BUTTONS;

impl Groups {
    #[inline(always)]
    pub(super) fn of(position: &Position) -> Groups {
        let mut groups = Groups {
            count: [0; GROUPS],
            signs: [0; GROUPS],
            placed: [0; GROUPS],
            tallest: 0,
        };
        let (cells, _, _, _) = position.raw();
        // Rule 2 by top buttons: a pile is liftable when its top's bit is set.
        let liftable_tops = position.legal_tops();
        for (start, end) in position.pile_spans() {
            let liftable = liftable_tops >> (end - 1) & 1 == 1;
            let base = if liftable { crate::MAX_BUTTONS } else { 0 };
            for i in start..end {
                let group = base + (i - start) as usize;
                let sign = sign_at(cells, i);
                groups.placed[group] += sign * groups.count[group];
                groups.signs[group] += sign;
                groups.count[group] += 1;
            }
            groups.tallest = groups.tallest.max((end - start) as usize);
        }
        groups
    }

    /// Calls `visit(liftable, height, part, signs)` for each group in rank order: `part`
    /// is the group's share of the projection (its signs times their ranks), `signs` the
    /// sum of its signs.
    #[inline(always)]
    pub(super) fn each(&self, mut visit: impl FnMut(bool, usize, i32, i32)) {
        let mut offset = 0;
        for (liftable, base) in [(false, 0), (true, crate::MAX_BUTTONS)] {
            for height in 0..self.tallest {
                let group = base + height;
                let signs = self.signs[group];
                visit(
                    liftable,
                    height,
                    self.placed[group] + signs * (offset + 1),
                    signs,
                );
                offset += self.count[group];
            }
        }
    }
}

/// +1 for a red button at `i`, -1 for a black one, 0 for a white one.
#[inline(always)]
pub(super) fn sign_at(cells: u64, i: u32) -> i32 {
    match (cells >> (2 * i)) & 3 {
        1 => 1,  // red
        2 => -1, // black
        _ => 0,  // white
    }
}

/// The horizon estimates a search may use.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Estimate {
    /// The projection: cheaper than the network, and its yardstick (limited searches
    /// take it when the environment asks, see [`for_limited_search`](
    /// Self::for_limited_search)).
    Projection,
    /// The network of [`super::net`]: every search's. Within a depth, node or time
    /// limit it makes values and choices better; in an exact solve's deepening its
    /// values are the first guesses of the null-window tests, and a guess near the
    /// value saves whole tests (docs/benchmarks.md: 10 of each colour, seeds 1-3, two
    /// threads, in about half the time of the projection's guesses).
    Net,
}

impl Estimate {
    /// The estimate of searches within a limit: the network, unless the environment's
    /// `BUTTONUP_EVAL` is `projection` (read once; for benchmarks that compare the two
    /// in one build, as `benches/big_ai.py --projection` does).
    pub fn for_limited_search() -> Estimate {
        static CHOSEN: std::sync::OnceLock<Estimate> = std::sync::OnceLock::new();
        *CHOSEN.get_or_init(|| match std::env::var("BUTTONUP_EVAL").as_deref() {
            Ok("projection") => Estimate::Projection,
            _ => Estimate::Net,
        })
    }
}

/// Projected final margin (Red minus Black) of an unfinished position: the sum of each
/// button's sign times its rank (`Groups`).
#[inline(always)]
pub fn projected_margin(position: &Position) -> i32 {
    let mut total = 0;
    Groups::of(position).each(|_, _, part, _| total += part);
    total
}

/// The projection by sorting, as the module's doc says it (the test's yardstick).
#[cfg(test)]
fn projected_margin_by_sorting(position: &Position) -> i32 {
    use crate::game::rules::Colour;
    let mut keys = Vec::new();
    for p in 0..position.pile_count() {
        let liftable = position.pile(p).any(|c| c == Colour::White);
        for (height, colour) in position.pile(p).enumerate() {
            let sign = match colour {
                Colour::Red => 1,
                Colour::Black => -1,
                Colour::White => 0,
            };
            keys.push((u8::from(liftable), height as u8, sign));
        }
    }
    keys.sort_by_key(|&(liftable, height, _)| (liftable, height));
    keys.iter()
        .enumerate()
        .map(|(rank, &(_, _, sign))| sign * (rank as i32 + 1))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::notation::parse;

    #[test]
    fn finished_towers_are_scored_exactly() {
        let p = parse("RBWWBRWBR b").unwrap();
        assert_eq!(projected_margin(&p), p.margin().unwrap());
    }

    #[test]
    fn counting_ranks_gives_the_sorted_ranks() {
        crate::sim::playout::each_random_battle(5, [1, 3, 6, 10], 200, |p, mv| {
            if mv.is_some() {
                assert_eq!(projected_margin(p), projected_margin_by_sorting(p), "{p:?}");
            } else {
                assert_eq!(projected_margin(p), p.margin().unwrap());
            }
        });
    }

    #[test]
    fn liftable_piles_are_expected_on_top() {
        // R sits in a pile with white: it is projected above B.
        assert!(projected_margin(&parse("B/RW r").unwrap()) > 0);
        assert!(projected_margin(&parse("R/BW r").unwrap()) < 0);
    }
}

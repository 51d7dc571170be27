//! Variants: the same rules with another count of buttons of each colour. This is the
//! one place that says which counts each capability supports; every check and every
//! error message about a count comes from here.

use std::fmt;

use crate::game::rules::{Colour, Player, Position, MAX_BUTTONS};

/// The buttons of each colour of the standard game (rule 1).
pub const STANDARD_PER_COLOUR: usize = 3;

/// What the engine can do with a variant, each up to its own count of buttons of each
/// colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Capability {
    /// Positions and moves (rules 1 to 6): as many buttons as a position holds.
    Rules,
    /// Listing every start order (1,680 for three of each colour, 17,153,136 for six).
    StartOrders,
    /// The precomputed move graph that random playouts walk.
    MoveGraph,
    /// Exact match win probabilities, and so the match-playing bot.
    MatchOdds,
    /// Listing every position that play reaches (112,760 for three of each colour).
    Positions,
}

impl Capability {
    /// Every capability, in the order of the table in docs/ai.md.
    pub const ALL: [Capability; 5] = [
        Capability::Rules,
        Capability::StartOrders,
        Capability::MoveGraph,
        Capability::MatchOdds,
        Capability::Positions,
    ];

    /// The largest number of buttons of each colour this capability supports (the
    /// smallest is always 1).
    pub const fn max_per_colour(self) -> usize {
        match self {
            Capability::Rules => MAX_BUTTONS / 3,
            Capability::StartOrders => 6,
            Capability::MoveGraph | Capability::MatchOdds | Capability::Positions => 3,
        }
    }

    /// The name used in messages and in Python (`buttonup.VARIANT_LIMITS`).
    pub const fn name(self) -> &'static str {
        match self {
            Capability::Rules => "rules",
            Capability::StartOrders => "start_orders",
            Capability::MoveGraph => "move_graph",
            Capability::MatchOdds => "match_odds",
            Capability::Positions => "positions",
        }
    }

    /// Whether `per_colour` buttons of each colour are supported.
    pub const fn supports(self, per_colour: usize) -> bool {
        per_colour >= 1 && per_colour <= self.max_per_colour()
    }

    /// `per_colour` if supported, or an error naming the limit.
    pub fn check(self, per_colour: i64) -> Result<usize, VariantError> {
        match usize::try_from(per_colour) {
            Ok(n) if self.supports(n) => Ok(n),
            _ => Err(VariantError {
                capability: self,
                per_colour: per_colour.to_string(),
            }),
        }
    }
}

/// A count of buttons of each colour that a capability does not support.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct VariantError {
    /// The capability asked for.
    pub capability: Capability,
    /// The count as it was given.
    pub per_colour: String,
}

crate::game::error_kind::one_kind! { VariantError => InvalidArgument }

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.capability {
            Capability::Rules => "per_colour must be from",
            Capability::StartOrders => "start orders are listed for",
            Capability::MoveGraph => "the move graph is built for",
            Capability::MatchOdds => "match odds are computed for",
            Capability::Positions => "every position is listed for",
        };
        let unit = match self.capability {
            Capability::Rules => "",
            _ => " buttons of each colour",
        };
        write!(
            f,
            "{what} 1 to {}{unit}, not {}",
            self.capability.max_per_colour(),
            self.per_colour
        )
    }
}

impl std::error::Error for VariantError {}

/// The buttons of a battle with `per_colour` of each of the three colours (rule 1): the
/// piles of its start, and the height of its final pile.
pub const fn buttons(per_colour: usize) -> usize {
    3 * per_colour
}

/// Every distinct circle of rule 1 with `per_colour` buttons of each colour, as start
/// orders (one letter a pile, clockwise), in lexicographic order (`B < R < W`).
pub fn start_orders(per_colour: usize) -> Result<Vec<String>, VariantError> {
    Ok(StartOrders::from(per_colour, 0)?.collect())
}

/// How many start orders [`start_orders`] lists: `(3k)! / (k!)^3` for `k` of each colour.
pub fn start_order_count(per_colour: usize) -> Result<u64, VariantError> {
    Capability::StartOrders.check(per_colour as i64)?;
    Ok(arrangements([per_colour; 3]) as u64)
}

/// The place of `order` in the listing of [`start_orders`] (from 0), or `None` when it
/// is not a start order of `per_colour` buttons of each colour (the listing's inverse,
/// without the listing).
pub fn start_order_index(per_colour: usize, order: &str) -> Option<u64> {
    if !Capability::StartOrders.supports(per_colour) || order.len() != buttons(per_colour) {
        return None;
    }
    let mut left = [per_colour; 3];
    let mut rank: u128 = 0;
    for byte in order.bytes() {
        let letter = LETTERS.iter().position(|&l| l == byte)?;
        if left[letter] == 0 {
            return None;
        }
        // Every order with a smaller letter here comes first.
        for smaller in 0..letter {
            if left[smaller] > 0 {
                let mut rest = left;
                rest[smaller] -= 1;
                rank += arrangements(rest);
            }
        }
        left[letter] -= 1;
    }
    Some(rank as u64)
}

/// The number of distinct rows of `left[i]` letters of each kind: a multinomial
/// coefficient (at most `30! / (10!)^3`, well within `u128`).
fn arrangements(left: [usize; 3]) -> u128 {
    let mut count: u128 = 1;
    let mut placed: u128 = 0;
    for &k in &left {
        for j in 1..=k as u128 {
            placed += 1;
            // Exact at every step: the count so far times (placed / j) is a binomial.
            count = count * placed / j;
        }
    }
    count
}

/// The start orders of [`start_orders`] one at a time, from any of them on, without the
/// whole list (17 million orders for six of each colour): each is the next arrangement
/// of the letters of the one before.
#[derive(Clone, Debug)]
pub struct StartOrders {
    order: Vec<u8>,
    fresh: bool,
    done: bool,
}

/// The colours' letters in the order of the listing (`B < R < W`).
const LETTERS: [u8; 3] = [
    Colour::Black.letter() as u8,
    Colour::Red.letter() as u8,
    Colour::White.letter() as u8,
];

impl StartOrders {
    /// The orders from the `first`-th (counting from 0) to the last; none when `first`
    /// is past the end.
    pub fn from(per_colour: usize, first: u64) -> Result<StartOrders, VariantError> {
        let total = start_order_count(per_colour)?;
        let mut order = Vec::with_capacity(buttons(per_colour));
        if first < total {
            // The `first`-th arrangement: at each pile, skip the letters whose
            // arrangements of the rest all come before it.
            let mut rank = u128::from(first);
            let mut left = [per_colour; 3];
            for _ in 0..buttons(per_colour) {
                for (i, &letter) in LETTERS.iter().enumerate() {
                    if left[i] == 0 {
                        continue;
                    }
                    let mut rest = left;
                    rest[i] -= 1;
                    let below = arrangements(rest);
                    if rank < below {
                        order.push(letter);
                        left = rest;
                        break;
                    }
                    rank -= below;
                }
            }
        }
        Ok(StartOrders {
            order,
            fresh: true,
            done: first >= total,
        })
    }

    /// The letters of the next start order.
    pub fn next_letters(&mut self) -> Option<&[u8]> {
        if self.done {
            return None;
        }
        if self.fresh {
            self.fresh = false;
        } else if !next_arrangement(&mut self.order) {
            self.done = true;
            return None;
        }
        Some(&self.order)
    }
}

impl Iterator for StartOrders {
    type Item = String;

    fn next(&mut self) -> Option<String> {
        // Only the letters B, R and W: the bytes are text.
        self.next_letters()
            .map(|letters| String::from_utf8_lossy(letters).into_owned())
    }
}

/// The next arrangement of `letters` in lexicographic order, in place; `false` (and
/// `letters` unchanged) after the last one.
fn next_arrangement(letters: &mut [u8]) -> bool {
    let Some(pivot) = (1..letters.len())
        .rev()
        .find(|&i| letters[i - 1] < letters[i])
    else {
        return false;
    };
    let pivot = pivot - 1;
    // The rightmost letter above the pivot's: every letter after the pivot is in
    // falling order, so it is the smallest of those above.
    let Some(swap) = (pivot + 1..letters.len())
        .rev()
        .find(|&j| letters[j] > letters[pivot])
    else {
        return false;
    };
    letters.swap(pivot, swap);
    letters[pivot + 1..].reverse();
    true
}

/// The start positions of [`start_orders`], with `to_move` to move.
pub fn start_positions(per_colour: usize, to_move: Player) -> Result<Vec<Position>, VariantError> {
    Ok(start_orders(per_colour)?
        .iter()
        .filter_map(|order| crate::game::notation::parse_start(order, to_move).ok())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_orders_index_is_its_place_in_the_listing() {
        for per_colour in 1..=4 {
            for (i, order) in start_orders(per_colour).unwrap().iter().enumerate() {
                assert_eq!(start_order_index(per_colour, order), Some(i as u64));
            }
        }
        let sixes = start_order_count(6).unwrap();
        let last = StartOrders::from(6, sixes - 1).unwrap().next().unwrap();
        assert_eq!(last, "WWWWWWRRRRRRBBBBBB");
        assert_eq!(start_order_index(6, &last), Some(sixes - 1));
        for not_one in ["", "RBW", "RRBBWX", "RRRBBW", "rrbbww", "RRBBWWR"] {
            assert_eq!(start_order_index(2, not_one), None, "{not_one}");
        }
        assert_eq!(start_order_index(0, ""), None);
        assert_eq!(start_order_index(7, &"RBW".repeat(7)), None);
    }

    #[test]
    fn there_are_1680_standard_starts_in_order() {
        let orders = start_orders(3).unwrap();
        assert_eq!(orders.len(), 1680);
        assert!(orders.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(start_orders(1).unwrap().len(), 6);
        assert_eq!(start_positions(3, Player::Black).unwrap().len(), 1680);
    }

    #[test]
    fn limits_are_named_in_errors() {
        assert_eq!(Capability::MatchOdds.check(3), Ok(3));
        let error = Capability::MatchOdds.check(4).unwrap_err();
        assert_eq!(
            error.to_string(),
            "match odds are computed for 1 to 3 buttons of each colour, not 4"
        );
        assert_eq!(
            Capability::Rules.check(-1).unwrap_err().to_string(),
            "per_colour must be from 1 to 10, not -1"
        );
        assert!(start_orders(7).is_err());
    }

    #[test]
    fn the_listing_starts_anywhere_and_counts_its_orders() {
        for per_colour in 1..=4 {
            let all = start_orders(per_colour).unwrap();
            assert_eq!(all.len() as u64, start_order_count(per_colour).unwrap());
            for first in [0, 1, all.len() / 3, all.len() - 1, all.len(), all.len() + 5] {
                let from: Vec<String> = StartOrders::from(per_colour, first as u64)
                    .unwrap()
                    .collect();
                assert_eq!(from, all[first.min(all.len())..], "{per_colour} {first}");
            }
        }
        assert_eq!(start_order_count(5).unwrap(), 756_756);
        assert_eq!(start_order_count(6).unwrap(), 17_153_136);
        let last = StartOrders::from(6, 17_153_135).unwrap().next().unwrap();
        assert_eq!(last, "WWWWWWRRRRRRBBBBBB");
    }
}

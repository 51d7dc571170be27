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
    /// Listing every start order (1,680 for three of each colour, 756,756 for five).
    StartOrders,
    /// The precomputed move graph that random playouts walk.
    MoveGraph,
    /// Exact match win probabilities, and so the match-playing bot.
    MatchOdds,
}

impl Capability {
    /// Every capability, in the order of the table in docs/ai.md.
    pub const ALL: [Capability; 4] = [
        Capability::Rules,
        Capability::StartOrders,
        Capability::MoveGraph,
        Capability::MatchOdds,
    ];

    /// The largest number of buttons of each colour this capability supports (the
    /// smallest is always 1).
    pub const fn max_per_colour(self) -> usize {
        match self {
            Capability::Rules => MAX_BUTTONS / 3,
            Capability::StartOrders => 5,
            Capability::MoveGraph | Capability::MatchOdds => 3,
        }
    }

    /// The name used in messages and in Python (`buttonup.VARIANT_LIMITS`).
    pub const fn name(self) -> &'static str {
        match self {
            Capability::Rules => "rules",
            Capability::StartOrders => "start_orders",
            Capability::MoveGraph => "move_graph",
            Capability::MatchOdds => "match_odds",
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

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.capability {
            Capability::Rules => "per_colour must be from",
            Capability::StartOrders => "start orders are listed for",
            Capability::MoveGraph => "the move graph is built for",
            Capability::MatchOdds => "match odds are computed for",
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
    Capability::StartOrders.check(per_colour as i64)?;
    let mut out = Vec::new();
    let mut order = String::with_capacity(buttons(per_colour));
    fill(&mut order, [per_colour; 3], &mut out);
    Ok(out)
}

fn fill(order: &mut String, left: [usize; 3], out: &mut Vec<String>) {
    if left == [0, 0, 0] {
        out.push(order.clone());
        return;
    }
    for (i, colour) in [Colour::Black, Colour::Red, Colour::White]
        .into_iter()
        .enumerate()
    {
        if left[i] > 0 {
            let mut next = left;
            next[i] -= 1;
            order.push(colour.letter());
            fill(order, next, out);
            order.pop();
        }
    }
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
        assert!(start_orders(6).is_err());
    }
}

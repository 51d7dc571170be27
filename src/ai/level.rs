//! The level scale: what each level is and its chance of a random move.

use std::fmt;

/// One level of the AI, 1 to 10.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Level(u8);

/// Every level, 1 to 10, with what it is (the table of docs/ai.md).
pub const LEVELS: [(u8, &str); 10] = [
    (1, "random moves"),
    (2, "perfect play with 70% random moves"),
    (
        3,
        "perfect play with 50% random moves (44% from 5 of each colour)",
    ),
    (
        4,
        "perfect play with 35% random moves (29% from 5 of each colour)",
    ),
    (
        5,
        "perfect play with 24% random moves (18% from 5 of each colour)",
    ),
    (
        6,
        "perfect play with 15% random moves (10% from 5 of each colour)",
    ),
    (
        7,
        "perfect play with 8% random moves (4.6% from 5 of each colour)",
    ),
    (
        8,
        "perfect play with 3% random moves (1.8% from 5 of each colour)",
    ),
    (9, "perfect play for the battle margin"),
    (10, "perfect play for the match"),
];

/// The chance of a random move at each level, from level 1, in battles of fewer than
/// [`BIG_FROM`] buttons of each colour (calibrated on the standard game: each level wins
/// about two matches in three against the one below).
const EPSILON: [f64; 10] = [1.0, 0.7, 0.5, 0.35, 0.24, 0.15, 0.08, 0.03, 0.0, 0.0];

/// The same from [`BIG_FROM`] buttons of each colour. A battle has more moves there, so
/// the standard game's shares made the top of the scale steeper (8 over 7 and 9 over 8
/// won three matches in four at 5 to 7 of each colour); these were fitted at 5 of each
/// colour to two in three again (docs/ai.md, "How strong each level is").
const EPSILON_BIG: [f64; 10] = [1.0, 0.7, 0.44, 0.29, 0.18, 0.10, 0.046, 0.018, 0.0, 0.0];

/// The buttons of each colour from which the levels play with [`EPSILON_BIG`].
pub const BIG_FROM: usize = 5;

impl Level {
    /// The lowest level: random moves.
    pub const RANDOM: Level = Level(1);
    /// Perfect play for the battle margin.
    pub const PERFECT: Level = Level(9);
    /// Perfect play for the match.
    pub const MATCH: Level = Level(10);

    /// The level `number`, or an error unless it is 1 to 10.
    pub fn new(number: i64) -> Result<Level, BotError> {
        match u8::try_from(number) {
            Ok(n @ 1..=10) => Ok(Level(n)),
            _ => Err(BotError::Level(number.to_string())),
        }
    }

    /// Its number, 1 to 10.
    pub fn number(self) -> u8 {
        self.0
    }

    /// The chance that a move of this level is a uniformly random legal one, in the
    /// standard game (and up to 4 buttons of each colour).
    pub fn epsilon(self) -> f64 {
        EPSILON[usize::from(self.0 - 1)]
    }

    /// The chance that a move of this level is a uniformly random legal one in a battle
    /// of `per_colour` buttons of each colour.
    pub fn epsilon_for(self, per_colour: usize) -> f64 {
        let table = if per_colour >= BIG_FROM {
            &EPSILON_BIG
        } else {
            &EPSILON
        };
        table[usize::from(self.0 - 1)]
    }

    /// What this level is, in a few words.
    pub fn describe(self) -> &'static str {
        LEVELS[usize::from(self.0 - 1)].1
    }

    /// Whether it plays for the match when it is given one.
    pub fn plays_for_the_match(self) -> bool {
        self == Level::MATCH
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "level {}", self.0)
    }
}

/// A bot asked for with an argument outside its range.
#[derive(Clone, PartialEq, Debug)]
pub enum BotError {
    /// A level that does not exist, as it was given.
    Level(String),
    /// A chance of a random move outside 0 to 1 (or not a number), as it was given.
    Epsilon(f64),
}

impl crate::HasKind for BotError {
    fn kind(&self) -> crate::ErrorKind {
        crate::ErrorKind::InvalidArgument
    }
}

impl fmt::Display for BotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotError::Level(level) => write!(f, "level must be an int from 1 to 10, not {level}"),
            BotError::Epsilon(epsilon) => write!(f, "epsilon must be from 0 to 1, not {epsilon:?}"),
        }
    }
}

impl std::error::Error for BotError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scale_is_graded_and_described() {
        for table in [EPSILON, EPSILON_BIG] {
            assert!(table
                .windows(2)
                .all(|pair| pair[0] > pair[1] || pair[1] == 0.0));
        }
        for (number, text) in LEVELS {
            let level = Level::new(i64::from(number)).unwrap();
            assert_eq!(level.describe(), text);
            assert_eq!(level.epsilon_for(3), level.epsilon());
            assert_eq!(level.epsilon_for(4), level.epsilon());
            if (2..=8).contains(&number) {
                let percent = |epsilon: f64| (epsilon * 1000.0).round() / 10.0;
                let standard = format!("with {}% random", percent(level.epsilon()));
                assert!(text.contains(&standard), "{text}");
                let big = format!("({}% from 5 of", percent(level.epsilon_for(5)));
                let differs = level.epsilon_for(5) != level.epsilon();
                assert_eq!(text.contains(&big), differs, "{text}");
                assert_eq!(text.contains("from 5 of"), differs, "{text}");
                assert!(level.epsilon_for(10) <= level.epsilon());
            }
        }
        assert!(Level::new(0).is_err() && Level::new(11).is_err() && Level::new(-1).is_err());
        assert_eq!(
            Level::new(11).unwrap_err().to_string(),
            "level must be an int from 1 to 10, not 11"
        );
    }
}

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

/// Each level's rating, from level 1, on an Elo scale (400 points are odds of ten to one
/// of winning a match): a round robin of the levels in matches of the standard game to
/// 15 points, level 1 (random moves) anchored at 1000 (`python benches/level_ratings.py`,
/// docs/ai.md, "Ratings").
pub const RATINGS: [f64; 10] = [
    1000.0, 1162.0, 1293.0, 1428.0, 1551.0, 1698.0, 1843.0, 1976.0, 2079.0, 2111.0,
];

/// The lowest rating a bot may be asked for: level 1's.
pub const MIN_RATING: f64 = RATINGS[0];

/// The highest rating a bot may be asked for: level 10's.
pub const MAX_RATING: f64 = RATINGS[9];

/// A point of the level scale, from 1 to 10, between two levels: what a bot asked for by
/// rating plays at. Its chance of a random move lies between its two levels' in the
/// proportion its rating lies between theirs, at every size of battle; past 9.5 it plays
/// for the match as level 10 does.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct ScalePoint(f64);

impl ScalePoint {
    /// The point whose rating is `rating` ([`MIN_RATING`] to [`MAX_RATING`]), or an
    /// error.
    pub fn of_rating(rating: f64) -> Result<ScalePoint, BotError> {
        if !(MIN_RATING..=MAX_RATING).contains(&rating) {
            return Err(BotError::Rating(rating));
        }
        let above = RATINGS
            .iter()
            .position(|&r| r >= rating)
            .unwrap_or(9)
            .max(1);
        let (low, high) = (RATINGS[above - 1], RATINGS[above]);
        let share = if high > low {
            ((rating - low) / (high - low)).clamp(0.0, 1.0)
        } else {
            0.0
        };
        Ok(ScalePoint(above as f64 + share))
    }

    /// Where on the scale it is: 1 (level 1) to 10 (level 10).
    pub fn value(self) -> f64 {
        self.0
    }

    /// The level it is nearest to.
    pub fn nearest_level(self) -> Level {
        Level(self.0.round().clamp(1.0, 10.0) as u8)
    }

    /// Its rating.
    pub fn rating(self) -> f64 {
        self.between(Level::rating)
    }

    /// Its chance of a random move in a battle of `per_colour` buttons of each colour.
    pub fn epsilon_for(self, per_colour: usize) -> f64 {
        self.between(|level| level.epsilon_for(per_colour))
    }

    /// `of` its two levels, the lower's plus its share of the way to the higher's.
    fn between(self, of: impl Fn(Level) -> f64) -> f64 {
        let below = Level((self.0.floor() as u8).clamp(1, 10));
        let above = Level((below.0 + 1).min(10));
        let share = self.0 - f64::from(below.0);
        of(below) + share * (of(above) - of(below))
    }
}

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

    /// Its rating ([`RATINGS`]).
    pub fn rating(self) -> f64 {
        RATINGS[usize::from(self.0 - 1)]
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
    /// A rating outside [`MIN_RATING`] to [`MAX_RATING`] (or not a number).
    Rating(f64),
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
            BotError::Rating(rating) => write!(
                f,
                "rating must be from {MIN_RATING} to {MAX_RATING}, not {rating:?}"
            ),
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

    #[test]
    fn a_rating_is_a_point_of_the_scale_between_two_levels() {
        assert!(RATINGS.windows(2).all(|pair| pair[0] < pair[1]));
        for (index, &rating) in RATINGS.iter().enumerate() {
            let point = ScalePoint::of_rating(rating).unwrap();
            let level = Level::new(index as i64 + 1).unwrap();
            assert_eq!(point.nearest_level(), level);
            assert_eq!(point.rating(), rating);
            for per_colour in [3, 5, 10] {
                assert_eq!(point.epsilon_for(per_colour), level.epsilon_for(per_colour));
            }
        }
        // A quarter of the way from level 4's rating to level 5's: a quarter of the way
        // from level 4's chance of a random move to level 5's.
        let rating = RATINGS[3] + 0.25 * (RATINGS[4] - RATINGS[3]);
        let point = ScalePoint::of_rating(rating).unwrap();
        assert!((point.value() - 4.25).abs() < 1e-12);
        assert!((point.rating() - rating).abs() < 1e-9);
        let (four, five) = (Level::new(4).unwrap(), Level::new(5).unwrap());
        for per_colour in [3, 7] {
            let expected = four.epsilon_for(per_colour)
                + 0.25 * (five.epsilon_for(per_colour) - four.epsilon_for(per_colour));
            assert!((point.epsilon_for(per_colour) - expected).abs() < 1e-12);
        }
        assert_eq!(point.nearest_level(), four);
        for bad in [MIN_RATING - 1.0, MAX_RATING + 1.0, f64::NAN, f64::INFINITY] {
            assert!(matches!(
                ScalePoint::of_rating(bad),
                Err(BotError::Rating(_))
            ));
        }
        assert_eq!(
            ScalePoint::of_rating(999.0).unwrap_err().to_string(),
            "rating must be from 1000 to 2111, not 999.0"
        );
    }
}

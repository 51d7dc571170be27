//! What the engine reads besides positions: its options, numbers as the protocol
//! writes them, and the limits of a `go` command (docs/protocol.md).

use std::time::Duration;

use super::lines::shorten;
use crate::game::rules::{Player, Position};
use crate::search::Limits;

/// One spin option: name, default and range.
pub struct Spin {
    /// Its name as the engine declares it.
    pub name: &'static str,
    /// Its value when nobody sets it.
    pub default: u64,
    /// The smallest value.
    pub low: u64,
    /// The largest value.
    pub high: u64,
}

/// One check option (`true` or `false`): name and default.
pub struct Check {
    /// Its name as the engine declares it.
    pub name: &'static str,
    /// Its value when nobody sets it.
    pub default: bool,
}

impl Check {
    /// Its `option ...` line.
    pub fn declaration(&self) -> String {
        format!(
            "option name {} type check default {}",
            self.name, self.default
        )
    }

    /// `text` as this option's value, or the error naming it.
    pub fn parse(&self, text: &str) -> Result<bool, String> {
        match text.to_lowercase().as_str() {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(format!(
                "{} must be true or false, not '{}'",
                self.name,
                shorten(text)
            )),
        }
    }
}

/// The check options, declared after the spins: `LimitStrength` plays at the rating
/// of the `Elo` option instead of the `Level` (as chess engines' `UCI_LimitStrength`
/// and `UCI_Elo`).
pub const CHECKS: [Check; 1] = [Check {
    name: "LimitStrength",
    default: false,
}];

/// The options, in the order `ugi` declares them.
pub const OPTIONS: [Spin; 5] = [
    Spin {
        name: "Level",
        default: 10,
        low: 1,
        high: 10,
    },
    Spin {
        name: "Hash",
        default: 16,
        low: 1,
        high: 4096,
    },
    Spin {
        name: "Seed",
        default: 0,
        low: 0,
        high: u64::MAX,
    },
    Spin {
        name: "Threads",
        default: 1,
        low: 1,
        high: crate::run::parallel::MAX_THREADS as u64,
    },
    Spin {
        name: "Elo",
        default: crate::ai::MAX_RATING as u64,
        low: crate::ai::MIN_RATING as u64,
        high: crate::ai::MAX_RATING as u64,
    },
];

impl Spin {
    /// Its `option ...` line.
    pub fn declaration(&self) -> String {
        format!(
            "option name {} type spin default {} min {} max {}",
            self.name, self.default, self.low, self.high
        )
    }
}

/// The search's own limits: depth is a 32-bit count, nodes and milliseconds 63-bit ones.
const MAX_COUNT: i128 = i64::MAX as i128;

/// An integer as the protocol writes one (ASCII digits, an optional minus sign), within
/// `low..=high`, or the error naming `name`.
pub fn parse_int(name: &str, text: &str, low: i128, high: i128) -> Result<i128, String> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || text.len() > 40 {
        return Err(format!(
            "{name} must be an integer, not '{}'",
            shorten(text)
        ));
    }
    match text.parse::<i128>() {
        Ok(value) if (low..=high).contains(&value) => Ok(value),
        _ => Err(format!(
            "{name} must be from {low} to {high}, not {}",
            shorten(text)
        )),
    }
}

/// The limits of one `go`.
#[derive(Default, Debug)]
pub struct Go {
    depth: Option<u32>,
    nodes: Option<u64>,
    movetime: Option<u64>,
    /// Search until `stop`, and answer only then.
    pub infinite: bool,
    clock: Vec<(String, u64)>,
}

impl Go {
    /// The parameters of `go`, checked.
    pub fn parse(words: &[&str]) -> Result<Go, String> {
        let mut go = Go::default();
        let mut i = 0;
        while i < words.len() {
            let word = words[i].to_lowercase();
            let Some((low, high)) = bounds(&word) else {
                return Err(format!("unknown go parameter '{}'", shorten(words[i])));
            };
            if word == "infinite" {
                go.infinite = true;
                i += 1;
                continue;
            }
            let Some(text) = words.get(i + 1) else {
                return Err(format!("go {word} needs a number"));
            };
            let value = parse_int(&word, text, low, high)?;
            match word.as_str() {
                "depth" => go.depth = Some(value as u32),
                "nodes" => go.nodes = Some(value as u64),
                "movetime" => go.movetime = Some(value as u64),
                _ => go.clock.push((word, value as u64)),
            }
            i += 2;
        }
        Ok(go)
    }

    /// The bot's limits for this `go`: none (to the end) for `infinite` or when nothing
    /// is given.
    pub fn limits(&self, position: &Position) -> Limits {
        let time = if self.infinite {
            None
        } else {
            self.time_budget(position)
        };
        Limits {
            depth: self.depth,
            nodes: self.nodes,
            time: time.map(Duration::from_secs_f64),
        }
    }

    fn clock(&self, name: &str) -> Option<u64> {
        // The last one given counts, as in a table of names.
        self.clock
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|&(_, v)| v)
    }

    /// Seconds to spend: `movetime`, or a share of the mover's clock.
    fn time_budget(&self, position: &Position) -> Option<f64> {
        if let Some(ms) = self.movetime {
            return Some(ms as f64 / 1000.0);
        }
        let red = position.to_move() == Player::Red;
        let (time, old_time, inc, old_inc) = if red {
            ("p1time", "wtime", "p1inc", "winc")
        } else {
            ("p2time", "btime", "p2inc", "binc")
        };
        let left = self.clock(time).or_else(|| self.clock(old_time))? as f64;
        let increment = self.clock(inc).or_else(|| self.clock(old_inc)).unwrap_or(0) as f64;
        // Moves of this player still to come in the battle: about half the plies left.
        let to_come = self
            .clock("movestogo")
            .map_or((position.pile_count() / 2).max(1) as f64, |n| n as f64);
        Some(((left / to_come + increment * 0.8) / 1000.0 * 0.9).max(0.001))
    }
}

/// The bounds of each number of `go` (`infinite` takes none).
fn bounds(word: &str) -> Option<(i128, i128)> {
    Some(match word {
        "infinite" => (0, 0),
        "depth" => (1, i128::from(u32::MAX)),
        "nodes" | "movetime" | "movestogo" => (1, MAX_COUNT),
        "wtime" | "btime" | "winc" | "binc" | "p1time" | "p2time" | "p1inc" | "p2inc" => {
            (0, MAX_COUNT)
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::notation::parse;

    #[test]
    fn numbers_are_ascii_digits_within_bounds() {
        assert_eq!(parse_int("depth", "12", 1, 20), Ok(12));
        assert_eq!(parse_int("x", "-3", -5, 5), Ok(-3));
        for bad in ["", "-", "+3", "3_0", "٣", " 3", "1e3"] {
            assert!(parse_int("x", bad, 0, 9)
                .unwrap_err()
                .contains("must be an integer"));
        }
        assert_eq!(
            parse_int("depth", "0", 1, 9).unwrap_err(),
            "depth must be from 1 to 9, not 0"
        );
        let huge = "9".repeat(40);
        assert!(parse_int("nodes", &huge, 1, 9)
            .unwrap_err()
            .contains("must be from"));
    }

    #[test]
    fn clocks_give_a_share_of_the_movers_time() {
        let position = parse("W/R/B/W/B/R/R/W/B r").unwrap();
        let go = Go::parse(&["p1time", "1000", "p2time", "5", "p1inc", "10"]).unwrap();
        let time = go.limits(&position).time.unwrap().as_secs_f64();
        // 4 moves to come: (1000 / 4 + 8) ms less 10%.
        assert!((time - 0.2322).abs() < 1e-9, "{time}");
        let go = Go::parse(&["movetime", "30", "depth", "2"]).unwrap();
        let limits = go.limits(&position);
        assert_eq!(
            (limits.depth, limits.time),
            (Some(2), Some(Duration::from_millis(30)))
        );
        assert!(Go::parse(&["infinite"])
            .unwrap()
            .limits(&position)
            .are_none());
        assert_eq!(
            Go::parse(&["depth"]).unwrap_err(),
            "go depth needs a number"
        );
        assert_eq!(
            Go::parse(&["Ponder"]).unwrap_err(),
            "unknown go parameter 'Ponder'"
        );
    }
}

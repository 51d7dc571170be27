//! Rules 8 and 9 between battles: the [`Standing`] of a match (the scores, the loser of
//! the latest decided battle, the next starter), what a battle's margin makes of it,
//! who starts or chooses next, and whether a match can reach it at all.

use std::fmt;

use crate::game::rules::Player;
use crate::game::scoring::max_margin;
use crate::game::variant::{Capability, VariantError, STANDARD_PER_COLOUR};

/// The largest target of victory points a match may have.
pub const MAX_TARGET: u32 = 1000;

/// The victory points that win a standard match (rule 8).
pub const STANDARD_TARGET: u32 = 15;

/// The target of a match, checked: 1 to [`MAX_TARGET`].
pub fn check_target(target: i64) -> Result<u32, StandingError> {
    match u32::try_from(target) {
        Ok(t) if (1..=MAX_TARGET).contains(&t) => Ok(t),
        _ => Err(StandingError::BadTarget(target.to_string())),
    }
}

/// What happens after a battle (rules 8 and 9).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Next {
    /// This player has reached the target and wins the match.
    Won(Player),
    /// The next battle is started by this player.
    Starts(Player),
    /// The scores are equal: this player (the loser of the latest decided battle)
    /// chooses who starts the next battle.
    Chooses(Player),
}

/// The scores between battles, and what the next battle depends on: what the match
/// rules know between two battles (and the match odds are computed from).
///
/// Its fields are open; [`check`](Self::check) says whether a match can reach it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Standing {
    /// Red's victory points.
    pub red: u32,
    /// Black's victory points.
    pub black: u32,
    /// The victory points that win the match.
    pub target: u32,
    /// The loser of the latest battle that had a winner (`None` before any).
    pub last_loser: Option<Player>,
    /// Who starts the next battle. Required where the rules leave it open: the first
    /// battle (rule 7), whose starter starts again after draws while no battle has had a
    /// winner, and with equal scores after a decided battle once the tie rule's choice
    /// is made (`None` there: the choice is still due). With unequal scores the player
    /// behind starts: `None` or that player. `None` once the match is won.
    pub starter: Option<Player>,
    /// Buttons of each colour in each battle.
    pub per_colour: usize,
}

impl Standing {
    /// A match about to start, `first_starter` starting (rule 7); the target and the
    /// count of buttons checked.
    pub fn new(
        target: u32,
        per_colour: usize,
        first_starter: Player,
    ) -> Result<Standing, StandingError> {
        let standing = Standing {
            red: 0,
            black: 0,
            target,
            last_loser: None,
            starter: Some(first_starter),
            per_colour,
        };
        standing.check()?;
        Ok(standing)
    }

    /// A standing of a standard match (a target of [`STANDARD_TARGET`],
    /// [`STANDARD_PER_COLOUR`] buttons of each colour): the scores, the loser of the
    /// latest decided battle and the next starter as given, not checked (see
    /// [`check`](Self::check)).
    pub fn standard(
        red: u32,
        black: u32,
        last_loser: Option<Player>,
        starter: Option<Player>,
    ) -> Standing {
        Standing {
            red,
            black,
            target: STANDARD_TARGET,
            last_loser,
            starter,
            per_colour: STANDARD_PER_COLOUR,
        }
    }

    /// Whether a match can be at this standing, or what makes it impossible: the
    /// target and the count of buttons supported, the scores within reach, the last
    /// loser and the starter as rules 7 to 9 leave them.
    pub fn check(&self) -> Result<(), StandingError> {
        let bad = |reason: String| Err(StandingError::Impossible(reason));
        check_target(i64::from(self.target))?;
        Capability::Rules
            .check(self.per_colour as i64)
            .map_err(StandingError::Variant)?;
        let (red, black, target) = (self.red, self.black, self.target);
        if red >= target && black >= target {
            return bad("both players have reached the target".to_string());
        }
        let most = u64::from(target) - 1 + u64::from(max_margin(self.per_colour).unsigned_abs());
        for player in [Player::Red, Player::Black] {
            let points = self.points(player);
            if u64::from(points) > most {
                return bad(format!(
                    "{} cannot have {points} points: a match ends at the target of \
                     {target}, and a battle is worth at most {}",
                    player.name(),
                    max_margin(self.per_colour)
                ));
            }
        }
        match self.last_loser {
            // With unequal scores the last loser changes nothing (the player behind
            // starts, and the next decided battle names a new one), so it may be left out.
            None if red == black && red > 0 => {
                return bad(format!(
                    "at {red}-{black} the last loser must be given: he chooses who starts"
                ))
            }
            Some(loser) if self.points(loser.other()) == 0 => {
                return bad(format!(
                    "{} cannot have lost a battle while {} has no points",
                    loser.name(),
                    loser.other().name()
                ))
            }
            _ => {}
        }
        match (self.next(), self.starter) {
            (Next::Won(winner), _) if self.last_loser == Some(winner) => bad(format!(
                "{} has won the match, so {} lost the last battle",
                winner.name(),
                winner.other().name()
            )),
            (Next::Won(_), Some(_)) => {
                bad("the match is over, so no battle has a starter".to_string())
            }
            (Next::Starts(behind), Some(starter)) if red != black && starter != behind => {
                bad(format!(
                    "{} is behind and so starts the next battle, not {}",
                    behind.name(),
                    starter.name()
                ))
            }
            _ if red == black && self.last_loser.is_none() && self.starter.is_none() => bad(
                format!("at {red}-{black} the starter of the first battle must be given"),
            ),
            _ => Ok(()),
        }
    }

    /// The standing after a battle whose final margin (Red minus Black) is `margin`:
    /// the winner gains the difference (rule 6), and the next battle's starter is the
    /// one rules 8 and 9 name (`None` while a choice is due or once the match is won).
    pub fn after_battle(&self, margin: i32) -> Standing {
        let mut next = *self;
        let points = margin.unsigned_abs();
        match margin.signum() {
            1 => {
                next.red = next.red.saturating_add(points);
                next.last_loser = Some(Player::Black);
            }
            -1 => {
                next.black = next.black.saturating_add(points);
                next.last_loser = Some(Player::Red);
            }
            _ => {}
        }
        // Only the first battle's starter carries over, while no battle has had a
        // winner; the rules name every other starter afresh.
        if next.last_loser.is_some() {
            next.starter = None;
        }
        next.starter = next.starter();
        next
    }

    /// The tie rule: the standing once the chooser has named `starter` for the next
    /// battle; refused when no choice is due.
    pub fn choose(&self, starter: Player) -> Result<Standing, StandingError> {
        match self.next() {
            Next::Chooses(_) => Ok(Standing {
                starter: Some(starter),
                ..*self
            }),
            _ => Err(StandingError::NoChoiceDue),
        }
    }

    /// Rules 8 and 9: the match is won, or who starts (or chooses who starts) next.
    /// (A standing that [`check`](Self::check) refuses for a missing first starter
    /// gets Red.)
    pub fn next(&self) -> Next {
        if self.red >= self.target {
            Next::Won(Player::Red)
        } else if self.black >= self.target {
            Next::Won(Player::Black)
        } else if self.red < self.black {
            Next::Starts(Player::Red)
        } else if self.black < self.red {
            Next::Starts(Player::Black)
        } else {
            match (self.starter, self.last_loser) {
                (Some(starter), _) => Next::Starts(starter),
                (None, Some(loser)) => Next::Chooses(loser),
                (None, None) => Next::Starts(Player::Red),
            }
        }
    }

    /// Who starts the next battle, when it is settled: `None` while the tie rule's
    /// choice is due or once the match is won.
    pub fn starter(&self) -> Option<Player> {
        match self.next() {
            Next::Starts(player) => Some(player),
            Next::Won(_) | Next::Chooses(_) => None,
        }
    }

    /// The points of `player`.
    pub fn points(&self, player: Player) -> u32 {
        match player {
            Player::Red => self.red,
            Player::Black => self.black,
        }
    }
}

/// Why the match rules refuse a standing, or a request to it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum StandingError {
    /// A target out of range (as it was given).
    BadTarget(String),
    /// A count of buttons the rules do not support.
    Variant(VariantError),
    /// Scores, a last loser or a starter that no match can reach.
    Impossible(String),
    /// A starter was chosen while no choice is due.
    NoChoiceDue,
    /// Something asked of a battle while none is due (what comes instead).
    NoBattle(Next),
}

impl crate::HasKind for StandingError {
    fn kind(&self) -> crate::ErrorKind {
        use crate::ErrorKind;
        match self {
            StandingError::BadTarget(_) => ErrorKind::InvalidArgument,
            StandingError::Variant(error) => error.kind(),
            // Requests to a match, not moves, that the match rules refuse.
            StandingError::Impossible(_)
            | StandingError::NoChoiceDue
            | StandingError::NoBattle(_) => ErrorKind::MatchState,
        }
    }
}

impl fmt::Display for StandingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StandingError::BadTarget(target) => {
                write!(f, "target must be from 1 to {MAX_TARGET}, not {target}")
            }
            StandingError::Variant(error) => error.fmt(f),
            StandingError::Impossible(reason) => write!(f, "impossible standing: {reason}"),
            StandingError::NoChoiceDue => write!(f, "no choice of starter is due"),
            StandingError::NoBattle(next) => match next {
                Next::Won(winner) => {
                    write!(f, "no battle is due: {} won the match", winner.name())
                }
                Next::Chooses(chooser) => write!(
                    f,
                    "no battle is due: {} must first choose who starts the next battle",
                    chooser.name()
                ),
                Next::Starts(starter) => {
                    write!(f, "a battle is due, {} starting", starter.name())
                }
            },
        }
    }
}

impl std::error::Error for StandingError {}

//! Exact match win probabilities (rules 7 to 9) when both players play every battle
//! perfectly for the match, with the shuffle as chance.
//!
//! A battle matters to the match only through its final margin `d`, so the match gives
//! every margin a value `u(d)`: Red's probability of winning the match afterwards. `u`
//! is not monotone in general (winning a battle by the points that level the scores
//! hands the choice of starter to the opponent), so each battle is solved for `u` itself
//! on the graph of all reachable positions. A drawn battle leads back to a state with
//! the same scores, whose value `x` is then a fixed point of `x = f(x)`, with `f` the
//! battle's value when a draw is worth `x`: `f` is piecewise affine and non-decreasing
//! with slope the share of drawn starts (below 1), so Newton steps on it end exactly.

use super::graph::{BattleGraph, StartsValue};
use crate::game::match_rules::MatchError;
use crate::game::rules::Player;
use crate::game::scoring::max_margin;
use crate::game::standing::{Next, Standing, StandingError};
use crate::game::variant::Capability;
use crate::run::interrupt::interrupted;
use crate::search::Payoff;

/// The match table: Red's win probability from every state.
pub struct MatchOdds {
    target: u32,
    per_colour: usize,
    graph: BattleGraph,
    /// Largest possible absolute margin.
    reach: i32,
    /// `unequal[r][b]`, for `r != b`: value of the state; battles begin with the player
    /// behind.
    unequal: Vec<Vec<f64>>,
    /// `tie[s][chooser]`: value of equal scores `s` after a decided battle, whose loser
    /// (`chooser`) picks the starter.
    tie: Vec<[f64; 2]>,
    /// Per starter (Red, Black): how many starts have each perfect-play margin, for
    /// Red; index `d + reach`.
    histograms: [Vec<u32>; 2],
    /// Graph evaluations made.
    pub passes: u32,
}

fn at(player: Player) -> usize {
    player as usize
}

/// Red's probability once `winner` has won the match: 1 or 0.
fn settled(winner: Player) -> f64 {
    f64::from(u8::from(winner == Player::Red))
}

impl MatchOdds {
    /// The whole table for a match to `target` points with `per_colour` buttons of each
    /// colour (as many as [`Capability::MatchOdds`] supports).
    pub fn new(target: u32, per_colour: usize) -> Result<MatchOdds, MatchError> {
        let per_colour = Capability::MatchOdds
            .check(per_colour as i64)
            .map_err(MatchError::Variant)?;
        // The match rules check the target.
        Standing::new(target, per_colour, Player::Red)?;
        let reach = max_margin(per_colour);
        let t = target as usize;
        let graph = BattleGraph::new(per_colour);
        let histograms = graph.start_margins().map(|margins| {
            let mut histogram = vec![0; 2 * reach as usize + 1];
            for d in margins {
                histogram[(d + reach) as usize] += 1;
            }
            histogram
        });
        let mut odds = MatchOdds {
            target,
            per_colour,
            graph,
            histograms,
            reach,
            unequal: vec![vec![0.0; t]; t],
            tie: vec![[0.0; 2]; t],
            passes: 0,
        };
        // Decided battles only raise the total, so fill from the highest total down
        // (0-0, before any decided battle, is worked out when asked).
        for total in (1..=2 * (t - 1)).rev() {
            for r in total.saturating_sub(t - 1)..=total.min(t - 1) {
                if interrupted() {
                    return Err(MatchError::Interrupted);
                }
                let b = total - r;
                let (r32, b32) = (r as u32, b as u32);
                // Some battle has had a winner here: who lost it matters only to the
                // tie rule, whose value is worked out for either chooser.
                let standing = Standing {
                    last_loser: Some(Player::Red),
                    ..odds.standing(r32, b32)
                };
                match standing.next() {
                    Next::Starts(starter) => odds.unequal[r][b] = odds.looping(r32, b32, starter),
                    Next::Chooses(_) => {
                        // After a draw the chooser picks again, so his value is the
                        // better (for him) of the two starters' own fixed points.
                        let red = odds.looping(r32, r32, Player::Red);
                        let black = odds.looping(r32, r32, Player::Black);
                        odds.tie[r] = [red.max(black), red.min(black)];
                    }
                    Next::Won(_) => {}
                }
            }
        }
        Ok(odds)
    }

    /// The victory points that win the matches of this table.
    pub fn target(&self) -> u32 {
        self.target
    }

    /// The buttons of each colour of this table's battles.
    pub fn per_colour(&self) -> usize {
        self.per_colour
    }

    /// Red's probability of winning the match from `standing` (checked by the match
    /// rules, and of this table's target and buttons): with a battle about to start,
    /// that battle's value; with the tie rule's choice due, the chooser's better choice;
    /// 1 or 0 once the match is won.
    pub fn win_probability(&mut self, standing: &Standing) -> Result<f64, MatchError> {
        self.check(standing)?;
        let (red, black) = (standing.red, standing.black);
        Ok(match standing.next() {
            Next::Won(winner) => settled(winner),
            Next::Chooses(chooser) => self.tie[red as usize][at(chooser)],
            Next::Starts(starter) => {
                let draw = self.draw_value(standing);
                self.battle(red, black, draw)[at(starter)].mean
            }
        })
    }

    /// The payoff, for the search, of the battle that `standing` is about to start (or
    /// is playing): Red's match value `u` of each final margin as `2u - 1`, so that
    /// Black's is its negation. Refused when no battle is due (the match won, or the tie
    /// rule's choice due).
    pub fn payoff(&mut self, standing: &Standing) -> Result<Payoff, MatchError> {
        self.check(standing)?;
        match standing.next() {
            next @ (Next::Won(_) | Next::Chooses(_)) => Err(StandingError::NoBattle(next).into()),
            Next::Starts(_) => {
                let draw = self.draw_value(standing);
                let values = self.margin_values(standing, draw);
                Ok(Payoff::table(
                    -self.reach,
                    values.iter().map(|u| 2.0 * u - 1.0).collect(),
                ))
            }
        }
    }

    /// A standing the match rules accept, of this table's match.
    fn check(&self, standing: &Standing) -> Result<(), MatchError> {
        standing.check()?;
        if (standing.target, standing.per_colour) != (self.target, self.per_colour) {
            return Err(MatchError::from(StandingError::Impossible(format!(
                "a table for matches to {} with {} of each colour was asked about a match \
                 to {} with {}",
                self.target, self.per_colour, standing.target, standing.per_colour
            ))));
        }
        Ok(())
    }

    /// The match rules' view of the scores `red`-`black` of this table's match.
    fn standing(&self, red: u32, black: u32) -> Standing {
        Standing {
            red,
            black,
            target: self.target,
            last_loser: None,
            starter: None,
            per_colour: self.per_colour,
        }
    }

    /// What a drawn battle at `standing` (a battle about to start) is worth to Red: the
    /// standing it leads to.
    pub fn draw_value(&mut self, standing: &Standing) -> f64 {
        let (red, black) = (standing.red, standing.black);
        match standing.after_battle(0).next() {
            Next::Won(winner) => settled(winner),
            Next::Chooses(chooser) => self.tie[red as usize][at(chooser)],
            Next::Starts(_) if red != black => self.unequal[red as usize][black as usize],
            // Equal scores and the same starter again: the state loops on itself.
            Next::Starts(starter) => self.looping(red, black, starter),
        }
    }

    /// Red's match value of each final margin from `-reach` to `reach` of the battle
    /// that `standing` starts, where a draw is worth `draw`.
    pub fn margin_values(&self, standing: &Standing, draw: f64) -> Vec<f64> {
        (-self.reach..=self.reach)
            .map(|d| self.margin_value(standing.red, standing.black, draw, d))
            .collect()
    }

    fn margin_value(&self, red: u32, black: u32, draw: f64, d: i32) -> f64 {
        if d == 0 {
            return draw;
        }
        let after = self.standing(red, black).after_battle(d);
        let (r, b) = (after.red as usize, after.black as usize);
        match after.next() {
            Next::Won(winner) => settled(winner),
            Next::Chooses(chooser) => self.tie[r][at(chooser)],
            Next::Starts(_) => self.unequal[r][b],
        }
    }

    /// Both starters' battle values at `red`-`black` when a draw is worth `draw`.
    fn battle(&mut self, red: u32, black: u32, draw: f64) -> [StartsValue; 2] {
        self.passes += 1;
        let values: Vec<f64> = (-self.reach..=self.reach)
            .map(|d| self.margin_value(red, black, draw, d))
            .collect();
        let reach = self.reach;
        self.graph
            .evaluate(|d| values[(d + reach).clamp(0, 2 * reach) as usize])
    }

    /// The value `x` of a state whose drawn battle leads back to it with `starter`
    /// starting again: the fixed point of `x = f(x)`, by Newton steps on the affine piece
    /// of `f` at the current guess.
    fn looping(&mut self, red: u32, black: u32, starter: Player) -> f64 {
        // First guess: the fixed point if the margin values were monotone, when each
        // start would end at its perfect-play margin.
        let histogram = &self.histograms[at(starter)];
        let starts: u32 = histogram.iter().sum();
        let decided: f64 = (-self.reach..=self.reach)
            .filter(|&d| d != 0)
            .map(|d| {
                f64::from(histogram[(d + self.reach) as usize])
                    * self.margin_value(red, black, 0.0, d)
            })
            .sum();
        let drawn = f64::from(histogram[self.reach as usize]);
        let mut x = decided / (f64::from(starts) - drawn);
        for _ in 0..100 {
            let here = self.battle(red, black, x)[at(starter)];
            let next = (here.mean - here.draw_share * x) / (1.0 - here.draw_share);
            if (next - x).abs() <= 1e-15 {
                return next;
            }
            x = next;
        }
        x
    }
}

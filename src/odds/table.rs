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
use crate::interrupt::interrupted;
use crate::match_rules::{check_target, MatchError, Next, Standing};
use crate::rules::Player;
use crate::search::Payoff;
use crate::variant::Capability;

/// The match table: Red's win probability from every state.
pub struct MatchOdds {
    target: u32,
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

impl MatchOdds {
    /// The whole table for a match to `target` points with `per_colour` buttons of each
    /// colour (as many as [`Capability::MatchOdds`] supports).
    pub fn new(target: u32, per_colour: usize) -> Result<MatchOdds, MatchError> {
        let per_colour = Capability::MatchOdds
            .check(per_colour as i64)
            .map_err(MatchError::Variant)?;
        let target = check_target(i64::from(target))?;
        let n = 3 * per_colour as i32;
        let reach = n * (n + 1) / 2;
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
            graph,
            histograms,
            reach,
            unequal: vec![vec![0.0; t]; t],
            tie: vec![[0.0; 2]; t],
            passes: 0,
        };
        // Decided battles only raise the total, so fill from the highest total down.
        for total in (0..=2 * (t - 1)).rev() {
            for r in total.saturating_sub(t - 1)..=total.min(t - 1) {
                if interrupted() {
                    return Err(MatchError::Interrupted);
                }
                let b = total - r;
                let (r32, b32) = (r as u32, b as u32);
                if r != b {
                    let starter = if r < b { Player::Red } else { Player::Black };
                    odds.unequal[r][b] = odds.looping(r32, b32, starter);
                } else if r > 0 {
                    // After a draw the chooser picks again, so his value is the better
                    // (for him) of the two starters' own fixed points.
                    let red = odds.looping(r32, r32, Player::Red);
                    let black = odds.looping(r32, r32, Player::Black);
                    odds.tie[r] = [red.max(black), red.min(black)];
                }
            }
        }
        Ok(odds)
    }

    /// Red's probability of winning the match from a battle about to start with
    /// `red`-`black` points and `to_start` starting. `chooser` is the player who lost
    /// the latest battle that had a winner (`None` if none had); it matters only with
    /// equal scores, where it picks the starter again after a drawn battle (with `None`
    /// the same player starts again).
    pub fn win_probability(
        &mut self,
        red: u32,
        black: u32,
        to_start: Player,
        chooser: Option<Player>,
    ) -> f64 {
        if let Some(p) = self.settled(red, black) {
            return p;
        }
        let draw = self.draw_value(red, black, to_start, chooser);
        self.battle(red, black, draw)[at(to_start)].mean
    }

    /// The match rules' view of the scores `red`-`black`.
    fn standing(&self, red: u32, black: u32) -> Standing {
        Standing {
            red,
            black,
            ..Standing::new(self.target, Player::Red)
        }
    }

    /// Red's probability once a player has reached the target: 1 or 0.
    fn settled(&self, red: u32, black: u32) -> Option<f64> {
        match self.standing(red, black).next() {
            Next::Won(winner) => Some(if winner == Player::Red { 1.0 } else { 0.0 }),
            _ => None,
        }
    }

    /// What a drawn battle at this state is worth to Red: the state it leads back to.
    pub fn draw_value(
        &mut self,
        red: u32,
        black: u32,
        to_start: Player,
        chooser: Option<Player>,
    ) -> f64 {
        if let Some(p) = self.settled(red, black) {
            p
        } else if red != black {
            self.unequal[red as usize][black as usize]
        } else if let Some(chooser) = chooser.filter(|_| red > 0) {
            // (At 0-0 no battle can have had a winner, so there is no chooser.)
            self.tie[red as usize][at(chooser)]
        } else {
            self.looping(red, black, to_start)
        }
    }

    /// Red's match value of each final margin from `-reach` to `reach` of a battle at
    /// `red`-`black`, where a draw is worth `draw`.
    pub fn margin_values(&self, red: u32, black: u32, draw: f64) -> Vec<f64> {
        (-self.reach..=self.reach)
            .map(|d| self.margin_value(red, black, draw, d))
            .collect()
    }

    /// The payoff, for the search, of a battle at `red`-`black` started by `starter`
    /// (`chooser` as in [`win_probability`](Self::win_probability)): Red's match value
    /// `u` of each final margin as `2u - 1`, so that Black's is its negation.
    pub fn payoff(
        &mut self,
        red: u32,
        black: u32,
        starter: Player,
        chooser: Option<Player>,
    ) -> Payoff {
        let draw = self.draw_value(red, black, starter, chooser);
        let values = self.margin_values(red, black, draw);
        Payoff::table(-self.reach, values.iter().map(|u| 2.0 * u - 1.0).collect())
    }

    fn margin_value(&self, red: u32, black: u32, draw: f64, d: i32) -> f64 {
        if d == 0 {
            return draw;
        }
        let after = self.standing(red, black).after_battle(d);
        let (r, b) = (after.red as usize, after.black as usize);
        match after.next() {
            Next::Won(winner) => f64::from(u8::from(winner == Player::Red)),
            Next::Chooses(chooser) => self.tie[r][at(chooser)],
            Next::Starts(_) => self.unequal[r][b],
        }
    }

    /// Both starters' battle values at `red`-`black` when a draw is worth `draw`.
    fn battle(&mut self, red: u32, black: u32, draw: f64) -> [StartsValue; 2] {
        self.passes += 1;
        let values = self.margin_values(red, black, draw);
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

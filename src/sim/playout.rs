//! Random playouts with the loop in Rust: the kind of call a Monte Carlo or reinforcement
//! learning user makes many times. The Python reference runs the same steps with the
//! same generator, so a seed gives the same games in both.

use crate::game::error::{wraps, PositionError};
use crate::game::rng::{random_start, SplitMix64};
use crate::game::rules::{Player, Position};
use crate::game::scoring::max_margin;
use crate::run::interrupt::Interrupted;
use crate::run::parallel::{fold_chunks, Worker};
use crate::sim::move_graph::MoveGraph;

/// Why playouts did not finish.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayoutError {
    /// The variant cannot be set up.
    Position(PositionError),
    /// [`crate::run::interrupt::interrupted`] said to stop.
    Interrupted,
}

wraps! { PlayoutError::Position(PositionError) }

impl From<Interrupted> for PlayoutError {
    fn from(_: Interrupted) -> Self {
        PlayoutError::Interrupted
    }
}

/// Battles played between two looks at [`crate::run::interrupt::interrupted`].
const CHECK_EVERY: u64 = 1024;

/// What a batch of random battles came to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayoutSummary {
    /// Battles played.
    pub battles: u64,
    /// Moves played over all of them.
    pub moves: u64,
    /// Battles Red won.
    pub red_wins: u64,
    /// Battles Black won.
    pub black_wins: u64,
    /// Battles drawn.
    pub draws: u64,
    /// Sum of Red's final margins (Red's sum minus Black's).
    pub red_margin_sum: i64,
    /// How many battles ended at each margin: index `margin + reach`, where `reach` is
    /// the largest possible margin.
    pub red_margins: Vec<u64>,
    /// The largest possible margin of these battles.
    pub reach: i32,
}

/// A uniformly random legal move of `position` (which must not be over).
#[inline]
pub fn random_move(position: &Position, rng: &mut SplitMix64) -> usize {
    let (mut mask, count) = position.legal_moves_counted();
    let pick = rng.below(u64::from(count));
    for _ in 0..pick {
        mask &= mask - 1;
    }
    mask.trailing_zeros() as usize
}

/// Visits every position of `battles` random battles of each number of buttons a colour
/// in `per_colours` (Red starting; uniformly random legal moves, everything drawn from
/// one generator seeded with `seed`), with the move then played (`None` at the end).
#[cfg(test)]
pub(crate) fn each_random_battle(
    seed: u64,
    per_colours: impl IntoIterator<Item = usize>,
    battles: usize,
    mut visit: impl FnMut(&Position, Option<usize>),
) {
    let mut rng = SplitMix64::new(seed);
    for per_colour in per_colours {
        for _ in 0..battles {
            let mut position = random_start(per_colour, Player::Red, &mut rng).unwrap();
            while !position.is_over() {
                let mv = random_move(&position, &mut rng);
                visit(&position, Some(mv));
                position = position.play_unchecked(mv).position;
            }
            visit(&position, None);
        }
    }
}

/// Battles in one piece of work handed to a thread.
const CHUNK: u64 = 1024;

/// Where playouts play their moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Walk {
    /// Up to three buttons of each colour on the precomputed [`MoveGraph`]; beyond, on
    /// the bit-packed positions.
    Graph,
    /// On the bit-packed positions, whatever the size (the same games: for comparing
    /// the two paths).
    Bitboard,
}

/// Plays `battles` battles from uniformly shuffled starts (Red moving first in even
/// battles, Black in odd ones) with uniformly random moves, on `threads` threads.
///
/// Battle `i` draws from its own generator, seeded with [`SplitMix64::nth_seed`]`(seed,
/// i)`: its shuffle, then each move's choice among the legal moves in clockwise order. So
/// a seed gives the same games on any number of threads, and in the reference engine.
/// Up to three buttons of each colour the moves walk the precomputed [`MoveGraph`];
/// beyond, they are played on the bit-packed positions.
pub fn random_playouts(
    battles: u64,
    seed: u64,
    per_colour: usize,
    threads: usize,
) -> Result<PlayoutSummary, PlayoutError> {
    random_playouts_on(Walk::Graph, battles, seed, per_colour, threads)
}

/// [`random_playouts`] with the moves played where `walk` says.
pub fn random_playouts_on(
    walk: Walk,
    battles: u64,
    seed: u64,
    per_colour: usize,
    threads: usize,
) -> Result<PlayoutSummary, PlayoutError> {
    random_start(per_colour, Player::Red, &mut SplitMix64::new(seed))?;
    let graph = match walk {
        Walk::Graph => MoveGraph::get(per_colour),
        Walk::Bitboard => None,
    };
    let parts = fold_chunks(
        battles.div_ceil(CHUNK),
        threads,
        || Ok(PlayoutSummary::new(per_colour)),
        |summary, chunk, worker| {
            let first = chunk * CHUNK;
            let battles = Battles {
                range: first..battles.min(first + CHUNK),
                seed,
                per_colour,
            };
            match graph {
                Some(graph) => {
                    battles.play(summary, worker, |first, rng| graph.playout(first, rng))
                }
                None => battles.play_bitboard(summary, worker),
            }
        },
    )?;
    let mut summary = PlayoutSummary::new(per_colour);
    for part in &parts {
        summary.merge(part);
    }
    Ok(summary)
}

/// Who moves first in battle `i` of a batch: Red in even battles, Black in odd ones.
#[inline]
pub fn first_player(i: u64) -> Player {
    if i % 2 == 0 {
        Player::Red
    } else {
        Player::Black
    }
}

/// A run of the battles of a batch.
struct Battles {
    range: std::ops::Range<u64>,
    seed: u64,
    per_colour: usize,
}

impl Battles {
    /// Plays the battles with `playout` (from the first player and the battle's
    /// generator to its moves and margin) and adds them to `summary`.
    #[inline(always)]
    fn play(
        &self,
        summary: &mut PlayoutSummary,
        worker: &Worker,
        playout: impl Fn(Player, &mut SplitMix64) -> (u64, i32),
    ) -> Result<(), PlayoutError> {
        for i in self.range.clone() {
            if i % CHECK_EVERY == CHECK_EVERY - 1 && worker.should_stop() {
                return Err(PlayoutError::Interrupted);
            }
            let mut rng = SplitMix64::new(SplitMix64::nth_seed(self.seed, i));
            let first = first_player(i);
            let (moves, margin) = playout(first, &mut rng);
            summary.add(moves, margin);
        }
        Ok(())
    }

    /// [`play`](Self::play) on bit-packed positions, with the bit-counting instructions
    /// of the processor when it has them (the baseline x86-64 that wheels are built for
    /// lacks them: a software bit count costs a dozen instructions).
    fn play_bitboard(
        &self,
        summary: &mut PlayoutSummary,
        worker: &Worker,
    ) -> Result<(), PlayoutError> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("lzcnt")
        {
            // SAFETY: the processor has the features the function is compiled for.
            return unsafe { self.play_bitboard_with_bit_counts(summary, worker) };
        }
        self.play(summary, worker, |first, rng| {
            bitboard_playout(self.per_colour, first, rng)
        })
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,lzcnt")]
    fn play_bitboard_with_bit_counts(
        &self,
        summary: &mut PlayoutSummary,
        worker: &Worker,
    ) -> Result<(), PlayoutError> {
        self.play(summary, worker, |first, rng| {
            bitboard_playout(self.per_colour, first, rng)
        })
    }
}

/// One random battle played on bit-packed positions: its moves and final margin. Picks
/// the move among the tops of piles that hold a white button (the legal moves in
/// clockwise order) without walking the piles.
#[inline(always)]
pub fn bitboard_playout(per_colour: usize, first: Player, rng: &mut SplitMix64) -> (u64, i32) {
    let Ok(mut position) = random_start(per_colour, first, rng) else {
        return (0, 0);
    };
    let mut moves = 0;
    while !position.is_over() {
        let mut tops = position.legal_tops();
        let pick = rng.below(u64::from(tops.count_ones()));
        for _ in 0..pick {
            tops &= tops - 1;
        }
        let (start, end) = position.span_of_top(tops.trailing_zeros());
        position = position.sow(start, end).position;
        moves += 1;
    }
    (moves, position.final_margin())
}

impl PlayoutSummary {
    /// An empty summary for battles of `per_colour` buttons of each colour.
    pub fn new(per_colour: usize) -> PlayoutSummary {
        let reach = max_margin(per_colour);
        PlayoutSummary {
            red_margins: vec![0; 2 * reach as usize + 1],
            reach,
            ..PlayoutSummary::default()
        }
    }

    /// Red's margins that occurred, lowest first, with their counts.
    pub fn margin_counts(&self) -> impl Iterator<Item = (i32, u64)> + '_ {
        self.red_margins
            .iter()
            .enumerate()
            .filter(|(_, &count)| count > 0)
            .map(|(i, &count)| (i as i32 - self.reach, count))
    }

    /// Adds the battles of `other` (a summary of the same variant).
    pub fn merge(&mut self, other: &PlayoutSummary) {
        for (count, more) in self.red_margins.iter_mut().zip(&other.red_margins) {
            *count += more;
        }
        self.battles += other.battles;
        self.moves += other.moves;
        self.red_margin_sum += other.red_margin_sum;
        self.red_wins += other.red_wins;
        self.black_wins += other.black_wins;
        self.draws += other.draws;
    }

    fn add(&mut self, moves: u64, margin: i32) {
        let slot = (margin + self.reach).clamp(0, 2 * self.reach) as usize;
        if let Some(count) = self.red_margins.get_mut(slot) {
            *count += 1;
        }
        self.battles += 1;
        self.moves += moves;
        self.red_margin_sum += i64::from(margin);
        match margin.signum() {
            1 => self.red_wins += 1,
            -1 => self.black_wins += 1,
            _ => self.draws += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_battle_has_one_move_per_removed_pile() {
        let summary = random_playouts(1000, 1, 3, 1).unwrap();
        assert_eq!(summary.battles, 1000);
        assert_eq!(summary.moves, 8000);
        assert_eq!(summary.red_wins + summary.black_wins + summary.draws, 1000);
        assert_eq!(random_playouts(1000, 1, 3, 1).unwrap(), summary);
        assert_ne!(random_playouts(1000, 2, 3, 1).unwrap(), summary);
        assert_eq!(random_playouts(10, 1, 5, 1).unwrap().moves, 140);
    }

    #[test]
    fn the_games_do_not_depend_on_the_threads() {
        for per_colour in [2, 5] {
            let one = random_playouts(3 * CHUNK + 17, 9, per_colour, 1).unwrap();
            for threads in [2, 3, 8] {
                assert_eq!(
                    random_playouts(3 * CHUNK + 17, 9, per_colour, threads).unwrap(),
                    one
                );
            }
        }
    }

    /// The plain way: walk the piles for the legal moves and play the chosen pile.
    fn plain_playout(per_colour: usize, first: Player, rng: &mut SplitMix64) -> (u64, i32) {
        let mut position = random_start(per_colour, first, rng).unwrap();
        let mut moves = 0;
        while !position.is_over() {
            let mv = random_move(&position, rng);
            position = position.play_unchecked(mv).position;
            moves += 1;
        }
        (moves, position.margin().unwrap())
    }

    #[test]
    fn the_fast_playout_plays_the_plain_games() {
        for per_colour in [1, 2, 4, 7, 10] {
            for seed in 0..300 {
                let first = first_player(seed);
                assert_eq!(
                    bitboard_playout(per_colour, first, &mut SplitMix64::new(seed)),
                    plain_playout(per_colour, first, &mut SplitMix64::new(seed)),
                );
            }
        }
    }

    #[test]
    fn both_paths_give_the_same_summary() {
        for per_colour in 1..=3 {
            assert_eq!(
                random_playouts(5000, 4, per_colour, 2).unwrap(),
                random_playouts_on(Walk::Bitboard, 5000, 4, per_colour, 2).unwrap()
            );
        }
    }

    #[test]
    fn the_move_graph_plays_the_same_games_as_the_positions() {
        for per_colour in 1..=3 {
            let graph = MoveGraph::get(per_colour).unwrap();
            for seed in 0..2000 {
                let first = first_player(seed);
                assert_eq!(
                    graph.playout(first, &mut SplitMix64::new(seed)),
                    bitboard_playout(per_colour, first, &mut SplitMix64::new(seed)),
                    "{per_colour} of each colour, seed {seed}"
                );
            }
        }
    }
}

//! The work of a batched environment's call on one part of its games (`sim::vecenv`):
//! what each game does (step, observe, restart) and the outputs it writes, compiled
//! twice: once for any processor and once with BMI1, BMI2, POPCNT and LZCNT (the pile's
//! first button by one `pdep`, the legal piles by one `pext`, bit counts by `popcnt`),
//! the second chosen at run time where the processor has them. Both give the same
//! outputs (tested).

use crate::game::bits::{Portable, WordOps};
use crate::game::rules::{Player, Position};
use crate::sim::encode::{update_observation, write_mask, write_observation};
use crate::sim::opponent::SharedBot;
use crate::sim::vecenv_game::Game;

/// A part of the batch and its outputs, `games.len()` entries each.
pub(super) struct Part<'a> {
    pub(super) games: &'a mut [Game],
    pub(super) current_player: &'a mut [i8],
    /// `width` flags a game.
    pub(super) mask: &'a mut [bool],
    /// Two a game.
    pub(super) rewards: &'a mut [f32],
    pub(super) terminated: &'a mut [bool],
    /// `obs_len` cells a game.
    pub(super) observation: Option<&'a mut [i8]>,
    /// Where the piles chosen by a random step go, one a game.
    pub(super) chosen: Option<&'a mut [i64]>,
    pub(super) bot: &'a mut SharedBot,
    /// The index in the batch of the part's first game.
    pub(super) first: usize,
}

/// The shape of every part of a call, and whether to write the outputs in full.
#[derive(Clone, Copy)]
pub(super) struct Shape {
    pub(super) per_colour: usize,
    pub(super) width: usize,
    pub(super) obs_len: usize,
    pub(super) full: bool,
}

/// One game of a call: the game, the bot that plays against it, its outputs and its
/// index `i` in the batch.
pub(super) struct One<'a> {
    game: &'a mut Game,
    bot: &'a mut SharedBot,
    out: GameOut<'a>,
    i: usize,
}

/// What a call does to each game.
pub(super) trait PerGame: Sync {
    /// The work on one game of the batch.
    fn game(&self, ops: impl WordOps, shape: Shape, one: One<'_>);
}

/// Which compiled copy of the part's work to run: the processor's fast word
/// operations when it has them (and they are not turned off), else the portable ones.
#[derive(Clone, Copy)]
pub(super) struct Kernel {
    #[cfg(target_arch = "x86_64")]
    fast: Option<crate::game::bits::Bmi2>,
}

impl Kernel {
    /// The fastest copy this processor runs, or the portable one when `portable`.
    pub(super) fn choose(portable: bool) -> Kernel {
        let _ = portable;
        Kernel {
            #[cfg(target_arch = "x86_64")]
            fast: if portable {
                None
            } else {
                crate::game::bits::Bmi2::detect()
            },
        }
    }

    /// Does `work` to every game of `part`.
    pub(super) fn run(self, part: &mut Part<'_>, shape: Shape, work: &impl PerGame) {
        #[cfg(target_arch = "x86_64")]
        if let Some(fast) = self.fast {
            // SAFETY: a `Bmi2` is made only where the processor has the instructions
            // that `each_game_bmi2` is compiled with.
            return unsafe { each_game_bmi2(fast, part, shape, work) };
        }
        each_game(Portable, part, shape, work);
    }
}

/// [`each_game`] compiled with the instructions that `ops` proves present, so that the
/// word operations and every callee inlined here use them.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2,popcnt,lzcnt")]
fn each_game_bmi2(
    ops: crate::game::bits::Bmi2,
    part: &mut Part<'_>,
    shape: Shape,
    work: &impl PerGame,
) {
    each_game(ops, part, shape, work);
}

/// Does `work` to every game of `part`, one at a time.
#[inline(always)]
fn each_game(ops: impl WordOps, part: &mut Part<'_>, shape: Shape, work: &impl PerGame) {
    let mut obs = part
        .observation
        .as_deref_mut()
        .map(|o| o.chunks_exact_mut(shape.obs_len.max(1)));
    let mut chosen = part.chosen.as_deref_mut().map(|c| c.iter_mut());
    let each = part
        .games
        .iter_mut()
        .zip(part.current_player.iter_mut())
        .zip(part.mask.chunks_exact_mut(shape.width.max(1)))
        .zip(part.rewards.chunks_exact_mut(2))
        .zip(part.terminated.iter_mut());
    for (j, ((((game, current_player), mask), rewards), terminated)) in each.enumerate() {
        let out = GameOut {
            current_player,
            mask,
            rewards,
            terminated,
            observation: obs.as_mut().and_then(Iterator::next),
            chosen: chosen.as_mut().and_then(Iterator::next),
        };
        let i = part.first + j;
        let bot = &mut *part.bot;
        work.game(ops, shape, One { game, bot, out, i });
    }
}

/// The outputs of one game.
pub(super) struct GameOut<'a> {
    current_player: &'a mut i8,
    mask: &'a mut [bool],
    /// Red's and Black's.
    rewards: &'a mut [f32],
    terminated: &'a mut bool,
    observation: Option<&'a mut [i8]>,
    chosen: Option<&'a mut i64>,
}

/// A step: every game plays its action (checked before), a finished one starts again;
/// those flagged `waiting` sit it out.
pub(super) struct Step<'a> {
    pub(super) actions: &'a [i64],
    pub(super) waiting: Option<&'a [bool]>,
}

impl PerGame for Step<'_> {
    #[inline(always)]
    fn game(&self, ops: impl WordOps, shape: Shape, one: One<'_>) {
        let One { game, bot, out, i } = one;
        if self
            .waiting
            .is_some_and(|w| w.get(i).copied().unwrap_or(false))
        {
            // Nothing moves: the outputs show the game as it is (in full into new
            // buffers), its reward 0, still finished if it was.
            out.rewards.fill(0.0);
            *out.terminated = game.done;
            let before = Shown::of(game);
            write_state(ops, game, out, &before, shape.full);
            return;
        }
        let action = self.actions.get(i).copied().unwrap_or(0);
        step_game(ops, shape, game, bot, action, out);
    }
}

/// A step in which every unfinished game plays a legal pile drawn uniformly by its own
/// generator (written to `chosen`; -1 for a finished game, which starts again).
pub(super) struct RandomStep;

impl PerGame for RandomStep {
    #[inline(always)]
    fn game(&self, ops: impl WordOps, shape: Shape, one: One<'_>) {
        let One {
            game, bot, mut out, ..
        } = one;
        let action = if game.done || game.legal == 0 {
            -1
        } else {
            let pick = game.rng.below(u64::from(game.legal.count_ones()));
            i64::from(ops.select(game.legal, pick as usize))
        };
        if let Some(chosen) = out.chosen.take() {
            *chosen = action;
        }
        step_game(ops, shape, game, bot, action, out);
    }
}

/// The outputs of the current state, in full, without a step.
pub(super) struct Observe;

impl PerGame for Observe {
    #[inline(always)]
    fn game(&self, ops: impl WordOps, _: Shape, one: One<'_>) {
        let One { game, out, .. } = one;
        out.rewards.fill(0.0);
        *out.terminated = false;
        let before = Shown::of(game);
        write_state(ops, game, out, &before, true);
    }
}

/// A new battle at once in every game whose battle ended on the last step.
pub(super) struct Restart;

impl PerGame for Restart {
    #[inline(always)]
    fn game(&self, ops: impl WordOps, shape: Shape, one: One<'_>) {
        let One { game, bot, out, .. } = one;
        if game.done {
            let before = Shown::of(game);
            game.deal_with(ops, shape.per_colour, bot);
            game.done = false;
            write_state(ops, game, out, &before, shape.full);
        }
    }
}

/// What a game's outputs show: its position, the viewer of its observation and its
/// legal moves.
struct Shown {
    position: Position,
    viewer: Player,
    legal: u64,
}

impl Shown {
    #[inline(always)]
    fn of(game: &Game) -> Shown {
        Shown {
            position: game.position,
            viewer: game.viewer(),
            legal: game.legal,
        }
    }
}

/// Writes the game's player, mask and observation: in full, or by what changed since
/// `before` (what the outputs show now).
#[inline(always)]
fn write_state(ops: impl WordOps, game: &mut Game, out: GameOut<'_>, before: &Shown, full: bool) {
    let position = &game.position;
    let legal = position.legal_move_mask_with(ops);
    *out.current_player = position.to_move() as i8;
    if full || legal != before.legal {
        write_mask(legal, out.mask);
    }
    game.legal = legal;
    if let Some(obs) = out.observation {
        let viewer = game.viewer();
        if full {
            write_observation(position, viewer, obs);
        } else {
            update_observation((&before.position, before.viewer), (position, viewer), obs);
        }
    }
}

/// One game's step: a finished game starts a new battle; otherwise the action is played
/// (it was checked) and a battle that ends pays its margin.
#[inline(always)]
fn step_game(
    ops: impl WordOps,
    shape: Shape,
    game: &mut Game,
    bot: &mut SharedBot,
    action: i64,
    out: GameOut<'_>,
) {
    let (mut red, mut done) = (0.0, false);
    let before = Shown::of(game);
    if game.done {
        game.deal_with(ops, shape.per_colour, bot);
        game.done = false;
    } else {
        let pile = usize::try_from(action).unwrap_or(0);
        game.position = game.position.play_unchecked_with(ops, pile).position;
        game.opponent_moves(bot);
        if game.position.is_over() {
            red = game.position.final_margin() as f32;
            done = true;
            game.done = true;
        }
    }
    if let [r, b] = out.rewards {
        *r = red;
        *b = 0.0 - red; // not -0.0 when nothing is won
    }
    *out.terminated = done;
    write_state(ops, game, out, &before, shape.full);
}

#[cfg(test)]
mod tests;

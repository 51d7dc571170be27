//! A batched environment for learning agents: many battles stepped in one call, each
//! written into flat output buffers, on the threads of a pool kept by the environment
//! (no thread started, nothing allocated but a list of parts a step). The observation
//! encoding and the reward and reset conventions are those of docs/rl.md. In its
//! single-agent form (`VecEnv::against`) an opponent of `sim::opponent` plays the other
//! side inside the same call.
//!
//! A step writes only what it changed: each game's mask when its legal moves changed,
//! and in its observation the cells of the buttons before and after (so the buffers
//! must hold what the last call wrote there; new buffers, or a reset, are written in
//! full).

use std::sync::Mutex;

use crate::game::error::wraps;
use crate::game::rng::SplitMix64;
use crate::game::rules::{Player, Position};
use crate::game::variant::{Capability, VariantError};
use crate::run::interrupt::{interrupted, Interrupted};
pub use crate::sim::encode::{encode, encode_for, legal_mask, observation_len};
use crate::sim::opponent::{OpponentKind, SharedBot};
use crate::sim::pool::{Panicked, Pool};
use crate::sim::vecenv_game::Game;
use crate::sim::vecenv_step::{Kernel, Observe, Part, PerGame, RandomStep, Restart, Shape, Step};

/// An action that cannot be played: the game (from 0) and the pile asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepError {
    /// The game, from 0.
    pub game: usize,
    /// The pile asked (-1 when the batch itself is wrong).
    pub pile: i64,
    /// Why it cannot be played.
    pub reason: String,
}

// An action refused in a batch of games: a value of the actions array.
impl crate::HasKind for StepError {
    fn kind(&self) -> crate::ErrorKind {
        crate::ErrorKind::InvalidArgument
    }
}

impl std::fmt::Display for StepError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "game {}: pile {}: {}", self.game, self.pile, self.reason)
    }
}

impl std::error::Error for StepError {}

/// Why a step did not happen, or not wholly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// An action cannot be played: no game changed.
    Illegal(StepError),
    /// An internal error stopped some games midway (a bug: the games and outputs of the
    /// batch are then whatever they were; the next call writes the outputs in full).
    Panicked(Panicked),
}

impl crate::HasKind for Failure {
    fn kind(&self) -> crate::ErrorKind {
        match self {
            Failure::Illegal(error) => error.kind(),
            Failure::Panicked(error) => error.kind(),
        }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Illegal(error) => error.fmt(f),
            Failure::Panicked(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for Failure {}

wraps! {
    Failure::Illegal(StepError),
    Failure::Panicked(Panicked),
}

/// The fewest games a thread of its own steps, where a step writes observations or an
/// opponent plays (handing a part to a waiting worker costs a few microseconds). Chosen
/// by measurement on a 2-core machine (`python benches/vecenv_speed.py --threads`): a
/// second thread paid from 1,024 games there.
const MIN_GAMES_A_THREAD: usize = 512;

/// The same for the lightest step, masks alone and no opponent (some 50 ns a game): a
/// second thread paid only from 8,192 games.
const MIN_LIGHT_GAMES_A_THREAD: usize = 4096;

/// Where the outputs of a step go, one slice per array, `games` entries each.
pub struct Outputs<'a> {
    /// Whose turn it is: 0 Red, 1 Black.
    pub current_player: &'a mut [i8],
    /// The legal piles, `max_piles` flags a game.
    pub legal_action_mask: &'a mut [bool],
    /// Red's and Black's reward, two a game.
    pub rewards: &'a mut [f32],
    /// Whether the step ended the battle.
    pub terminated: &'a mut [bool],
    /// `None`: observations are not wanted (faster).
    pub observation: Option<&'a mut [i8]>,
}

/// Many battles stepped together.
pub struct VecEnv {
    per_colour: usize,
    num_envs: usize,
    games: Vec<Game>,
    against: Option<(Player, OpponentKind)>,
    /// The opponent's bot of each part of the batch (see `SharedBot`).
    bots: Vec<SharedBot>,
    /// The threads of the steps, kept between them (made on the first step that wants
    /// more than one thread, again when the number asked changes).
    pool: Option<Pool>,
    /// The buffers the last call wrote the current state into, in full or by changes
    /// (mask and observation; `None` when there is no such state, as after a reset):
    /// only into these can the next call write by changes.
    written: Option<(usize, Option<usize>)>,
    /// Only the portable copy of the work is run (to test it against the fast one).
    portable: bool,
}

/// Where a buffer starts, to know it again.
fn address<T>(slice: &[T]) -> usize {
    slice.as_ptr() as usize
}

/// Why no environment was made: a variant out of range, or the deal was interrupted
/// (`run::interrupt`: Ctrl-C in Python, polled every [`DEAL_POLL`] games).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MakeError {
    /// The number of buttons of each colour is out of range.
    Variant(VariantError),
    /// The interruption hook asked the deal to stop.
    Interrupted,
}

impl crate::HasKind for MakeError {
    fn kind(&self) -> crate::ErrorKind {
        match self {
            MakeError::Variant(error) => error.kind(),
            MakeError::Interrupted => crate::ErrorKind::Interrupted,
        }
    }
}

impl std::fmt::Display for MakeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MakeError::Variant(error) => error.fmt(f),
            MakeError::Interrupted => Interrupted.fmt(f),
        }
    }
}

impl std::error::Error for MakeError {}

/// Games dealt between two looks at the interruption hook (about 0.1 ms of work).
pub const DEAL_POLL: usize = 1024;

impl VecEnv {
    /// `num_envs` games of `per_colour` buttons of each colour; game `i` draws from its
    /// own generator, seeded from `seed` and `i`, so that the games do not depend on
    /// how they are split across threads.
    pub fn new(num_envs: usize, per_colour: usize, seed: u64) -> Result<VecEnv, MakeError> {
        Self::made(num_envs, per_colour, seed, None)
    }

    /// The single-agent form: the agent plays `agent` in every game, and `opponent`
    /// plays the other side inside each step (and in the deal when it starts).
    pub fn against(
        num_envs: usize,
        per_colour: usize,
        seed: u64,
        agent: Player,
        opponent: OpponentKind,
    ) -> Result<VecEnv, MakeError> {
        Self::made(num_envs, per_colour, seed, Some((agent, opponent)))
    }

    fn made(
        num_envs: usize,
        per_colour: usize,
        seed: u64,
        against: Option<(Player, OpponentKind)>,
    ) -> Result<VecEnv, MakeError> {
        let per_colour = Capability::Rules
            .check(per_colour as i64)
            .map_err(MakeError::Variant)?;
        let mut env = VecEnv {
            per_colour,
            num_envs,
            games: Vec::new(),
            against,
            bots: vec![None],
            pool: None,
            written: None,
            portable: false,
        };
        env.reset(seed)
            .map_err(|Interrupted| MakeError::Interrupted)?;
        Ok(env)
    }

    /// New battles in every game. Dealt aside and put in place only when all are dealt:
    /// an interrupted reset changes no game.
    pub fn reset(&mut self, seed: u64) -> Result<(), Interrupted> {
        let mut seeds = SplitMix64::new(seed);
        self.deal_all(|_| seeds.next_u64())
    }

    /// New battles, game `i` seeded by `seeds[i]` alone: it deals the battle that game
    /// 0 of a batch reset with `seeds[i]` deals. `seeds` has one entry a game (the
    /// caller checks; missing ones are taken as 0).
    pub fn reset_each(&mut self, seeds: &[u64]) -> Result<(), Interrupted> {
        self.deal_all(|i| SplitMix64::new(seeds.get(i).copied().unwrap_or(0)).next_u64())
    }

    /// Deals every game, game `i` from the generator seed `seed_of(i)`.
    fn deal_all(&mut self, mut seed_of: impl FnMut(usize) -> u64) -> Result<(), Interrupted> {
        let mut games = Vec::with_capacity(self.num_envs);
        let bot = &mut self.bots[0];
        for i in 0..self.num_envs {
            if i % DEAL_POLL == DEAL_POLL - 1 && interrupted() {
                return Err(Interrupted);
            }
            games.push(Game::new(self.per_colour, seed_of(i), self.against, bot));
        }
        self.games = games;
        self.written = None;
        Ok(())
    }

    /// The number of games.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether there is no game.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// Buttons of each colour.
    pub fn per_colour(&self) -> usize {
        self.per_colour
    }

    /// The largest number of piles (the width of a legal-move mask).
    pub fn max_piles(&self) -> usize {
        3 * self.per_colour
    }

    /// The current positions.
    pub fn positions(&self) -> impl Iterator<Item = Position> + '_ {
        self.games.iter().map(|g| g.position)
    }

    /// Makes the next call write its outputs in full, as into buffers it never wrote:
    /// for buffers whose contents changed since (a step writes only what it changes,
    /// into what it finds there; new buffers are known by their address).
    pub fn forget_outputs(&mut self) {
        self.written = None;
    }

    /// The threads of the pool kept for the steps (1 before any step on more).
    pub fn pool_threads(&self) -> usize {
        self.pool.as_ref().map_or(1, Pool::threads)
    }

    /// Checks every action before any is played: a game that is not finished needs a
    /// legal pile (a finished one ignores its action and starts again); a game that
    /// sits the step out (`waiting`) needs none.
    pub fn check(&self, actions: &[i64], waiting: Option<&[bool]>) -> Result<(), StepError> {
        for (game, (g, &pile)) in self.games.iter().zip(actions).enumerate() {
            if g.done || waiting.is_some_and(|w| w.get(game).copied().unwrap_or(false)) {
                continue;
            }
            let legal = u32::try_from(pile).is_ok_and(|p| p < 64 && g.legal >> p & 1 == 1);
            if !legal {
                let reason = match usize::try_from(pile) {
                    Ok(p) => match g.position.play(p) {
                        Err(error) => error.to_string(),
                        Ok(_) => "not legal".to_string(),
                    },
                    Err(_) => "a pile index is at least 0".to_string(),
                };
                return Err(StepError { game, pile, reason });
            }
        }
        Ok(())
    }

    /// Plays `actions` (checked first: on an error no game changes) and writes the
    /// outputs, on `threads` threads.
    pub fn step(
        &mut self,
        actions: &[i64],
        out: Outputs<'_>,
        threads: usize,
    ) -> Result<(), Failure> {
        self.step_some(actions, None, out, threads)
    }

    /// [`step`](Self::step), but the games flagged in `waiting` (one flag a game) sit
    /// it out: their action is not looked at, their battle does not move (a finished
    /// one does not start again), their reward is 0 and `terminated` stays as it was.
    /// For a caller who plays some games' moves itself, the other side's for
    /// instance, between the agent's.
    pub fn step_some(
        &mut self,
        actions: &[i64],
        waiting: Option<&[bool]>,
        out: Outputs<'_>,
        threads: usize,
    ) -> Result<(), Failure> {
        let count = self.games.len();
        let short = |what: &str, given: usize| {
            Failure::Illegal(StepError {
                game: given.min(count),
                pile: -1,
                reason: format!("{given} {what} for {count} games"),
            })
        };
        if actions.len() != count {
            return Err(short("actions", actions.len()));
        }
        if let Some(waiting) = waiting.filter(|w| w.len() != count) {
            return Err(short("waiting flags", waiting.len()));
        }
        self.check(actions, waiting)?;
        self.run(out, None, threads, false, &Step { actions, waiting })?;
        Ok(())
    }

    /// A step in which every unfinished game plays a legal pile drawn uniformly at
    /// random by its own generator (the one its deals come from: reproducible from the
    /// seed whatever the threads), written into `chosen` when given (one a game; -1
    /// for a finished game, which starts a new battle as in [`step`](Self::step)).
    pub fn step_random(
        &mut self,
        chosen: Option<&mut [i64]>,
        out: Outputs<'_>,
        threads: usize,
    ) -> Result<(), Panicked> {
        let chosen = chosen.map(|c| {
            let games = c.len().min(self.games.len());
            &mut c[..games]
        });
        self.run(out, chosen, threads, false, &RandomStep)
    }

    /// Writes the outputs of the current state (after a reset), in full, without
    /// stepping.
    pub fn observe(&mut self, out: Outputs<'_>, threads: usize) -> Result<(), Panicked> {
        self.run(out, None, threads, true, &Observe)
    }

    /// Starts a new battle at once in every game whose battle ended on the last step
    /// (the same-step reset of Gymnasium and Stable-Baselines3), rewriting its player,
    /// mask and observation; rewards and `terminated` keep the step's values.
    pub fn restart_finished(&mut self, out: Outputs<'_>, threads: usize) -> Result<(), Panicked> {
        self.run(out, None, threads, false, &Restart)
    }

    /// Runs only the portable copy of the steps' work (`true`), not the one compiled for
    /// this processor's extra instructions: for tests that compare the two.
    #[cfg(test)]
    pub(crate) fn set_portable(&mut self, portable: bool) {
        self.portable = portable;
    }

    /// Does `work` to every game with its outputs, the games split into parts worked by
    /// up to `threads` threads of the pool; the outputs are written in full when `full`
    /// or when the buffers are not the last call's.
    fn run(
        &mut self,
        out: Outputs<'_>,
        chosen: Option<&mut [i64]>,
        threads: usize,
        full: bool,
        work: &impl PerGame,
    ) -> Result<(), Panicked> {
        let count = self.games.len();
        let obs_len = observation_len(self.per_colour);
        let width = self.max_piles();
        // A thread is worth its part only from a measured number of games.
        let light = out.observation.is_none() && self.against.is_none();
        let per_thread = if light {
            MIN_LIGHT_GAMES_A_THREAD
        } else {
            MIN_GAMES_A_THREAD
        };
        let threads = threads.clamp(1, (count / per_thread).max(1));
        if threads > 1 && self.pool.as_ref().is_none_or(|p| p.asked() != threads) {
            self.pool = Some(Pool::new(threads));
        }
        let threads = if threads > 1 { self.pool_threads() } else { 1 };
        let chunk = count.div_ceil(threads).max(1);
        self.bots.resize_with(count.div_ceil(chunk).max(1), || None);
        let Outputs {
            current_player,
            legal_action_mask,
            rewards,
            terminated,
            observation,
        } = out;
        let buffers = (
            address(legal_action_mask),
            observation.as_deref().map(address),
        );
        let shape = Shape {
            per_colour: self.per_colour,
            width,
            obs_len,
            full: full || self.written != Some(buffers),
        };
        // Until the call ends well, nothing is known of what the buffers hold.
        self.written = None;
        let mut obs_chunks = observation.map(|o| o.chunks_mut(chunk * obs_len));
        let mut chosen_chunks = chosen.map(|c| c.chunks_mut(chunk));
        let parts: Vec<_> = self
            .games
            .chunks_mut(chunk)
            .zip(current_player.chunks_mut(chunk))
            .zip(legal_action_mask.chunks_mut(chunk * width))
            .zip(rewards.chunks_mut(chunk * 2))
            .zip(terminated.chunks_mut(chunk))
            .zip(self.bots.iter_mut())
            .enumerate()
            .map(|(c, (((((games, current), mask), rewards), done), bot))| {
                Mutex::new(Part {
                    games,
                    current_player: current,
                    mask,
                    rewards,
                    terminated: done,
                    observation: obs_chunks.as_mut().and_then(|o| o.next()),
                    chosen: chosen_chunks.as_mut().and_then(|o| o.next()),
                    bot,
                    first: c * chunk,
                })
            })
            .collect();
        let kernel = Kernel::choose(self.portable);
        let each = |c: usize| {
            let Some(part) = parts.get(c) else {
                return;
            };
            let Ok(mut part) = part.lock() else {
                return;
            };
            kernel.run(&mut part, shape, work);
        };
        match &mut self.pool {
            Some(pool) if threads > 1 => pool.run(parts.len(), &each)?,
            _ => Pool::alone(parts.len(), &each)?,
        }
        self.written = Some(buffers);
        Ok(())
    }
}

//! A batched environment for learning agents: many battles stepped in one call, each
//! written into flat output buffers (no allocation a step), optionally on several
//! threads. The observation encoding and the reward and reset conventions are those of
//! docs/rl.md. In its single-agent form (`VecEnv::against`) an opponent of
//! `sim::opponent` plays the other side inside the same call.

use crate::game::rng::{random_start, SplitMix64};
use crate::game::rules::{Colour, Player, Position};
use crate::game::variant::{buttons, Capability, VariantError};
use crate::run::parallel::for_each_part;
use crate::sim::opponent::{Opponent, OpponentKind, SharedBot};

/// The observation of one game: `piles x heights x 3` cells, pile-major, each 1 when
/// the button at that height of that pile is the mover's (channel 0), the opponent's
/// (1) or white (2), else 0. Piles and heights both run to the number of buttons.
pub fn observation_len(per_colour: usize) -> usize {
    let n = buttons(per_colour);
    n * n * 3
}

/// Writes the observation of `position` from its mover's point of view into `out`
/// (`observation_len` cells).
pub fn encode(position: &Position, out: &mut [i8]) {
    encode_for(position, position.to_move(), out);
}

/// Writes the observation of `position` from `player`'s point of view into `out`.
pub fn encode_for(position: &Position, player: Player, out: &mut [i8]) {
    out.fill(0);
    let n = position.button_count();
    let mine = match player {
        Player::Red => Colour::Red,
        Player::Black => Colour::Black,
    };
    let (mut pile, mut height) = (0, 0);
    for (i, colour) in position.buttons().enumerate() {
        if i > 0 && position.is_bottom(i) {
            (pile, height) = (pile + 1, 0);
        }
        let channel = match colour {
            Colour::White => 2,
            c if c == mine => 0,
            _ => 1,
        };
        if let Some(cell) = out.get_mut((pile * n + height) * 3 + channel) {
            *cell = 1;
        }
        height += 1;
    }
}

/// Writes the legal moves of `position` into `out` (one flag a pile, up to the number
/// of buttons).
pub fn legal_mask(position: &Position, out: &mut [bool]) {
    write_mask(position.legal_move_mask(), out);
}

fn write_mask(mask: u64, out: &mut [bool]) {
    for (p, flag) in out.iter_mut().enumerate() {
        *flag = mask >> (p & 63) & 1 == 1 && p < 64;
    }
}

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

impl std::fmt::Display for StepError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "game {}: pile {}: {}", self.game, self.pile, self.reason)
    }
}

impl std::error::Error for StepError {}

/// The fewest games a thread of its own steps.
const MIN_GAMES_A_THREAD: usize = 1024;

/// One game of the batch.
struct Game {
    position: Position,
    /// The legal moves of `position` (bit `p` for pile `p`), kept for the checks.
    legal: u64,
    rng: SplitMix64,
    /// The battle ended on the last step: the next step starts a new one.
    done: bool,
    /// In the single-agent form: the agent's side and the opponent playing the other.
    against: Option<(Player, Opponent)>,
}

impl Game {
    fn new(
        per_colour: usize,
        seed: u64,
        against: Option<(Player, OpponentKind)>,
        bot: &mut SharedBot,
    ) -> Game {
        let against = against.map(|(agent, kind)| (agent, Opponent::new(kind, seed)));
        let mut game = Game {
            position: Position::lone_white(),
            legal: 0,
            rng: SplitMix64::new(seed),
            done: false,
            against,
        };
        game.deal(per_colour, bot);
        game
    }

    /// A shuffled start, its starter a fair coin; in the single-agent form the
    /// opponent's first moves are played, and a battle that the opponent would play to
    /// its end without the agent moving once is dealt again (it asks nothing of him).
    fn deal(&mut self, per_colour: usize, bot: &mut SharedBot) {
        loop {
            let starter = if self.rng.below(2) == 0 {
                Player::Red
            } else {
                Player::Black
            };
            // Cannot fail: per_colour is checked when the batch is made.
            self.position = random_start(per_colour, starter, &mut self.rng)
                .unwrap_or_else(|_| Position::lone_white());
            self.opponent_moves(bot);
            if !self.position.is_over() {
                break;
            }
        }
        self.legal = self.position.legal_move_mask();
    }

    /// In the single-agent form, the opponent's moves until the agent is to move or the
    /// battle is over.
    fn opponent_moves(&mut self, bot: &mut SharedBot) {
        if let Some((agent, opponent)) = &mut self.against {
            while !self.position.is_over() && self.position.to_move() != *agent {
                let mv = opponent.choose(&self.position, bot);
                self.position = self.position.play_unchecked(mv).position;
            }
        }
    }

    /// The player whose view the observation takes: the agent's in the single-agent
    /// form, else the mover's.
    fn viewer(&self) -> Player {
        self.against
            .as_ref()
            .map_or(self.position.to_move(), |(agent, _)| *agent)
    }
}

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
}

impl VecEnv {
    /// `num_envs` games of `per_colour` buttons of each colour; game `i` draws from its
    /// own generator, seeded from `seed` and `i`, so that the games do not depend on
    /// how they are split across threads.
    pub fn new(num_envs: usize, per_colour: usize, seed: u64) -> Result<VecEnv, VariantError> {
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
    ) -> Result<VecEnv, VariantError> {
        Self::made(num_envs, per_colour, seed, Some((agent, opponent)))
    }

    fn made(
        num_envs: usize,
        per_colour: usize,
        seed: u64,
        against: Option<(Player, OpponentKind)>,
    ) -> Result<VecEnv, VariantError> {
        let per_colour = Capability::Rules.check(per_colour as i64)?;
        let mut env = VecEnv {
            per_colour,
            num_envs,
            games: Vec::with_capacity(num_envs),
            against,
            bots: vec![None],
        };
        env.reset(seed);
        Ok(env)
    }

    /// New battles in every game.
    pub fn reset(&mut self, seed: u64) {
        let mut seeds = SplitMix64::new(seed);
        self.games.clear();
        let bot = &mut self.bots[0];
        for _ in 0..self.num_envs {
            let game = Game::new(self.per_colour, seeds.next_u64(), self.against, bot);
            self.games.push(game);
        }
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

    /// Checks every action before any is played: a game that is not finished needs a
    /// legal pile (a finished one ignores its action and starts again).
    pub fn check(&self, actions: &[i64]) -> Result<(), StepError> {
        for (game, (g, &pile)) in self.games.iter().zip(actions).enumerate() {
            if g.done {
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
    ) -> Result<(), StepError> {
        if actions.len() != self.games.len() {
            return Err(StepError {
                game: actions.len().min(self.games.len()),
                pile: -1,
                reason: format!("{} actions for {} games", actions.len(), self.games.len()),
            });
        }
        self.check(actions)?;
        self.run(out, threads, |per_colour, game, bot, outputs, i| {
            step_game(per_colour, game, bot, actions_at(actions, i), outputs)
        });
        Ok(())
    }

    /// Writes the outputs of the current state (after a reset), without stepping.
    pub fn observe(&mut self, out: Outputs<'_>, threads: usize) {
        self.run(out, threads, |_, game, _, outputs, _| {
            *outputs.reward_red = 0.0;
            *outputs.reward_black = 0.0;
            *outputs.terminated = false;
            write_state(game, outputs);
        });
    }

    /// Starts a new battle at once in every game whose battle ended on the last step
    /// (the same-step reset of Gymnasium and Stable-Baselines3), rewriting its player,
    /// mask and observation; rewards and `terminated` keep the step's values.
    pub fn restart_finished(&mut self, out: Outputs<'_>, threads: usize) {
        self.run(out, threads, |per_colour, game, bot, outputs, _| {
            if game.done {
                game.deal(per_colour, bot);
                game.done = false;
                write_state(game, outputs);
            }
        });
    }

    /// Runs `f` on every game with its outputs, the games split into `threads` chunks.
    fn run(
        &mut self,
        out: Outputs<'_>,
        threads: usize,
        f: impl Fn(usize, &mut Game, &mut SharedBot, GameOut<'_>, usize) + Sync,
    ) {
        let count = self.games.len();
        let obs_len = observation_len(self.per_colour);
        let width = self.max_piles();
        // A thread is worth its start only for a thousand games or so.
        let threads = threads.clamp(1, (count / MIN_GAMES_A_THREAD).max(1));
        let chunk = count.div_ceil(threads).max(1);
        self.bots.resize_with(count.div_ceil(chunk).max(1), || None);
        let per_colour = self.per_colour;
        let Outputs {
            current_player,
            legal_action_mask,
            rewards,
            terminated,
            observation,
        } = out;
        let mut obs_chunks = observation.map(|o| o.chunks_mut(chunk * obs_len));
        let parts: Vec<_> = self
            .games
            .chunks_mut(chunk)
            .zip(current_player.chunks_mut(chunk))
            .zip(legal_action_mask.chunks_mut(chunk * width))
            .zip(rewards.chunks_mut(chunk * 2))
            .zip(terminated.chunks_mut(chunk))
            .zip(self.bots.iter_mut())
            .enumerate()
            .map(|(c, part)| (c, part, obs_chunks.as_mut().and_then(|o| o.next())))
            .collect();
        for_each_part(
            parts,
            threads,
            |(c, (((((games, current), mask), reward), done), bot), mut obs)| {
                for (j, game) in games.iter_mut().enumerate() {
                    let (red, black) = reward[2 * j..2 * j + 2].split_at_mut(1);
                    let outputs = GameOut {
                        current_player: &mut current[j],
                        mask: &mut mask[j * width..(j + 1) * width],
                        reward_red: &mut red[0],
                        reward_black: &mut black[0],
                        terminated: &mut done[j],
                        observation: obs
                            .as_deref_mut()
                            .map(|o| &mut o[j * obs_len..(j + 1) * obs_len]),
                    };
                    f(per_colour, game, bot, outputs, c * chunk + j);
                }
            },
        );
    }
}

fn actions_at(actions: &[i64], i: usize) -> i64 {
    actions.get(i).copied().unwrap_or(0)
}

/// The outputs of one game.
struct GameOut<'a> {
    current_player: &'a mut i8,
    mask: &'a mut [bool],
    reward_red: &'a mut f32,
    reward_black: &'a mut f32,
    terminated: &'a mut bool,
    observation: Option<&'a mut [i8]>,
}

fn write_state(game: &mut Game, out: GameOut<'_>) {
    let position = &game.position;
    game.legal = position.legal_move_mask();
    *out.current_player = position.to_move() as i8;
    write_mask(game.legal, out.mask);
    if let Some(obs) = out.observation {
        encode_for(position, game.viewer(), obs);
    }
}

/// One game's step: a finished game starts a new battle; otherwise the action is played
/// (it was checked) and a battle that ends pays its margin.
fn step_game(
    per_colour: usize,
    game: &mut Game,
    bot: &mut SharedBot,
    action: i64,
    out: GameOut<'_>,
) {
    let (mut red, mut done) = (0.0, false);
    if game.done {
        game.deal(per_colour, bot);
        game.done = false;
    } else {
        let pile = usize::try_from(action).unwrap_or(0);
        game.position = game.position.play_unchecked(pile).position;
        game.opponent_moves(bot);
        if game.position.is_over() {
            red = game.position.margin().unwrap_or(0) as f32;
            done = true;
            game.done = true;
        }
    }
    *out.reward_red = red;
    *out.reward_black = 0.0 - red; // not -0.0 when nothing is won
    *out.terminated = done;
    write_state(game, out);
}

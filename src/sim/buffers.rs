//! Output buffers that own their memory, for Rust callers of [`VecEnv`] (the Python
//! binding writes into NumPy arrays instead): one of each output, sized for an
//! environment, lent to each call as [`Outputs`].

use crate::sim::vecenv::{observation_len, Outputs, VecEnv};

/// An environment's outputs, as the last call left them.
#[derive(Clone, PartialEq, Debug)]
pub struct Buffers {
    /// The player to move in each game (0 Red, 1 Black).
    pub current: Vec<i8>,
    /// The legal piles of each game, `max_piles` flags a game.
    pub mask: Vec<bool>,
    /// Each game's rewards, Red's then Black's.
    pub rewards: Vec<f32>,
    /// Whether each game's battle ended on the last step.
    pub done: Vec<bool>,
    /// The observations (empty when made without them).
    pub obs: Vec<i8>,
}

impl Buffers {
    /// Buffers for every output of `env`, observations included when `observe`.
    pub fn new(env: &VecEnv, observe: bool) -> Buffers {
        let games = env.len();
        let cells = if observe {
            observation_len(env.per_colour())
        } else {
            0
        };
        Buffers {
            current: vec![0; games],
            mask: vec![false; games * env.max_piles()],
            rewards: vec![0.0; games * 2],
            done: vec![false; games],
            obs: vec![0; games * cells],
        }
    }

    /// The buffers lent to one call (observations only if they were made).
    pub fn outputs(&mut self) -> Outputs<'_> {
        Outputs {
            current_player: &mut self.current,
            legal_action_mask: &mut self.mask,
            rewards: &mut self.rewards,
            terminated: &mut self.done,
            observation: if self.obs.is_empty() {
                None
            } else {
                Some(&mut self.obs)
            },
        }
    }
}

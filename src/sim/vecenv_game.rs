//! One game of a batched environment (`sim::vecenv`): its position, generator, legal
//! moves and, in the single-agent form, the opponent that plays the other side.

use crate::game::bits::{Portable, WordOps};
use crate::game::rng::{random_start, SplitMix64};
use crate::game::rules::{Player, Position};
use crate::sim::opponent::{Opponent, OpponentKind, SharedBot};

/// One game of the batch.
pub(super) struct Game {
    pub(super) position: Position,
    /// The legal moves of `position` (bit `p` for pile `p`), kept for the checks.
    pub(super) legal: u64,
    pub(super) rng: SplitMix64,
    /// The battle ended on the last step: the next step starts a new one.
    pub(super) done: bool,
    /// In the single-agent form: the agent's side and the opponent playing the other.
    pub(super) against: Option<(Player, Opponent)>,
}

impl Game {
    pub(super) fn new(
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
    pub(super) fn deal(&mut self, per_colour: usize, bot: &mut SharedBot) {
        self.deal_with(Portable, per_colour, bot);
    }

    /// [`deal`](Self::deal) by the given word operations.
    #[inline(always)]
    pub(super) fn deal_with(&mut self, ops: impl WordOps, per_colour: usize, bot: &mut SharedBot) {
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
        self.legal = self.position.legal_move_mask_with(ops);
    }

    /// In the single-agent form, the opponent's moves until the agent is to move or the
    /// battle is over.
    #[inline(always)]
    pub(super) fn opponent_moves(&mut self, bot: &mut SharedBot) {
        if self.against.is_some() {
            self.opponents_turns(bot);
        }
    }

    /// [`opponent_moves`](Self::opponent_moves) in the single-agent form.
    fn opponents_turns(&mut self, bot: &mut SharedBot) {
        if let Some((agent, opponent)) = &mut self.against {
            while !self.position.is_over() && self.position.to_move() != *agent {
                let mv = opponent.choose(&self.position, bot);
                self.position = self.position.play_unchecked(mv).position;
            }
        }
    }

    /// The player whose view the observation takes: the agent's in the single-agent
    /// form, else the mover's.
    pub(super) fn viewer(&self) -> Player {
        self.against
            .as_ref()
            .map_or(self.position.to_move(), |(agent, _)| *agent)
    }
}

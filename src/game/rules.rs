//! The rules of Button Up!, as in `docs/rules.md`.
//!
//! A [`Position`] is a circle of piles stored in two machine words: the colours of all
//! buttons (2 bits each, clockwise, every pile bottom first) and a mask marking the
//! button at the bottom of each pile. Playing a move is a few shifts and masks on those
//! words; nothing is allocated.

mod sowing;

use crate::game::bits::{compress_even_bits, low64, Portable, WordOps};
use crate::game::error::{IllegalMove, PositionError};
pub use crate::game::pieces::{Colour, Player};
pub use crate::game::scoring::Scoring;

/// The most buttons a position can hold (2 bits each in a `u64`).
pub const MAX_BUTTONS: usize = 32;

/// A position: the circle of piles and the player to move.
///
/// Invariants: `len >= 1`, bit 0 of `bottoms` is set, no bit at or above `len` (in
/// `bottoms`) or `2 * len` (in `cells`) is set, and at least one button is white.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// Colour code of button `i` at bits `2i..2i+2`, clockwise, each pile bottom first.
    cells: u64,
    /// Bit `i` is set when button `i` is the bottom button of its pile.
    bottoms: u64,
    /// The number of buttons.
    len: u8,
    /// The number of piles (the set bits of `bottoms`, kept to spare a bit count).
    piles: u8,
    to_move: Player,
}

/// What one move did, besides giving the new position.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct MoveOutcome {
    /// The position after the move.
    pub position: Position,
    /// The mover must move again (rule 4).
    pub extra_move: bool,
    /// More buttons were lifted than there were other piles (rule 3).
    pub overflow: bool,
}

impl Position {
    /// Builds a position from its piles, each listed bottom first, in clockwise order.
    pub fn from_piles<P: AsRef<[Colour]>>(
        piles: &[P],
        to_move: Player,
    ) -> Result<Position, PositionError> {
        let mut builder = Builder::default();
        for (index, pile) in piles.iter().enumerate() {
            let pile = pile.as_ref();
            if pile.is_empty() {
                return Err(PositionError::EmptyPile { pile: index });
            }
            for (i, &colour) in pile.iter().enumerate() {
                builder.push(colour, i == 0)?;
            }
        }
        builder.finish(to_move)
    }

    /// The smallest position: one white button, Red to move (a stand-in where a
    /// position is needed but none could be made).
    pub(crate) const fn lone_white() -> Position {
        Position {
            cells: Colour::White.code(),
            bottoms: 1,
            len: 1,
            piles: 1,
            to_move: Player::Red,
        }
    }

    /// The number of buttons.
    pub fn button_count(&self) -> usize {
        self.len as usize
    }

    /// The number of piles.
    pub fn pile_count(&self) -> usize {
        usize::from(self.piles)
    }

    /// The player to move.
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// The raw words: colour cells, pile bottoms, number of buttons, player to move.
    pub(crate) fn raw(&self) -> (u64, u64, u32, Player) {
        (self.cells, self.bottoms, u32::from(self.len), self.to_move)
    }

    /// The same piles with `player` to move.
    pub fn with_to_move(&self, player: Player) -> Position {
        Position {
            to_move: player,
            ..*self
        }
    }

    /// Rule 5: the battle is over when one pile remains.
    pub fn is_over(&self) -> bool {
        self.piles == 1
    }

    /// The colour of button `i` (clockwise order, each pile bottom first).
    fn colour_at(&self, i: u32) -> Colour {
        match Colour::from_code(self.cells >> (2 * i)) {
            Some(colour) => colour,
            None => unreachable!("a position has no empty cell below its length"),
        }
    }

    /// The first button of pile `p` and one past its last.
    pub(crate) fn pile_span(&self, p: usize) -> (u32, u32) {
        self.pile_span_with(Portable, p)
    }

    /// [`pile_span`](Self::pile_span) by the given word operations.
    #[inline(always)]
    pub(crate) fn pile_span_with(&self, ops: impl WordOps, p: usize) -> (u32, u32) {
        let start = ops.select(self.bottoms, p);
        let above = self.bottoms & !low64(u64::MAX, start + 1);
        let end = if above == 0 {
            u32::from(self.len)
        } else {
            above.trailing_zeros()
        };
        (start, end)
    }

    /// The buttons of pile `p`, bottom first (none if there is no pile `p`).
    pub fn pile(&self, p: usize) -> impl Iterator<Item = Colour> + '_ {
        let (start, end) = if p < self.pile_count() {
            self.pile_span(p)
        } else {
            (0, 0)
        };
        (start..end).map(move |i| self.colour_at(i))
    }

    /// Every button, clockwise, each pile bottom first.
    pub fn buttons(&self) -> impl Iterator<Item = Colour> + '_ {
        (0..u32::from(self.len)).map(move |i| self.colour_at(i))
    }

    /// Whether button `i` (in the order of [`buttons`](Self::buttons)) is the bottom of
    /// its pile.
    pub fn is_bottom(&self, i: usize) -> bool {
        i < 64 && self.bottoms >> i & 1 == 1
    }

    /// All piles, each as its buttons bottom first.
    pub fn piles(&self) -> impl Iterator<Item = impl Iterator<Item = Colour> + '_> + '_ {
        (0..self.pile_count()).map(move |p| self.pile(p))
    }

    /// Bit `i` set when button `i` is white.
    pub(crate) fn white_buttons(&self) -> u64 {
        self.white_buttons_with(Portable)
    }

    /// [`white_buttons`](Self::white_buttons) by the given word operations (one `pext`
    /// with BMI2).
    #[inline(always)]
    pub(crate) fn white_buttons_with<O: WordOps>(&self, ops: O) -> u64 {
        // White is code 3: both bits of its cell.
        let flags = self.cells & (self.cells >> 1);
        if O::FAST_DEPOSIT {
            ops.gather(flags, 0x5555_5555_5555_5555)
        } else {
            compress_even_bits(flags)
        }
    }

    /// Rule 2: bit `p` is set when pile `p` holds a white button and so may be lifted.
    /// Empty when the battle is over.
    pub fn legal_move_mask(&self) -> u64 {
        self.legal_moves_counted().0
    }

    /// [`legal_move_mask`](Self::legal_move_mask) from the word-operation form of rule
    /// 2 ([`legal_tops`](Self::legal_tops)), its bits gathered to pile indices without a
    /// branch a pile (one `pext` with BMI2; about half the cost of the walk over the
    /// piles even without it).
    #[inline(always)]
    pub(crate) fn legal_move_mask_with(&self, ops: impl WordOps) -> u64 {
        let tops = self.bottoms >> 1 | 1u64 << (self.len - 1);
        ops.gather(self.legal_tops_with(ops), tops)
    }

    /// The number of legal moves.
    pub fn legal_move_count(&self) -> u32 {
        self.legal_moves_counted().1
    }

    /// The legal move mask and its number of moves, by one walk over the piles (no bit
    /// count: `popcnt` is not in the baseline x86-64 instruction set).
    #[inline]
    pub fn legal_moves_counted(&self) -> (u64, u32) {
        if self.is_over() {
            return (0, 0);
        }
        // The walk of `pile_spans`, written out: this is the hottest loop of every move
        // generation, and the iterator form measured ~10% slower through Python's
        // `legal_moves` (94 -> 103 ns a call).
        let whites = self.white_buttons();
        let mut rest = self.bottoms;
        let (mut mask, mut count, mut pile) = (0, 0, 0);
        while rest != 0 {
            let start = rest.trailing_zeros();
            rest &= rest - 1;
            let end = if rest == 0 {
                u32::from(self.len)
            } else {
                rest.trailing_zeros()
            };
            if whites & (low64(u64::MAX, end) & !low64(u64::MAX, start)) != 0 {
                mask |= 1u64 << pile;
                count += 1;
            }
            pile += 1;
        }
        (mask, count)
    }

    /// The buttons `start..end` of every pile, clockwise, by one walk over the bottoms.
    #[inline]
    pub(crate) fn pile_spans(&self) -> impl Iterator<Item = (u32, u32)> {
        let (mut rest, len) = (self.bottoms, u32::from(self.len));
        std::iter::from_fn(move || {
            if rest == 0 {
                return None;
            }
            let start = rest.trailing_zeros();
            rest &= rest - 1;
            let end = if rest == 0 {
                len
            } else {
                rest.trailing_zeros()
            };
            Some((start, end))
        })
    }

    /// The buttons of each colour of a balanced position (as many of each colour, as
    /// every battle of a match has), or `None`.
    pub fn per_colour(&self) -> Option<usize> {
        let count = |colour| self.buttons().filter(|&c| c == colour).count();
        let [red, black, white] = [Colour::Red, Colour::Black, Colour::White].map(count);
        (red == black && black == white).then_some(red)
    }

    /// The legal moves in increasing order.
    pub fn legal_moves(&self) -> impl Iterator<Item = usize> {
        let mut mask = self.legal_move_mask();
        std::iter::from_fn(move || {
            if mask == 0 {
                return None;
            }
            let p = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            Some(p)
        })
    }

    /// Whether lifting pile `p` is legal.
    pub fn is_legal(&self, p: usize) -> bool {
        p < 64 && self.legal_move_mask() >> p & 1 == 1
    }

    /// Why no pile named `pile` (a move as the caller wrote it: maybe negative or huge)
    /// can be lifted here: the battle is over, or there is no such pile.
    pub fn no_such_pile(&self, pile: String) -> IllegalMove {
        if self.is_over() {
            IllegalMove::BattleOver
        } else {
            IllegalMove::NoSuchPile {
                pile,
                piles: self.pile_count(),
            }
        }
    }

    /// Plays `p` after checking it, or says why it is illegal.
    pub fn play(&self, p: usize) -> Result<MoveOutcome, IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::BattleOver);
        }
        if p >= self.pile_count() {
            return Err(self.no_such_pile(p.to_string()));
        }
        if !self.is_legal(p) {
            let pile = self.pile(p).map(Colour::letter).collect();
            return Err(IllegalMove::NoWhite {
                pile: p,
                buttons: pile,
            });
        }
        Ok(self.play_unchecked(p))
    }

    /// Rule 4 asked ahead: whether playing `p` makes the mover move again.
    pub fn gives_extra_move(&self, p: usize) -> Result<bool, IllegalMove> {
        Ok(self.play(p)?.extra_move)
    }

    /// Plays `p` after checking it, and spells out rule 3 for front ends that show the
    /// sowing: the outcome, and the pile (numbered as in this position) that receives
    /// each lifted button, bottom button first. With an overflow the last pile receives
    /// the rest, so its number repeats.
    pub fn sowing(&self, p: usize) -> Result<Sowing, IllegalMove> {
        let outcome = self.play(p)?;
        Ok(Sowing {
            outcome,
            drops: self.drop_piles(p),
        })
    }

    /// The receiving piles of [`sowing`](Self::sowing) only.
    pub fn drops(&self, p: usize) -> Result<Vec<usize>, IllegalMove> {
        Ok(self.sowing(p)?.drops)
    }

    /// Rule 3 by pile numbers (`p` legal): the `j`-th lifted button goes to the `j`-th
    /// pile after `p`, the last of the other piles taking every button beyond them.
    fn drop_piles(&self, p: usize) -> Vec<usize> {
        let piles = self.pile_count();
        let lifted = self.pile(p).count();
        let others = piles - 1;
        (0..lifted)
            .map(|j| (p + 1 + j.min(others - 1)) % piles)
            .collect()
    }

    /// Rule 6: the scoring of the final pile, or `None` while the battle is not over.
    pub fn scoring(&self) -> Option<Scoring> {
        if !self.is_over() {
            return None;
        }
        let mut scoring = Scoring::default();
        for i in 0..u32::from(self.len) {
            match self.colour_at(i) {
                Colour::Red => scoring.add(Player::Red, i + 1),
                Colour::Black => scoring.add(Player::Black, i + 1),
                Colour::White => {}
            }
        }
        Some(scoring)
    }

    /// Red's and Black's sums in the final pile (each the strengths of his buttons,
    /// bottom button 1, top `N`), or `None` while the battle is not over.
    pub fn sums(&self) -> Option<(u32, u32)> {
        self.scoring().map(|s| (s.red, s.black))
    }

    /// Red's sum minus Black's once the battle is over.
    pub fn margin(&self) -> Option<i32> {
        self.scoring().map(|s| s.margin())
    }
}

/// A move spelt out: its outcome and where each lifted button went (rule 3).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Sowing {
    /// What the move did.
    pub outcome: MoveOutcome,
    /// The pile, numbered before the move, that receives each lifted button, bottom
    /// button first; with an overflow the last pile repeats.
    pub drops: Vec<usize>,
}

/// Collects buttons one at a time and checks the position they make.
#[derive(Default)]
pub(crate) struct Builder {
    cells: u64,
    bottoms: u64,
    len: usize,
    whites: usize,
}

impl Builder {
    /// Adds a button on top of the current pile, or as a new pile when `new_pile`.
    pub(crate) fn push(&mut self, colour: Colour, new_pile: bool) -> Result<(), PositionError> {
        if self.len == MAX_BUTTONS {
            return Err(PositionError::TooManyButtons { max: MAX_BUTTONS });
        }
        self.cells |= colour.code() << (2 * self.len);
        if new_pile || self.len == 0 {
            self.bottoms |= 1 << self.len;
        }
        self.whites += usize::from(colour == Colour::White);
        self.len += 1;
        Ok(())
    }

    pub(crate) fn finish(self, to_move: Player) -> Result<Position, PositionError> {
        if self.len == 0 {
            return Err(PositionError::NoButtons);
        }
        if self.whites == 0 {
            return Err(PositionError::NoWhite);
        }
        Ok(Position {
            cells: self.cells,
            bottoms: self.bottoms,
            len: self.len as u8,
            piles: self.bottoms.count_ones() as u8,
            to_move,
        })
    }
}

//! Move ordering: the stored best move first, then the moves that earn an extra move,
//! then the rest, each group by the piles its moves make liftable, then by the size of
//! the pile lifted, then clockwise (counter-clockwise for a helper thread, so that two
//! threads sharing a table explore different moves first).

use std::mem::MaybeUninit;

use super::net::net_value;
use crate::game::bits::{low64, shl64, Portable, WordOps};
use crate::game::rules::{Player, Position, MAX_BUTTONS};

/// A child of a position, with what move ordering and the table look-ahead need.
#[derive(Clone, Copy)]
pub(super) struct Child {
    pub(super) mv: usize,
    pub(super) position: Position,
    /// The child's transposition key, or 0 when it will not probe the table (no
    /// position's key is 0: a key holds the number of buttons) or was not keyed.
    pub(super) key: u128,
    /// Its place within its group of [`Children`]: the lower, the sooner searched.
    pub(super) rank: u32,
}

/// The children in search order: the stored best move, then the others in the order
/// of [`Children::fill`].
pub(super) fn ordered_children(position: &Position, hint: Option<u8>, reverse: bool) -> Vec<Child> {
    let legal = position.legal_move_mask();
    let hinted = hinted_move(position, hint).filter(|&mv| legal >> mv & 1 == 1);
    let mut out = Vec::with_capacity(MAX_BUTTONS);
    if let Some(mv) = hinted {
        out.push(Child {
            mv,
            position: position.play_unchecked(mv).position,
            key: 0,
            rank: 0,
        });
    }
    let mut children = Children::new();
    children.fill(
        Portable,
        position,
        legal,
        legal & !hinted.map_or(0, |mv| 1u64 << mv),
        reverse,
    );
    out.extend(children.iter().copied());
    out
}

/// The move a stored hint names in `position` (it may not be legal there: a different
/// position can share the slot only if the keys are equal, so it is, but check anyway).
#[inline(always)]
pub(super) fn hinted_move(position: &Position, hint: Option<u8>) -> Option<usize> {
    hint.map(usize::from)
        .filter(|&best| best < position.pile_count())
}

/// Children in search order, in one array made in place by the node that searches
/// them: those that earn an extra move from the front, the others from the back, each
/// group kept sorted by rank as they come. The slots between the two groups are never
/// written, nor read: a node does not pay for initialising the 32 slots it may need
/// (returning or zeroing a kilobyte a node was 7% of a solve's profile).
pub(super) struct Children {
    children: [MaybeUninit<Child>; MAX_BUTTONS],
    /// `children[..extra]` earn an extra move, in order, and are initialised.
    extra: usize,
    /// `children[rest..]` do not, in reverse order, and are initialised.
    rest: usize,
}

impl Children {
    /// No children yet.
    #[inline(always)]
    pub(super) fn new() -> Children {
        Children {
            children: [const { MaybeUninit::uninit() }; MAX_BUTTONS],
            extra: 0,
            rest: MAX_BUTTONS,
        }
    }

    /// The children in search order.
    #[inline(always)]
    pub(super) fn iter(&self) -> impl Iterator<Item = &Child> {
        // SAFETY: `push` initialised exactly the slots `..extra` and `rest..`, and no
        // slot outside them is read (`extra <= rest` always: at most `MAX_BUTTONS`
        // children are pushed, one per pile).
        let (front, back) = unsafe {
            (
                slice_assume_init(&self.children[..self.extra]),
                slice_assume_init(&self.children[self.rest..]),
            )
        };
        front.iter().chain(back.iter().rev())
    }

    /// The children in search order, to fill in their keys.
    #[inline(always)]
    pub(super) fn iter_mut(&mut self) -> impl Iterator<Item = &mut Child> {
        let (front, back) = self.children.split_at_mut(self.rest);
        // SAFETY: as in `iter`; the two slices do not overlap (`extra <= rest`).
        let (front, back) = unsafe {
            (
                slice_assume_init_mut(&mut front[..self.extra]),
                slice_assume_init_mut(back),
            )
        };
        front.iter_mut().chain(back.iter_mut().rev())
    }

    /// Adds `child` to its group, after every child of a lower or equal rank (an
    /// insertion sort as they come: a group holds a few children).
    #[inline(always)]
    fn push(&mut self, child: Child, extra_move: bool) {
        // At most one child a pile and at most `MAX_BUTTONS` piles, so the two groups
        // never meet; the indexing would panic (not write out of bounds) if they did.
        if extra_move {
            let mut at = self.extra;
            // SAFETY: the slots `..extra` are initialised (see `iter`).
            while at > 0 && unsafe { self.children[at - 1].assume_init_ref() }.rank > child.rank {
                self.children[at] = self.children[at - 1];
                at -= 1;
            }
            self.children[at].write(child);
            self.extra += 1;
        } else {
            // This group is searched from its last slot down.
            self.rest -= 1;
            let mut at = self.rest;
            // SAFETY: the slots `rest + 1..` are initialised (see `iter`).
            while at + 1 < MAX_BUTTONS
                && unsafe { self.children[at + 1].assume_init_ref() }.rank > child.rank
            {
                self.children[at] = self.children[at + 1];
                at += 1;
            }
            self.children[at].write(child);
        }
    }

    /// Puts the children in the order of the network's estimate for `side` (the player
    /// to move in their parent), best first, ties in their order before; every child
    /// then counts as the first group's.
    #[inline(never)]
    pub(super) fn sort_by_net(&mut self, side: Player) {
        let mut scored = [(0f32, 0u8); MAX_BUTTONS];
        let mut all = [const { MaybeUninit::<Child>::uninit() }; MAX_BUTTONS];
        let mut count = 0;
        for child in self.iter() {
            let value = net_value(&child.position);
            let score = if child.position.to_move() == side {
                value
            } else {
                -value
            };
            scored[count] = (score, count as u8);
            all[count].write(*child);
            count += 1;
        }
        scored[..count].sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        for (slot, &(_, i)) in scored[..count].iter().enumerate() {
            self.children[slot] = all[usize::from(i)];
        }
        self.extra = count;
        self.rest = MAX_BUTTONS;
    }

    /// Makes the children of the moves in `moves` (of `legal`, the legal moves of
    /// `position`), in search order:
    /// - those that earn an extra move first, those that give the liftable piles most
    ///   (see [`woken`]) before the others: the mover's own next choice is widest;
    /// - then the others, those that give the fewest first: the opponent's choice is
    ///   narrowest, which leaves the smallest trees and is often the best move;
    /// - within that, the smallest pile lifted first, then clockwise (counter-clockwise
    ///   with `reverse`).
    ///
    /// On the exact solves of 120 positions of 21 to 23 piles (8 of each colour), one
    /// thread, this visits 184 M positions where extra moves first, then clockwise
    /// visited 440 M (docs/performance.md, "The search").
    /// One walk over the piles' bottoms finds every lifted pile's buttons (no search
    /// for the `p`-th pile a move).
    #[inline(always)]
    pub(super) fn fill<O: WordOps>(
        &mut self,
        ops: O,
        position: &Position,
        legal: u64,
        moves: u64,
        reverse: bool,
    ) {
        let (_, bottoms, len, _) = position.raw();
        let whites = position.white_buttons_with(ops);
        let others = position.pile_count() as u32 - 1;
        let stuck = !legal & low64(u64::MAX, others + 1);
        let waking = Waking {
            stuck,
            whites,
            others,
        };
        if reverse {
            let (mut rest, mut end, mut pile) = (bottoms, len, position.pile_count());
            while rest != 0 {
                let start = 63 - rest.leading_zeros();
                rest &= !(1u64 << start);
                pile -= 1;
                self.add(ops, position, waking, moves, pile, start, end);
                end = start;
            }
        } else {
            for (pile, (start, end)) in position.pile_spans().enumerate() {
                self.add(ops, position, waking, moves, pile, start, end);
            }
        }
    }

    /// Makes the child of lifting pile `mv` (buttons `start..end`) and adds it in
    /// order, if `mv` is one of `moves`. A method, not a closure of `fill`: a closure was compiled as a function
    /// of its own, for the baseline instruction set whichever copy of the recursion
    /// called it (kernel.rs), with a software popcount; inlined, it is the copy's.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn add<O: WordOps>(
        &mut self,
        ops: O,
        position: &Position,
        waking: Waking,
        moves: u64,
        mv: usize,
        start: u32,
        end: u32,
    ) {
        if moves >> mv & 1 == 0 {
            return;
        }
        let outcome = position.sow_with(ops, start, end);
        let woken = woken(waking, mv as u32, start, end);
        let most_first = if outcome.extra_move {
            MAX_RANK - woken
        } else {
            woken
        };
        let child = Child {
            mv,
            position: outcome.position,
            key: 0,
            rank: most_first * 64 + (end - start),
        };
        self.push(child, outcome.extra_move);
    }
}

/// What [`woken`] needs of a position: a mask of its stuck piles (those no move may
/// lift: without a white button), its white buttons, and its number of piles less one.
#[derive(Clone, Copy)]
struct Waking {
    stuck: u64,
    whites: u64,
    others: u32,
}

/// Above any number of piles a move can wake.
const MAX_RANK: u32 = MAX_BUTTONS as u32;

/// How many stuck piles of a position (see [`Waking`]) the move lifting pile `mv`
/// (buttons `start..end`) drops a white button on: the piles that it makes liftable.
/// No pile stops being liftable but the one lifted, which goes, so the next
/// position's legal moves are the position's, less one, plus these.
#[inline(always)]
fn woken(waking: Waking, mv: u32, start: u32, end: u32) -> u32 {
    let Waking {
        stuck,
        whites,
        others,
    } = waking;
    let lifted = end - start;
    let lifted_whites = low64(whites >> start, lifted);
    // Bit `j`: the `j`-th pile after the lifted one, clockwise, is stuck.
    let receivers = low64((stuck >> (mv + 1)) | shl64(stuck, others - mv), others);
    // Bit `j`: a white button lands on the `j`-th pile after (rule 3: with an overflow
    // the last of the other piles takes every button beyond the others).
    let dropped = if lifted <= others {
        lifted_whites
    } else {
        let singles = others - 1;
        low64(lifted_whites, singles) | u64::from(lifted_whites >> singles != 0) << singles
    };
    (dropped & receivers).count_ones()
}

/// # Safety
/// Every element of `slots` is initialised.
#[inline(always)]
unsafe fn slice_assume_init<T>(slots: &[MaybeUninit<T>]) -> &[T] {
    // SAFETY: `MaybeUninit<T>` has the layout of `T`, and the caller promises that
    // every element is initialised.
    unsafe { &*(slots as *const [MaybeUninit<T>] as *const [T]) }
}

/// # Safety
/// Every element of `slots` is initialised.
#[inline(always)]
unsafe fn slice_assume_init_mut<T>(slots: &mut [MaybeUninit<T>]) -> &mut [T] {
    // SAFETY: as in `slice_assume_init`; the borrow is unique.
    unsafe { &mut *(slots as *mut [MaybeUninit<T>] as *mut [T]) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The order `fill`'s doc says, move by move, from the positions before and after
    /// each move (the piles woken: the legal moves after, less those before but the
    /// one played): the yardstick of `fill`.
    fn expected(position: &Position, reverse: bool) -> Vec<(usize, Position)> {
        let mut moves: Vec<usize> = position.legal_moves().collect();
        if reverse {
            moves.reverse();
        }
        let before = position.legal_moves().count();
        let mut outcomes: Vec<_> = moves
            .iter()
            .map(|&mv| {
                let outcome = position.play_unchecked(mv);
                let woken = (outcome.position.legal_moves().count() + 1).saturating_sub(before);
                let lifted = position.pile(mv).count();
                (mv, outcome, woken, lifted)
            })
            .collect();
        // Stable: equal ranks keep the order of `moves`.
        outcomes.sort_by_key(|&(_, o, woken, lifted)| {
            let most_first = if o.extra_move {
                -(woken as i64)
            } else {
                woken as i64
            };
            (!o.extra_move, most_first, lifted)
        });
        outcomes
            .iter()
            .map(|&(mv, o, _, _)| (mv, o.position))
            .collect()
    }

    #[test]
    fn children_come_extra_moves_first_each_group_by_piles_woken_then_size() {
        crate::sim::playout::each_random_battle(11, [1, 2, 5, 10], 100, |p, mv| {
            let Some(mv) = mv else { return };
            for reverse in [false, true] {
                let mut children = Children::new();
                children.fill(
                    Portable,
                    p,
                    p.legal_move_mask(),
                    p.legal_move_mask(),
                    reverse,
                );
                let made: Vec<_> = children.iter().map(|c| (c.mv, c.position)).collect();
                assert_eq!(made, expected(p, reverse), "{p:?}");
            }
            // A mask without one legal move leaves out just its child.
            let mut children = Children::new();
            children.fill(
                Portable,
                p,
                p.legal_move_mask(),
                p.legal_move_mask() & !(1 << mv),
                false,
            );
            assert!(children.iter().all(|c| c.mv != mv));
            assert_eq!(children.iter().count(), p.legal_moves().count() - 1);
        });
    }
}

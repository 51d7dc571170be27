//! Move ordering: the stored best move first, then the moves that earn an extra move,
//! then the rest, each group clockwise (counter-clockwise for a helper thread, so that
//! two threads sharing a table explore different moves first).

use std::mem::MaybeUninit;

use crate::game::rules::{Position, MAX_BUTTONS};

/// A child of a position, with what move ordering and the table look-ahead need.
#[derive(Clone, Copy)]
pub(super) struct Child {
    pub(super) mv: usize,
    pub(super) position: Position,
    /// The child's transposition key, or 0 when it will not probe the table (no
    /// position's key is 0: a key holds the number of buttons) or was not keyed.
    pub(super) key: u128,
    /// The first pile of the child's keyed rotation (with `key`).
    pub(super) first: usize,
}

/// The children in search order: the stored best move, then moves that earn an extra
/// move, then the rest clockwise (counter-clockwise with `reverse`).
pub(super) fn ordered_children(
    position: &Position,
    hint: Option<(u8, usize)>,
    reverse: bool,
) -> Vec<Child> {
    let legal = position.legal_move_mask();
    let hinted = hinted_move(position, hint).filter(|&mv| legal >> mv & 1 == 1);
    let mut out = Vec::with_capacity(MAX_BUTTONS);
    if let Some(mv) = hinted {
        out.push(Child {
            mv,
            position: position.play_unchecked(mv).position,
            key: 0,
            first: 0,
        });
    }
    let mut children = Children::new();
    children.fill(
        position,
        legal & !hinted.map_or(0, |mv| 1u64 << mv),
        reverse,
    );
    out.extend(children.iter().copied());
    out
}

/// The move a stored hint names in `position` (it may not be legal there: a different
/// position can share the slot only if the keys are equal, so it is, but check anyway).
#[inline(always)]
pub(super) fn hinted_move(position: &Position, hint: Option<(u8, usize)>) -> Option<usize> {
    let piles = position.pile_count();
    hint.filter(|&(best, _)| usize::from(best) < piles)
        .map(|(best, first)| (usize::from(best) + first) % piles)
}

/// Children in search order, in one array made in place by the node that searches
/// them: those that earn an extra move from the front, the others from the back (so
/// neither group is moved once made). The slots between the two groups are never
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

    #[inline(always)]
    fn push(&mut self, child: Child, extra_move: bool) {
        // At most one child a pile and at most `MAX_BUTTONS` piles, so the two groups
        // never meet; the indexing would panic (not write out of bounds) if they did.
        if extra_move {
            self.children[self.extra].write(child);
            self.extra += 1;
        } else {
            self.rest -= 1;
            self.children[self.rest].write(child);
        }
    }

    /// Makes the children of the moves in `moves` (a mask of legal moves of
    /// `position`), those that earn an extra move first, each group clockwise
    /// (counter-clockwise with `reverse`). One walk over the piles' bottoms finds every
    /// lifted pile's buttons (no search for the `p`-th pile a move).
    #[inline(always)]
    pub(super) fn fill(&mut self, position: &Position, moves: u64, reverse: bool) {
        let (_, bottoms, len, _) = position.raw();
        let mut add = |mv: usize, start: u32, end: u32| {
            if moves >> mv & 1 == 1 {
                let outcome = position.sow(start, end);
                let child = Child {
                    mv,
                    position: outcome.position,
                    key: 0,
                    first: 0,
                };
                self.push(child, outcome.extra_move);
            }
        };
        if reverse {
            let (mut rest, mut end, mut pile) = (bottoms, len, position.pile_count());
            while rest != 0 {
                let start = 63 - rest.leading_zeros();
                rest &= !(1u64 << start);
                pile -= 1;
                add(pile, start, end);
                end = start;
            }
        } else {
            for (pile, (start, end)) in position.pile_spans().enumerate() {
                add(pile, start, end);
            }
        }
    }
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

    /// The order the module's doc says, move by move: the yardstick of `fill`.
    fn expected(position: &Position, reverse: bool) -> Vec<(usize, Position)> {
        let mut moves: Vec<usize> = position.legal_moves().collect();
        if reverse {
            moves.reverse();
        }
        let outcomes: Vec<_> = moves
            .iter()
            .map(|&mv| (mv, position.play_unchecked(mv)))
            .collect();
        let extra = outcomes.iter().filter(|(_, o)| o.extra_move);
        let rest = outcomes.iter().filter(|(_, o)| !o.extra_move);
        extra.chain(rest).map(|&(mv, o)| (mv, o.position)).collect()
    }

    #[test]
    fn children_come_extra_moves_first_each_group_in_pile_order() {
        crate::sim::playout::each_random_battle(11, [1, 2, 5, 10], 100, |p, mv| {
            let Some(mv) = mv else { return };
            for reverse in [false, true] {
                let mut children = Children::new();
                children.fill(p, p.legal_move_mask(), reverse);
                let made: Vec<_> = children.iter().map(|c| (c.mv, c.position)).collect();
                assert_eq!(made, expected(p, reverse), "{p:?}");
            }
            // A mask without one legal move leaves out just its child.
            let mut children = Children::new();
            children.fill(p, p.legal_move_mask() & !(1 << mv), false);
            assert!(children.iter().all(|c| c.mv != mv));
            assert_eq!(children.iter().count(), p.legal_moves().count() - 1);
        });
    }
}

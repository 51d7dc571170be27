//! Move ordering: the stored best move first, then the moves that earn an extra move,
//! then the rest, each group clockwise (counter-clockwise for a helper thread, so that
//! two threads sharing a table explore different moves first).

use crate::game::rules::{Position, MAX_BUTTONS};

/// A child of a position, with what move ordering needs.
#[derive(Clone, Copy)]
pub(super) struct Child {
    pub(super) mv: usize,
    pub(super) position: Position,
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
        });
    }
    let children = children_by_order(
        position,
        legal & !hinted.map_or(0, |mv| 1u64 << mv),
        reverse,
    );
    out.extend(children.iter().copied());
    out
}

/// The move a stored hint names in `position` (it may not be legal there: a different
/// position can share the slot only if the keys are equal, so it is, but check anyway).
#[inline]
pub(super) fn hinted_move(position: &Position, hint: Option<(u8, usize)>) -> Option<usize> {
    let piles = position.pile_count();
    hint.filter(|&(best, _)| usize::from(best) < piles)
        .map(|(best, first)| (usize::from(best) + first) % piles)
}

/// Children in search order, in one array: those that earn an extra move from the
/// front, the others from the back (so neither group is moved once made).
pub(super) struct Children {
    children: [Child; MAX_BUTTONS],
    /// `children[..extra]` earn an extra move, in order.
    extra: usize,
    /// `children[rest..]` do not, in reverse order.
    rest: usize,
}

impl Children {
    /// The children in search order.
    #[inline]
    pub(super) fn iter(&self) -> impl Iterator<Item = &Child> {
        self.children[..self.extra]
            .iter()
            .chain(self.children[self.rest..].iter().rev())
    }
}

/// The children of the moves in `moves` (a mask of legal moves), those that earn an
/// extra move first, each group clockwise (counter-clockwise with `reverse`).
#[inline]
pub(super) fn children_by_order(position: &Position, mut moves: u64, reverse: bool) -> Children {
    const NONE: Child = Child {
        mv: 0,
        position: Position::lone_white(),
    };
    let mut out = Children {
        children: [NONE; MAX_BUTTONS],
        extra: 0,
        rest: MAX_BUTTONS,
    };
    while moves != 0 {
        let mv = if reverse {
            63 - moves.leading_zeros() as usize
        } else {
            moves.trailing_zeros() as usize
        };
        moves &= !(1u64 << mv);
        let outcome = position.play_unchecked(mv);
        let child = Child {
            mv,
            position: outcome.position,
        };
        if outcome.extra_move {
            out.children[out.extra] = child;
            out.extra += 1;
        } else {
            out.rest -= 1;
            out.children[out.rest] = child;
        }
    }
    out
}

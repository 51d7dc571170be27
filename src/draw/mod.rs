//! Pictures of the game: SVG text of a position and of a final tower, one drawing for
//! Python (`buttonup.svg`, `_repr_svg_`), the web page and the WebAssembly build.
//!
//! ```
//! use buttonup::draw::{svg, walk, DrawOptions};
//! use buttonup::game::notation;
//! let start = notation::parse("W/R/B/W/B/R/R/W/B r").unwrap();
//! // Where the piles stand after two moves, with the last move marked.
//! let board = walk(&start, &[3, 0]).unwrap();
//! assert_eq!(board.slots, [1, 2, 4, 5, 6, 7, 8]);
//! let picture = svg::position(&board.position, &board.options()).unwrap();
//! assert!(picture.starts_with("<svg") && picture.contains(r#"data-slot="4""#));
//! ```
//!
//! # The look
//! The round battle field seen from above, its slots clockwise from the top (slot `k`
//! of `n` at `360° k / n`). Each pile stands at its slot as a column of buttons from the
//! rim toward the centre, bottom button outermost, a thread through the holes showing
//! the order; a pile too tall for one column bends back beside it, and the buttons of
//! the whole picture shrink until every pile fits (see [`layout`]), so that no pile is
//! ever clipped and no two buttons overlap. Liftable piles (the core's
//! [`Position::legal_move_mask`]) stand on a golden pad; the centre says who moves.
//!
//! # Stable slots
//! The notation renumbers the piles after a lift (the piles after the lifted one move
//! down by one, `docs/notation.md`); a picture places pile `i` at slot `slots[i]` of a
//! circle of `slot_count` slots instead, so that a pile stays where it was across
//! moves. [`walk`] computes the slots (and the last move) from a battle's start and its
//! moves: a lift removes the lifted pile's slot from the list.
//!
//! # Elements and attributes (stable: the page and the tests rely on them)
//! - The root `<svg class="buttonup-board">` has `viewBox="0 0 400 400"`, `width` and
//!   `height` = `size` (none without a size), `role="img"`, `aria-label` (the position in notation and who
//!   moves), `data-position` (the notation) and `data-slot-count`; its first child is a
//!   `<title>` with the same words.
//! - `<circle class="field">`: the battle field (centre 200, 200, radius 176).
//! - `<circle class="slot" data-slot="k">`: a small mark at every empty slot.
//! - `<g class="pile ...">` per pile, in pile order, its classes among `liftable`
//!   (may be lifted now), `highlight` (in `highlight`) and `dropped` (received a button
//!   in the last move); attributes `data-pile` (its number in the notation), `data-slot`,
//!   `data-buttons` (its letters bottom first), `data-liftable` (`true`/`false`),
//!   `data-x`/`data-y` (the rim point of its slot), `role="group"`, `aria-label` and a
//!   `<title>` naming its buttons. Inside it: `<rect class="pad">` (the pile's area,
//!   a click target), `<polyline class="thread">`, the buttons, and with `labels` a
//!   `<text class="label">` with the pile number outside the field.
//! - `<g class="button ...">` per button, classes among `top` (the top button of its
//!   pile) and `dropped` (it landed there in the last move); attributes `data-pile`,
//!   `data-level` (0 for the bottom button), `data-colour` (`R`, `B`, `W`); its first
//!   child is `<circle class="face">` whose `cx`, `cy`, `r` plus half its
//!   `stroke-width` is the button's whole painted disc.
//! - `<g class="lifted" data-slot="k">`: where the last move's pile stood, with
//!   `<path class="sowing">` (and its head `sowing-head`), an arc outside the field
//!   clockwise from that slot to the last pile that received a button.
//! - `<text class="to-move">` in the centre.
//!
//! Colours, strokes and fonts are presentation attributes, so a page's CSS overrides
//! them (a dark theme: `.buttonup-board .field { fill: ... }`); no element has an `id`,
//! so any number of pictures can share a page. The root's `role="img"` suits a
//! picture; a page that makes the piles interactive gives the root `role="group"` and
//! the piles `tabindex` and `role="button"`.
//!
//! A tower picture ([`svg::tower`]) is an `<svg class="buttonup-tower">` with one
//! `<g class="button" data-strength="s" data-colour="C">` per button, strength 1 at
//! the bottom, and `<text class="sum" data-player="red|black">` per player.

mod button;
mod html;
pub mod layout;
pub mod svg;
mod tower;
mod walk;

use std::fmt;

use crate::game::rules::Position;
pub use html::match_html;
pub use walk::{match_board, walk, Board};

/// The most slots a circle may have (twice the buttons a position holds).
pub const MAX_SLOTS: usize = 64;

/// The last move, as a picture shows it.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct LastMove {
    /// The slot where the lifted pile stood.
    pub slot: usize,
    /// The pile, numbered as in the position drawn, that received each lifted button,
    /// bottom button first; with an overflow the last pile repeats. Each receiving
    /// pile's top buttons, as many as it is named here, are the dropped ones.
    pub drops: Vec<usize>,
}

/// What a picture of a position shows besides the position.
#[derive(Clone, PartialEq, Debug)]
pub struct DrawOptions {
    /// The `width` and `height` of the picture, in CSS pixels; `None` leaves them out,
    /// and the picture fills the width of its container (a page's responsive board).
    pub size: Option<f64>,
    /// Piles to highlight (a hint, a selection), by their number in the notation.
    pub highlight: Vec<usize>,
    /// The move that led here, to mark.
    pub last_move: Option<LastMove>,
    /// The slot of each pile (strictly increasing); `None`: pile `i` at slot `i` of a
    /// circle of as many slots as piles.
    pub slots: Option<Vec<usize>>,
    /// The slots of the circle; `None`: the number of buttons (a battle starts with one
    /// button a pile) when `slots` are given, else the number of piles.
    pub slot_count: Option<usize>,
    /// Whether to write each pile's number outside the field.
    pub labels: bool,
    /// The largest button radius, in `viewBox` units (`None`: [`layout::MAX_RADIUS`]);
    /// a [`Board`] passes the smallest its battle has needed so far, so that the buttons
    /// keep one size instead of growing and shrinking from move to move.
    pub max_radius: Option<f64>,
}

impl Default for DrawOptions {
    fn default() -> Self {
        DrawOptions {
            size: Some(360.0),
            highlight: Vec::new(),
            last_move: None,
            slots: None,
            slot_count: None,
            labels: true,
            max_radius: None,
        }
    }
}

/// Why a picture cannot be drawn as asked.
#[derive(Clone, PartialEq, Debug)]
pub enum DrawError {
    /// `size` is not a number from 1 to 10,000.
    BadSize(f64),
    /// `max_radius` is not a positive number.
    BadRadius(f64),
    /// `slots` does not have one slot a pile.
    SlotCount {
        /// The slots given.
        slots: usize,
        /// The piles of the position.
        piles: usize,
    },
    /// `slots` is not strictly increasing.
    SlotOrder,
    /// A slot outside the circle.
    SlotOutside {
        /// The slot.
        slot: usize,
        /// The slots of the circle.
        slot_count: usize,
    },
    /// A pile named in `highlight` or in the last move's drops that the position lacks.
    NoSuchPile {
        /// What named it: `"highlight"` or `"drops"`.
        what: &'static str,
        /// The pile.
        pile: usize,
        /// The piles of the position.
        piles: usize,
    },
    /// The last move's slot holds a pile of the position drawn.
    LiftedSlotTaken(usize),
    /// A tower is drawn only of a finished battle (the words of scoring's refusal).
    NotOver,
    /// A circle of more than [`MAX_SLOTS`] slots.
    TooManySlots(usize),
}

impl crate::HasKind for DrawError {
    fn kind(&self) -> crate::ErrorKind {
        match self {
            DrawError::NotOver => crate::ErrorKind::BattleNotOver,
            _ => crate::ErrorKind::InvalidArgument,
        }
    }
}

impl fmt::Display for DrawError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DrawError::BadSize(size) => {
                write!(f, "size must be a number from 1 to 10000, not {size}")
            }
            DrawError::BadRadius(radius) => {
                write!(f, "max_radius must be a positive number, not {radius}")
            }
            DrawError::SlotCount { slots, piles } => write!(
                f,
                "slots must name one slot for each of the {piles} piles, not {slots}"
            ),
            DrawError::SlotOrder => write!(f, "slots must be strictly increasing"),
            DrawError::SlotOutside { slot, slot_count } => {
                write!(f, "slot {slot} is outside a circle of {slot_count} slots")
            }
            DrawError::NoSuchPile { what, pile, piles } => write!(
                f,
                "{what} names pile {pile}, but the position has {piles} piles (0 to {})",
                piles - 1
            ),
            DrawError::LiftedSlotTaken(slot) => write!(
                f,
                "the last move's slot {slot} holds a pile of the position drawn"
            ),
            DrawError::NotOver => f.write_str(crate::game::error_kind::BATTLE_NOT_OVER),
            DrawError::TooManySlots(count) => {
                write!(f, "slot_count must be at most {MAX_SLOTS}, not {count}")
            }
        }
    }
}

impl std::error::Error for DrawError {}

/// A picture's size, checked: 1 to 10 000.
pub(crate) fn check_size(size: f64) -> Result<(), DrawError> {
    if (1.0..=10_000.0).contains(&size) {
        Ok(())
    } else {
        Err(DrawError::BadSize(size))
    }
}

/// The slots of each pile and of the circle, checked.
pub(crate) fn checked_slots(
    position: &Position,
    options: &DrawOptions,
) -> Result<(Vec<usize>, usize), DrawError> {
    if let Some(radius) = options.max_radius {
        if !(radius > 0.0 && radius.is_finite()) {
            return Err(DrawError::BadRadius(radius));
        }
    }
    let piles = position.pile_count();
    let (slots, slot_count) = match &options.slots {
        None => ((0..piles).collect(), options.slot_count.unwrap_or(piles)),
        Some(slots) => (
            slots.clone(),
            options.slot_count.unwrap_or(position.button_count()),
        ),
    };
    if slot_count > MAX_SLOTS {
        return Err(DrawError::TooManySlots(slot_count));
    }
    if slots.len() != piles {
        return Err(DrawError::SlotCount {
            slots: slots.len(),
            piles,
        });
    }
    if slots.windows(2).any(|pair| pair[0] >= pair[1]) {
        return Err(DrawError::SlotOrder);
    }
    if let Some(&slot) = slots.iter().find(|&&slot| slot >= slot_count) {
        return Err(DrawError::SlotOutside { slot, slot_count });
    }
    let named =
        |what, pile: usize| (pile >= piles).then_some(DrawError::NoSuchPile { what, pile, piles });
    let mut highlight = options
        .highlight
        .iter()
        .filter_map(|&p| named("highlight", p));
    if let Some(error) = highlight.next() {
        return Err(error);
    }
    if let Some(last) = &options.last_move {
        if let Some(error) = last.drops.iter().filter_map(|&p| named("drops", p)).next() {
            return Err(error);
        }
        if last.slot >= slot_count {
            return Err(DrawError::SlotOutside {
                slot: last.slot,
                slot_count,
            });
        }
        if slots.contains(&last.slot) {
            return Err(DrawError::LiftedSlotTaken(last.slot));
        }
    }
    Ok((slots, slot_count))
}

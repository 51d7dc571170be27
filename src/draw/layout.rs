//! Where everything goes on the battle field: the slots of the circle, the wedge each
//! pile may fill, and the centre of every button. Pure geometry in the units of the
//! picture's `viewBox` (a square of side [`VIEW`]); no SVG and no rule of the game.
//!
//! Slot `k` of `n` lies at the angle `-90° + 360° k / n` (slot 0 at the top, the slots
//! following clockwise, as the piles do). A pile fills a wedge centred on its slot,
//! half as wide as the gap to its nearest occupied neighbour, so that no two wedges
//! meet; inside it the buttons stand in a column from the rim toward the centre, bottom
//! button outermost, and a pile too tall for one column turns back in a second column
//! beside it, and so on (a serpentine). All buttons of a picture share one radius: the
//! largest (up to [`MAX_RADIUS`]) at which every pile fits.

use std::f64::consts::PI;

/// The side of the square `viewBox` of a position's picture.
pub const VIEW: f64 = 400.0;
/// The centre of the battle field (both coordinates).
pub const CENTRE: f64 = VIEW / 2.0;
/// The radius of the battle field's cloth.
pub const FIELD_RADIUS: f64 = 176.0;
/// No button reaches farther from the centre than this.
pub const OUTER: f64 = 170.0;
/// No button comes nearer the centre than this (the centre shows who moves).
pub const INNER: f64 = 34.0;
/// The largest button radius.
pub const MAX_RADIUS: f64 = 20.0;
/// Space kept around every button, as a fraction of its radius: two button centres are
/// at least `2 r (1 + GAP)` apart, more than `2 r √2`, so that not only the buttons but
/// also their bounding boxes (the squares a browser reports) never overlap, whatever
/// the direction from one to the other.
pub const GAP: f64 = 0.45;
/// The widest half-angle of a wedge (one or two piles left): a wedge must stay a wedge.
const MAX_HALF_ANGLE: f64 = 1.25;
/// The smallest radius tried; every pile of a position fits at it.
const MIN_RADIUS: f64 = 0.4;
/// The buttons of a column in a pile's natural shape.
pub const ROWS: usize = 3;
/// The smallest radius at which piles keep their natural shape.
pub const SHAPED_RADIUS: f64 = 9.0;

/// A point of the picture.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Point {
    /// Rightward, from the left edge.
    pub x: f64,
    /// Downward, from the top edge.
    pub y: f64,
}

/// Where one pile goes.
#[derive(Clone, PartialEq, Debug)]
pub struct PileLayout {
    /// Its slot on the circle.
    pub slot: usize,
    /// The slot's direction in degrees, clockwise from the top (0 for slot 0).
    pub bearing: f64,
    /// The point of the rim at its slot (the same for a slot whatever the pile).
    pub anchor: Point,
    /// The half-angle of its wedge, in radians.
    pub half_angle: f64,
    /// The number of columns its buttons fill.
    pub columns: usize,
    /// The distance from the centre of its outermost and innermost rows of buttons.
    pub rows_span: (f64, f64),
    /// The largest sideways offset of a button centre from the slot's axis.
    pub width: f64,
    /// The centre of each button, bottom button first.
    pub buttons: Vec<Point>,
}

/// Where every pile goes: the shared button radius and each pile's layout.
#[derive(Clone, PartialEq, Debug)]
pub struct Layout {
    /// The radius of every button.
    pub radius: f64,
    /// The number of slots of the circle.
    pub slot_count: usize,
    /// One layout a pile, in the order of the piles.
    pub piles: Vec<PileLayout>,
}

/// The bearing in degrees (clockwise from the top) of slot `slot` of `slot_count`.
pub fn bearing(slot: usize, slot_count: usize) -> f64 {
    360.0 * slot as f64 / slot_count.max(1) as f64
}

/// The point at `distance` from the centre in the direction `bearing` (degrees,
/// clockwise from the top), moved `offset` sideways (clockwise positive).
pub fn polar(bearing: f64, distance: f64, offset: f64) -> Point {
    let angle = (bearing - 90.0).to_radians();
    let (sin, cos) = angle.sin_cos();
    Point {
        x: CENTRE + distance * cos - offset * sin,
        y: CENTRE + distance * sin + offset * cos,
    }
}

/// Lays out piles of the given heights at the given slots (strictly increasing, each
/// below `slot_count`; the caller checks them).
///
/// First every pile is tried in its natural shape, columns of [`ROWS`] buttons, at the
/// largest radius down to [`SHAPED_RADIUS`]; failing that, in any number of columns at
/// the largest radius that fits them all.
pub fn layout(heights: &[usize], slots: &[usize], slot_count: usize) -> Layout {
    layout_within(heights, slots, slot_count, MAX_RADIUS)
}

/// [`layout`] with buttons no larger than `max_radius` (clamped to the radii tried; NaN
/// counts as no limit), so that a battle's pictures can keep one button size as piles
/// grow.
pub fn layout_within(
    heights: &[usize],
    slots: &[usize],
    slot_count: usize,
    max_radius: f64,
) -> Layout {
    let largest = if max_radius.is_nan() {
        MAX_RADIUS
    } else {
        max_radius.clamp(MIN_RADIUS, MAX_RADIUS)
    };
    let halves = half_angles(slots, slot_count);
    // The shape of each pile with buttons of this radius.
    let shapes = |radius: f64| {
        heights
            .iter()
            .zip(slots)
            .zip(&halves)
            .map(move |((&height, &slot), &half)| Shape {
                height,
                slot,
                slot_count,
                half,
                radius,
            })
    };
    let attempt = |radius: f64, shaped: bool| -> Option<Vec<PileLayout>> {
        shapes(radius)
            .map(|shape| {
                if shaped {
                    let pile = shape.columns(shape.height.div_ceil(ROWS).max(1));
                    fits(&pile, radius).then_some(pile)
                } else {
                    shape.fewest_columns()
                }
            })
            .collect()
    };
    for (shaped, floor) in [(true, SHAPED_RADIUS), (false, MIN_RADIUS)] {
        let mut radius = largest;
        loop {
            if let Some(piles) = attempt(radius, shaped) {
                return Layout {
                    radius,
                    slot_count,
                    piles,
                };
            }
            if radius <= floor {
                break;
            }
            radius = (radius * 0.97).max(floor);
        }
    }
    // Unreachable for positions of up to 32 buttons (a test tries the worst cases); a
    // picture with overlapping buttons beats no picture.
    let piles = shapes(MIN_RADIUS).map(|shape| shape.columns(1)).collect();
    Layout {
        radius: MIN_RADIUS,
        slot_count,
        piles,
    }
}

/// The half-angle of each pile's wedge: half the angle to its nearest occupied slot.
fn half_angles(slots: &[usize], slot_count: usize) -> Vec<f64> {
    let count = slots.len();
    (0..count)
        .map(|i| {
            let gap = |a: usize, b: usize| (b + slot_count - a) % slot_count;
            let (next, prev) = if count == 1 {
                (slot_count, slot_count)
            } else {
                (
                    gap(slots[i], slots[(i + 1) % count]),
                    gap(slots[(i + count - 1) % count], slots[i]),
                )
            };
            let half = next.min(prev) as f64 * PI / slot_count.max(1) as f64;
            half.min(MAX_HALF_ANGLE)
        })
        .collect()
}

/// One pile to lay out: its height, its slot, its wedge and the button radius.
struct Shape {
    height: usize,
    slot: usize,
    slot_count: usize,
    half: f64,
    radius: f64,
}

impl Shape {
    /// Its layout in the fewest columns that fit its wedge, or `None` when no number of
    /// columns does.
    fn fewest_columns(&self) -> Option<PileLayout> {
        (1..=self.height.max(1))
            .map(|columns| self.columns(columns))
            .find(|pile| fits(pile, self.radius))
    }

    /// Its buttons in `columns` serpentine columns on its slot's axis, the outermost
    /// row touching the rim limit.
    fn columns(&self, columns: usize) -> PileLayout {
        column(
            self.height,
            self.slot,
            self.slot_count,
            self.half,
            self.radius,
            columns,
        )
    }
}

/// Whether every button of `pile` keeps clear of its wedge's sides, the centre and the
/// rim (the outermost row is put at the rim by [`column`]).
fn fits(pile: &PileLayout, radius: f64) -> bool {
    let clearance = radius * (1.0 + GAP);
    let (outer, inner) = pile.rows_span;
    let (sin, cos) = pile.half_angle.sin_cos();
    outer > 0.0
        && inner >= INNER + radius
        && inner * sin - pile.width * cos >= clearance
        && (outer * outer + pile.width * pile.width).sqrt() <= OUTER - radius + 1e-9
}

/// Puts `height` buttons in `columns` serpentine columns on slot `slot`'s axis, the
/// outermost row touching the rim limit.
fn column(
    height: usize,
    slot: usize,
    slot_count: usize,
    half: f64,
    radius: f64,
    columns: usize,
) -> PileLayout {
    let pitch = 2.0 * radius * (1.0 + GAP);
    let rows = height.div_ceil(columns).max(1);
    let width = (columns - 1) as f64 / 2.0 * pitch;
    let reach = (OUTER - radius).powi(2) - width * width;
    let outer = if reach > 0.0 { reach.sqrt() } else { 0.0 };
    let inner = outer - (rows - 1) as f64 * pitch;
    let bearing = bearing(slot, slot_count);
    let buttons = (0..height)
        .map(|k| {
            let (col, step) = (k / rows, k % rows);
            let row = if col % 2 == 0 { step } else { rows - 1 - step };
            let offset = col as f64 * pitch - width;
            polar(bearing, outer - row as f64 * pitch, offset)
        })
        .collect();
    PileLayout {
        slot,
        bearing,
        anchor: polar(bearing, FIELD_RADIUS, 0.0),
        half_angle: half,
        columns,
        rows_span: (outer, inner),
        width,
        buttons,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_buttons(layout: &Layout) -> Vec<Point> {
        layout
            .piles
            .iter()
            .flat_map(|p| p.buttons.clone())
            .collect()
    }

    /// Checks what the pictures promise: every button inside the field, none touching
    /// another.
    fn assert_clear(layout: &Layout) {
        let r = layout.radius;
        let buttons = all_buttons(layout);
        for (i, a) in buttons.iter().enumerate() {
            let from_centre = ((a.x - CENTRE).powi(2) + (a.y - CENTRE).powi(2)).sqrt();
            assert!(
                from_centre + r <= OUTER + 1e-6,
                "button {i} leaves the field"
            );
            assert!(
                from_centre - r >= INNER - 1e-6,
                "button {i} covers the centre"
            );
            for b in &buttons[i + 1..] {
                // Their squares apart, and so the buttons too.
                let apart = (a.x - b.x).abs().max((a.y - b.y).abs());
                assert!(
                    apart >= 2.0 * r - 1e-6,
                    "buttons' boxes overlap: {a:?} {b:?}"
                );
            }
        }
    }

    #[test]
    fn nine_singletons_get_the_largest_buttons() {
        let slots: Vec<usize> = (0..9).collect();
        let layout = layout(&[1; 9], &slots, 9);
        assert_eq!(layout.radius, MAX_RADIUS);
        assert_clear(&layout);
        // Slot 0 at the top, on the vertical through the centre.
        let top = layout.piles[0].buttons[0];
        assert!((top.x - CENTRE).abs() < 1e-9 && top.y < CENTRE);
    }

    #[test]
    fn one_pile_of_27_fits_whole() {
        let layout = layout(&[27], &[4], 27);
        assert_eq!(layout.piles[0].buttons.len(), 27);
        assert!(layout.piles[0].columns > 1);
        assert_clear(&layout);
    }

    #[test]
    fn twenty_seven_singletons_and_tall_neighbours_fit() {
        let slots: Vec<usize> = (0..27).collect();
        assert_clear(&layout(&[1; 27], &slots, 27));
        // Tall piles with neighbours close by: the buttons shrink until all fit.
        let heights = [6, 5, 4, 3, 2, 1, 1, 1, 1, 1, 1, 1];
        let slots: Vec<usize> = (0..12).collect();
        let tight = layout(&heights, &slots, 27);
        assert!(tight.radius < MAX_RADIUS);
        assert_clear(&tight);
    }

    #[test]
    fn the_worst_cases_fit_without_the_fallback() {
        // 32 buttons (the most a position holds) in every split of 1 to 4 piles at
        // neighbouring slots of a 32-slot circle.
        for first in 1..=29 {
            for second in 1..=(31 - first) {
                let third = 32 - first - second;
                let heights = [first, second, third];
                let layout = layout(&heights, &[0, 1, 2], 32);
                assert!(layout.radius > MIN_RADIUS, "{heights:?}");
                assert_clear(&layout);
            }
        }
        assert_clear(&layout(&[32], &[0], 32));
    }

    #[test]
    fn a_cap_keeps_buttons_small() {
        let slots: Vec<usize> = (0..9).collect();
        assert_eq!(layout_within(&[1; 9], &slots, 9, 11.0).radius, 11.0);
        assert_eq!(layout_within(&[1; 9], &slots, 9, 99.0).radius, MAX_RADIUS);
        assert_eq!(
            layout_within(&[1; 9], &slots, 9, f64::NAN).radius,
            MAX_RADIUS
        );
        assert_clear(&layout_within(&[27], &[0], 27, 0.0));
    }

    #[test]
    fn a_pile_stays_on_its_slot_axis() {
        let layout = layout(&[1, 4], &[2, 6], 9);
        for pile in &layout.piles {
            let axis = (pile.bearing - 90.0).to_radians();
            let bottom = pile.buttons[0];
            let (dx, dy) = (bottom.x - CENTRE, bottom.y - CENTRE);
            // The bottom button lies on the axis shifted by the pile's half width.
            let sideways = -dx * axis.sin() + dy * axis.cos();
            assert!((sideways + pile.width).abs() < 1e-6);
        }
        assert_eq!(
            layout.piles[1].anchor,
            polar(bearing(6, 9), FIELD_RADIUS, 0.0)
        );
    }

    #[test]
    fn serpentine_order_keeps_neighbours_touching() {
        let layout = layout(&[10], &[0], 9);
        let pile = &layout.piles[0];
        let pitch = 2.0 * layout.radius * (1.0 + GAP);
        for pair in pile.buttons.windows(2) {
            let apart = ((pair[0].x - pair[1].x).powi(2) + (pair[0].y - pair[1].y).powi(2)).sqrt();
            assert!(
                (apart - pitch).abs() < 1e-6,
                "consecutive buttons one pitch apart"
            );
        }
    }
}

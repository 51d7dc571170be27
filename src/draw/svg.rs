//! The SVG text of a position ([`position`]) and of a finished battle's tower
//! ([`tower`]); the elements and their attributes are listed in the [module
//! docs](super).

use std::fmt::Write;

use super::button::{name, num, write_button, INK, LAST_MOVE};
use super::layout::{
    bearing, layout_within, polar, PileLayout, CENTRE, FIELD_RADIUS, INNER, MAX_RADIUS, VIEW,
};
pub use super::tower::tower;
use super::{check_size, checked_slots, DrawError, DrawOptions};
use crate::game::pieces::{Colour, Player};
use crate::game::rules::Position;

/// The accent of highlighted piles.
const HIGHLIGHT: &str = "#2f6fdf";
/// The pad of a liftable pile.
const LIFTABLE_FILL: &str = "#f2c14e";
const LIFTABLE_STROKE: &str = "#b8860b";

/// The SVG text of `position` drawn with `options`, or why the options do not fit it.
pub fn position(position: &Position, options: &DrawOptions) -> Result<String, DrawError> {
    if let Some(size) = options.size {
        check_size(size)?;
    }
    let (slots, slot_count) = checked_slots(position, options)?;
    let piles: Vec<Vec<Colour>> = position.piles().map(Iterator::collect).collect();
    let heights: Vec<usize> = piles.iter().map(Vec::len).collect();
    let largest = options.max_radius.unwrap_or(MAX_RADIUS);
    let layout = layout_within(&heights, &slots, slot_count, largest);
    let liftable = position.legal_move_mask();
    let words = describe(position);

    let mut out = String::with_capacity(4096 + 1200 * position.button_count());
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="buttonup-board" viewBox="0 0 {v} {v}"{dimensions} role="img" aria-label="{words}" data-position="{position}" data-slot-count="{slot_count}"><title>{words}</title>"#,
        v = num(VIEW),
        dimensions = options.size.map_or(String::new(), |size| {
            format!(r#" width="{s}" height="{s}""#, s = num(size))
        }),
    );
    write_field(&mut out);
    for slot in (0..slot_count).filter(|slot| !slots.contains(slot)) {
        let at = polar(bearing(slot, slot_count), FIELD_RADIUS - 14.0, 0.0);
        let _ = write!(
            out,
            r##"<circle class="slot" data-slot="{slot}" cx="{}" cy="{}" r="3" fill="#c9b891"/>"##,
            num(at.x),
            num(at.y)
        );
    }
    if let Some(last) = &options.last_move {
        let at = polar(
            bearing(last.slot, slot_count),
            FIELD_RADIUS - 6.0 - layout.radius,
            0.0,
        );
        let _ = write!(
            out,
            r#"<g class="lifted" data-slot="{}"><title>the last move lifted the pile of this slot</title><circle cx="{}" cy="{}" r="{}" fill="none" stroke="{LAST_MOVE}" stroke-width="2" stroke-dasharray="4 3"/>"#,
            last.slot,
            num(at.x),
            num(at.y),
            num(layout.radius)
        );
        if let Some(&pile) = last.drops.last() {
            write_sowing(&mut out, last.slot, slots[pile], slot_count);
        }
        out.push_str("</g>");
    }
    for (index, (pile, place)) in piles.iter().zip(&layout.piles).enumerate() {
        let dropped = options
            .last_move
            .as_ref()
            .map_or(0, |last| last.drops.iter().filter(|&&p| p == index).count());
        let pile = Pile {
            index,
            buttons: pile,
            place,
            radius: layout.radius,
            liftable: liftable >> index & 1 == 1,
            highlight: options.highlight.contains(&index),
            dropped,
        };
        pile.write(&mut out, options.labels);
    }
    let (first, second, colour) = match (position.is_over(), position.to_move()) {
        (true, _) => ("battle", "over", INK),
        (false, Player::Red) => ("Red", "to move", "#a6271f"),
        (false, Player::Black) => ("Black", "to move", "#1d1d20"),
    };
    let _ = write!(
        out,
        r#"<text class="to-move" x="{c}" y="{c}" text-anchor="middle" font-family="sans-serif" font-size="11" font-weight="bold" fill="{colour}"><tspan x="{c}" dy="-2">{first}</tspan><tspan x="{c}" dy="12">{second}</tspan></text></svg>"#,
        c = num(CENTRE)
    );
    Ok(out)
}

/// The way the last move sowed: an arc outside the field, clockwise from the lifted
/// pile's slot to the slot of the last pile that received a button, with its arrowhead.
fn write_sowing(out: &mut String, from: usize, to: usize, slot_count: usize) {
    let radius = FIELD_RADIUS + 5.0;
    let (start, end) = (bearing(from, slot_count), bearing(to, slot_count));
    let sweep = (end - start).rem_euclid(360.0);
    let (a, b) = (polar(start, radius, 0.0), polar(end, radius, 0.0));
    let head = 7.0 / radius * 180.0 / std::f64::consts::PI;
    let (left, right) = (
        polar(end - head, radius - 4.0, 0.0),
        polar(end - head, radius + 4.0, 0.0),
    );
    let _ = write!(
        out,
        r#"<path class="sowing" d="M{} {} A{r} {r} 0 {} 1 {} {}" fill="none" stroke="{LAST_MOVE}" stroke-width="2.5" stroke-linecap="round"/><path class="sowing-head" d="M{} {} L{} {} L{} {} Z" fill="{LAST_MOVE}"/>"#,
        num(a.x),
        num(a.y),
        u8::from(sweep > 180.0),
        num(b.x),
        num(b.y),
        num(b.x),
        num(b.y),
        num(left.x),
        num(left.y),
        num(right.x),
        num(right.y),
        r = num(radius),
    );
}

/// The picture's title: the notation and who moves.
fn describe(position: &Position) -> String {
    if position.is_over() {
        format!("Button Up! final pile {position}")
    } else {
        format!(
            "Button Up! position {position}, {} to move",
            position.to_move().name()
        )
    }
}

/// The battle field: the cloth in its hoop, the centre disc.
fn write_field(out: &mut String) {
    let c = num(CENTRE);
    let _ = write!(
        out,
        r##"<circle class="field" cx="{c}" cy="{c}" r="{}" fill="#eadfc4" stroke="#8a6a3f" stroke-width="5"/><circle class="field-seam" cx="{c}" cy="{c}" r="{}" fill="none" stroke="#cdbb93" stroke-width="1" stroke-dasharray="3 4"/><circle class="centre" cx="{c}" cy="{c}" r="{}" fill="#e0d1ae"/>"##,
        num(FIELD_RADIUS),
        num(FIELD_RADIUS - 4.5),
        num(INNER - 4.0)
    );
}

/// One pile to write.
struct Pile<'a> {
    index: usize,
    buttons: &'a [Colour],
    place: &'a PileLayout,
    radius: f64,
    liftable: bool,
    highlight: bool,
    /// How many of its top buttons landed in the last move.
    dropped: usize,
}

impl Pile<'_> {
    fn write(&self, out: &mut String, labels: bool) {
        let letters: String = self.buttons.iter().map(|c| c.letter()).collect();
        let mut classes = String::from("pile");
        for (on, class) in [
            (self.liftable, " liftable"),
            (self.highlight, " highlight"),
            (self.dropped > 0, " dropped"),
        ] {
            if on {
                classes.push_str(class);
            }
        }
        let words = self.words();
        let _ = write!(
            out,
            r#"<g class="{classes}" data-pile="{}" data-slot="{}" data-buttons="{letters}" data-liftable="{}" data-x="{}" data-y="{}" role="group" aria-label="{words}"><title>{words}</title>"#,
            self.index,
            self.place.slot,
            self.liftable,
            num(self.place.anchor.x),
            num(self.place.anchor.y)
        );
        self.write_pad(out);
        if self.buttons.len() > 1 {
            let points: Vec<String> = self
                .place
                .buttons
                .iter()
                .map(|p| format!("{},{}", num(p.x), num(p.y)))
                .collect();
            let _ = write!(
                out,
                r##"<polyline class="thread" points="{}" fill="none" stroke="#5b4a30" stroke-opacity="0.7" stroke-width="{}" stroke-linecap="round" stroke-linejoin="round"/>"##,
                points.join(" "),
                num((self.radius * 0.3).max(0.5))
            );
        }
        let height = self.buttons.len();
        for (level, (&colour, at)) in self.buttons.iter().zip(&self.place.buttons).enumerate() {
            let top = level + 1 == height;
            let dropped = level + self.dropped >= height;
            let class = match (top, dropped) {
                (true, true) => "button top dropped",
                (true, false) => "button top",
                (false, true) => "button dropped",
                (false, false) => "button",
            };
            let _ = write!(
                out,
                r#"<g class="{class}" data-pile="{}" data-level="{level}" data-colour="{}">"#,
                self.index,
                colour.letter()
            );
            write_button(out, colour, at.x, at.y, self.radius, dropped);
            out.push_str("</g>");
        }
        if labels {
            let at = polar(self.place.bearing, FIELD_RADIUS + 16.0, 0.0);
            let _ = write!(
                out,
                r#"<text class="label" x="{}" y="{}" text-anchor="middle" dominant-baseline="central" font-family="sans-serif" font-size="12" font-weight="{}" fill="{INK}">{}</text>"#,
                num(at.x),
                num(at.y),
                if self.liftable { "bold" } else { "normal" },
                self.index
            );
        }
        out.push_str("</g>");
    }

    /// The pile's words for a screen reader.
    fn words(&self) -> String {
        let names: Vec<&str> = self.buttons.iter().map(|&c| name(c)).collect();
        let mut words = format!("pile {}: {}", self.index, names.join(", "));
        if self.buttons.len() > 1 {
            words.push_str(" (bottom to top)");
        }
        words.push_str(if self.liftable {
            "; may be lifted"
        } else {
            "; no white button"
        });
        if self.highlight {
            words.push_str("; highlighted");
        }
        if self.dropped > 0 {
            let _ = write!(words, "; received {} in the last move", self.dropped);
        }
        words
    }

    /// The pad under the pile: its area (a click target), golden when liftable.
    fn write_pad(&self, out: &mut String) {
        let r = self.radius;
        let margin = r * 0.3;
        let (outer, inner) = self.place.rows_span;
        let half_width = self.place.width + r + margin;
        let (fill, opacity, stroke, width) = match (self.highlight, self.liftable) {
            (true, _) => (HIGHLIGHT, "0.18", HIGHLIGHT, "2.5"),
            (false, true) => (LIFTABLE_FILL, "0.3", LIFTABLE_STROKE, "1.5"),
            (false, false) => ("#ffffff", "0", "none", "0"),
        };
        let _ = write!(
            out,
            r#"<rect class="pad" x="{}" y="{}" width="{}" height="{}" rx="{}" fill="{fill}" fill-opacity="{opacity}" stroke="{stroke}" stroke-width="{width}" transform="rotate({} {c} {c})"/>"#,
            num(CENTRE - half_width),
            num(CENTRE - outer - r - margin),
            num(2.0 * half_width),
            num(outer - inner + 2.0 * (r + margin)),
            num(r + margin),
            num(self.place.bearing),
            c = num(CENTRE),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::{walk, Board, LastMove};
    use crate::game::notation::parse;

    #[test]
    fn the_buttons_are_drawn_at_the_radius_of_the_board() {
        // The radius of a board along a battle is what its position needs, or the
        // smaller one of an earlier position (walk.rs): the picture draws that one.
        let start = parse("W/R/B/W/B/R/R/W/B r").unwrap();
        let mut board = Board::new(&start);
        while !board.position.is_over() {
            let mv = board.position.legal_moves().last().unwrap();
            board.play(mv).unwrap();
        }
        let svg = position(&board.position, &board.options()).unwrap();
        let face = 2.0 * (1.0 - 0.06) * board.radius;
        assert!(svg.contains(&format!(r#"r="{}""#, num(face / 2.0))));
    }

    #[test]
    fn every_button_is_drawn_once() {
        let p = parse("RWBBWW/BRR r").unwrap();
        let svg = position(&p, &DrawOptions::default()).unwrap();
        assert_eq!(svg.matches(r#"<g class="button"#).count(), 9);
        assert_eq!(svg.matches(r#"<g class="pile"#).count(), 2);
        assert!(svg.contains(r#"<g class="pile liftable" data-pile="0" data-slot="0" data-buttons="RWBBWW" data-liftable="true""#));
        assert!(
            svg.contains(r#"data-pile="1" data-slot="1" data-buttons="BRR" data-liftable="false""#)
        );
    }

    #[test]
    fn the_last_move_and_its_drops_are_marked() {
        let start = parse("W/R/B/W/B/R/R/W/B r").unwrap();
        let board = walk(&start, &[3]).unwrap();
        let svg = position(&board.position, &board.options()).unwrap();
        assert!(svg.contains(r#"<g class="lifted" data-slot="3">"#));
        assert!(svg.contains(
            r#"<g class="pile liftable dropped" data-pile="3" data-slot="4" data-buttons="BW""#
        ));
        assert!(svg.contains(
            r#"<g class="button top dropped" data-pile="3" data-level="1" data-colour="W">"#
        ));
        assert_eq!(svg.matches("class=\"slot\"").count(), 1);
    }

    #[test]
    fn bad_options_are_refused_with_reasons() {
        let p = parse("W/R/B r").unwrap();
        let with = |options: DrawOptions| position(&p, &options).unwrap_err().to_string();
        let slots = |slots: Vec<usize>| DrawOptions {
            slots: Some(slots),
            ..DrawOptions::default()
        };
        assert_eq!(
            with(slots(vec![0, 1])),
            "slots must name one slot for each of the 3 piles, not 2"
        );
        assert_eq!(
            with(slots(vec![0, 2, 1])),
            "slots must be strictly increasing"
        );
        assert_eq!(
            with(slots(vec![0, 1, 3])),
            "slot 3 is outside a circle of 3 slots"
        );
        let highlight = DrawOptions {
            highlight: vec![3],
            ..DrawOptions::default()
        };
        assert_eq!(
            with(highlight),
            "highlight names pile 3, but the position has 3 piles (0 to 2)"
        );
        let last = DrawOptions {
            last_move: Some(LastMove {
                slot: 1,
                drops: vec![],
            }),
            ..DrawOptions::default()
        };
        assert_eq!(
            with(last),
            "the last move's slot 1 holds a pile of the position drawn"
        );
        let huge = DrawOptions {
            slot_count: Some(1000),
            ..slots(vec![0, 1, 2])
        };
        assert_eq!(with(huge), "slot_count must be at most 64, not 1000");
        let size = DrawOptions {
            size: Some(f64::NAN),
            ..DrawOptions::default()
        };
        assert_eq!(with(size), "size must be a number from 1 to 10000, not NaN");
    }
}

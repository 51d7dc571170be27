//! One button as SVG: a disc with a rim, a raised ring and four holes, in the colours
//! of the physical game; the accent and the ink of every picture, and its number
//! format.

use std::fmt::{self, Write};

use crate::game::pieces::Colour;

/// The face, rim and ring colours of a button.
pub(crate) fn colours(colour: Colour) -> (&'static str, &'static str, &'static str) {
    match colour {
        Colour::Red => ("#c8322b", "#7f1b16", "#a6271f"),
        Colour::Black => ("#2a2a2e", "#050506", "#4a4a50"),
        Colour::White => ("#f4f0e4", "#9d937d", "#d4ccb9"),
    }
}

/// The colour's name in words.
pub(crate) fn name(colour: Colour) -> &'static str {
    match colour {
        Colour::Red => "red",
        Colour::Black => "black",
        Colour::White => "white",
    }
}

/// The accent of the last move (the lifted slot, the dropped buttons).
pub(crate) const LAST_MOVE: &str = "#e07b12";
/// The ink of the texts.
pub(crate) const INK: &str = "#4a3b24";

/// The colour of the holes: the cloth seen through them.
const HOLE: &str = "#7a6646";

/// A number for an attribute: two decimals at most, no trailing zeros; written where
/// it goes (a board draws thousands of them: no string of its own).
pub(crate) fn num(value: f64) -> Num {
    Num(value)
}

/// What [`num`] writes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Num(f64);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let value = self.0;
        let scaled = value * 100.0;
        let fraction = scaled - scaled.floor();
        // Hundredths counted in integers (the exact decimal rounding of `{:.2}` is
        // slow); a value near a tie of the rounding, where the product's own rounding
        // could tip it, goes the exact way.
        if !scaled.is_finite() || scaled.abs() > 1e15 || (fraction - 0.5).abs() < 1e-6 {
            return f.write_str(&exact_num(value));
        }
        let hundredths = scaled.round() as i64;
        let sign = if hundredths < 0 { "-" } else { "" };
        let (whole, part) = (
            hundredths.unsigned_abs() / 100,
            hundredths.unsigned_abs() % 100,
        );
        match part {
            0 if whole == 0 => f.write_str("0"),
            0 => write!(f, "{sign}{whole}"),
            part if part % 10 == 0 => write!(f, "{sign}{whole}.{}", part / 10),
            part => write!(f, "{sign}{whole}.{part:02}"),
        }
    }
}

/// [`num`] by the exact decimal rounding of `{:.2}`.
fn exact_num(value: f64) -> String {
    let text = format!("{:.2}", value);
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".to_string()
    } else {
        text.to_string()
    }
}

/// Writes the inside of a button's `<g>` (its face first) centred at `(x, y)`, the
/// painted disc of radius `r` in all; `mark` adds a dot in the middle (a dropped
/// button).
pub(crate) fn write_button(out: &mut String, colour: Colour, x: f64, y: f64, r: f64, mark: bool) {
    let (face, rim, ring) = colours(colour);
    let stroke = r * 0.12;
    let _ = write!(
        out,
        r#"<circle class="face" cx="{}" cy="{}" r="{}" fill="{face}" stroke="{rim}" stroke-width="{}"/>"#,
        num(x),
        num(y),
        num(r - stroke / 2.0),
        num(stroke)
    );
    let _ = write!(
        out,
        r#"<circle class="ring" cx="{}" cy="{}" r="{}" fill="none" stroke="{ring}" stroke-width="{}"/>"#,
        num(x),
        num(y),
        num(r * 0.66),
        num(r * 0.08)
    );
    let hole = r * 0.2;
    for (dx, dy) in [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)] {
        let _ = write!(
            out,
            r#"<circle class="hole" cx="{}" cy="{}" r="{}" fill="{HOLE}"/>"#,
            num(x + dx * hole),
            num(y + dy * hole),
            num(r * 0.095)
        );
    }
    if mark {
        let _ = write!(
            out,
            r#"<circle class="drop-mark" cx="{}" cy="{}" r="{}" fill="none" stroke="{}" stroke-width="{}"/>"#,
            num(x),
            num(y),
            num(r * 0.45),
            LAST_MOVE,
            num(r * 0.14)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short() {
        assert_eq!(num(200.0).to_string(), "200");
        assert_eq!(num(12.5).to_string(), "12.5");
        assert_eq!(num(1.0 / 3.0).to_string(), "0.33");
        assert_eq!(num(-0.001).to_string(), "0");
        assert_eq!(num(-12.07).to_string(), "-12.07");
        assert_eq!(num(0.125).to_string(), exact_num(0.125)); // a tie: the exact way
    }

    #[test]
    fn numbers_in_integers_are_those_of_the_exact_rounding() {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        for i in 0..200_000 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let unit = (state >> 11) as f64 / (1u64 << 53) as f64;
            let value = match i % 4 {
                0 => unit * 1000.0 - 500.0,
                1 => (unit * 20000.0).round() / 1000.0 - 10.0, // near ties
                2 => unit * 2.0 - 1.0,
                _ => (unit * 800.0).round() / 8.0 - 50.0, // eighths: exact ties
            };
            assert_eq!(num(value).to_string(), exact_num(value), "{value:?}");
        }
    }

    #[test]
    fn a_button_paints_no_farther_than_its_radius() {
        let mut out = String::new();
        write_button(&mut out, Colour::Red, 10.0, 10.0, 8.0, true);
        // Face radius 7.52 plus half of 0.96.
        assert!(out.starts_with(
            r##"<circle class="face" cx="10" cy="10" r="7.52" fill="#c8322b" stroke="#7f1b16" stroke-width="0.96"/>"##
        ));
        assert_eq!(out.matches("class=\"hole\"").count(), 4);
    }
}

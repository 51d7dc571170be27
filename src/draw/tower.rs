//! The final tower of a finished battle as SVG: the final pile standing, strength 1 at
//! the bottom (rule 6).

use std::fmt::Write;

use super::button::{colours, num, INK};
use super::{check_size, DrawError};
use crate::game::pieces::Colour;
use crate::game::rules::Position;

/// The tower's width, and where its columns stand.
const WIDTH: f64 = 240.0;
const MIDDLE: f64 = 120.0;
const RED_COLUMN: f64 = 36.0;
const BLACK_COLUMN: f64 = 204.0;
/// A button seen from the side: its width, its thickness and the step between two.
const BUTTON_WIDTH: f64 = 70.0;
const THICKNESS: f64 = 16.0;
const PITCH: f64 = 17.5;
/// The room above the tower (the column titles) and below it (the sums, the result).
const HEAD: f64 = 36.0;
const FOOT: f64 = 64.0;

/// The SVG text of a finished battle's final pile as the scoring tower of rule 6,
/// seen from the side: strength 1 at the bottom to `N` at the top, written on each
/// button, each player's strengths beside his buttons and his sum below; `size` is the
/// picture's height. [`DrawError::NotOver`] before the end.
pub fn tower(position: &Position, size: f64) -> Result<String, DrawError> {
    check_size(size)?;
    let scoring = position.scoring().ok_or(DrawError::NotOver)?;
    let buttons: Vec<Colour> = position.buttons().collect();
    let count = buttons.len();
    let height = HEAD + count as f64 * PITCH + FOOT;
    let words = match scoring.winner() {
        Some(winner) => format!(
            "{} wins {} point{}",
            winner.name(),
            scoring.points(),
            if scoring.points() == 1 { "" } else { "s" }
        ),
        None => "a tie: no points".to_string(),
    };
    let title = format!(
        "Button Up! final tower {position}: Red {}, Black {}; {words}",
        scoring.red, scoring.black
    );
    let mut out = String::new();
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" class="buttonup-tower" viewBox="0 0 {w} {h}" width="{}" height="{}" role="img" aria-label="{title}" data-position="{position}"><title>{title}</title><rect class="field" x="1" y="1" width="{}" height="{}" rx="14" fill="#eadfc4" stroke="#8a6a3f" stroke-width="2"/>"##,
        num(size * WIDTH / height),
        num(size),
        num(WIDTH - 2.0),
        num(height - 2.0),
        w = num(WIDTH),
        h = num(height),
    );
    let font = r#"font-family="sans-serif" text-anchor="middle" dominant-baseline="central""#;
    let _ = write!(
        out,
        r##"<text x="{RED_COLUMN}" y="18" {font} font-size="13" font-weight="bold" fill="{RED}">Red</text><text x="{BLACK_COLUMN}" y="18" {font} font-size="13" font-weight="bold" fill="{BLACK}">Black</text>"##
    );
    let base = HEAD + count as f64 * PITCH;
    let _ = write!(
        out,
        r##"<rect class="table" x="{}" y="{}" width="{}" height="3" rx="1.5" fill="#8a6a3f"/>"##,
        num(MIDDLE - BUTTON_WIDTH / 2.0 - 14.0),
        num(base + 1.0),
        num(BUTTON_WIDTH + 28.0)
    );
    for (level, &colour) in buttons.iter().enumerate() {
        let strength = level + 1;
        let y = base - (level + 1) as f64 * PITCH;
        write_side_button(&mut out, colour, strength, y, font);
        let side = match colour {
            Colour::Red => Some((RED_COLUMN, RED)),
            Colour::Black => Some((BLACK_COLUMN, BLACK)),
            Colour::White => None,
        };
        if let Some((x, ink)) = side {
            let _ = write!(
                out,
                r#"<text class="points" data-strength="{strength}" x="{x}" y="{}" {font} font-size="12" fill="{ink}">{strength}</text>"#,
                num(y + THICKNESS / 2.0)
            );
        }
    }
    let y = base + 22.0;
    let _ = write!(
        out,
        r##"<text class="sum" data-player="red" x="{RED_COLUMN}" y="{}" {font} font-size="16" font-weight="bold" fill="{RED}">{}</text><text class="sum" data-player="black" x="{BLACK_COLUMN}" y="{}" {font} font-size="16" font-weight="bold" fill="{BLACK}">{}</text><text class="result" x="{MIDDLE}" y="{}" {font} font-size="13" fill="{INK}">{words}</text></svg>"##,
        num(y),
        scoring.red,
        num(y),
        scoring.black,
        num(y + 24.0)
    );
    Ok(out)
}

/// The texts of each player.
const RED: &str = "#a6271f";
const BLACK: &str = "#1d1d20";

/// One button of the tower seen from the side, its top edge at `y`: its edge in its
/// colour with the strength written on it, and a sheen along its top.
fn write_side_button(out: &mut String, colour: Colour, strength: usize, y: f64, font: &str) {
    let (face, rim, _) = colours(colour);
    let ink = match colour {
        Colour::White => INK,
        Colour::Red | Colour::Black => "#ffffff",
    };
    let left = MIDDLE - BUTTON_WIDTH / 2.0;
    let _ = write!(
        out,
        r##"<g class="button" data-strength="{strength}" data-colour="{}"><rect class="face" x="{}" y="{}" width="{}" height="{THICKNESS}" rx="{}" fill="{face}" stroke="{rim}" stroke-width="1.2"/><rect class="sheen" x="{}" y="{}" width="{}" height="2.5" rx="1.25" fill="#ffffff" fill-opacity="0.3"/><text class="strength" x="{MIDDLE}" y="{}" {font} font-size="11" font-weight="bold" fill="{ink}">{strength}</text></g>"##,
        colour.letter(),
        num(left),
        num(y),
        num(BUTTON_WIDTH),
        num(THICKNESS / 2.0),
        num(left + 8.0),
        num(y + 2.5),
        num(BUTTON_WIDTH - 16.0),
        num(y + THICKNESS / 2.0),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::notation::parse;

    #[test]
    fn the_tower_counts_from_the_bottom() {
        let p = parse("RBWWBRWBR b").unwrap();
        let svg = tower(&p, 400.0).unwrap();
        assert!(svg.contains(r#"<g class="button" data-strength="1" data-colour="R">"#));
        assert!(svg.contains(r#"<g class="button" data-strength="9" data-colour="R">"#));
        // Red 1 + 6 + 9 = 16, Black 2 + 5 + 8 = 15.
        assert!(svg.contains(r#"data-player="red" x="36""#) && svg.contains(">16</text>"));
        assert!(svg.contains(">15</text>") && svg.contains("Red wins 1 point<"));
        assert_eq!(
            tower(&parse("W/R r").unwrap(), 400.0),
            Err(DrawError::NotOver)
        );
    }
}

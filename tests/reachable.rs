//! Facts checked on every position reachable from the starts of small variants.

use std::collections::HashSet;

use buttonup::reachable::Reachable;
use buttonup::scoring::max_margin;
use buttonup::variant::start_positions;
use buttonup::{Player, Position};

/// The largest final margin of any battle played with `per_colour` buttons of each
/// colour, and the smallest, over every position reachable from every start.
fn played_margins(per_colour: usize) -> (i32, i32) {
    let reachable = Reachable::explore(per_colour, |p: &Position| *p);
    let margins = reachable.positions.iter().filter_map(Position::margin);
    margins.fold((i32::MIN, i32::MAX), |(most, least), m| {
        (most.max(m), least.min(m))
    })
}

#[test]
fn the_largest_margin_is_reached_and_never_exceeded() {
    for per_colour in 2..=3 {
        let most = max_margin(per_colour);
        assert_eq!(
            played_margins(per_colour),
            (most, -most),
            "{per_colour} of each"
        );
    }
    // With one button of each colour the white one always ends on top: the bound 2 is
    // a final pile's (BWR) but no battle's.
    assert_eq!(max_margin(1), 2);
    assert_eq!(played_margins(1), (1, -1));
}

/// Whether some battle from `position` ends with Red's margin `margin` (who moves does
/// not change which moves are legal: positions are taken with Red to move).
fn reaches(position: &Position, margin: i32, dead_ends: &mut HashSet<Position>) -> bool {
    if position.is_over() {
        return position.margin() == Some(margin);
    }
    if dead_ends.contains(position) {
        return false;
    }
    for mv in position.legal_moves() {
        let child = position
            .play_unchecked(mv)
            .position
            .with_to_move(Player::Red);
        if reaches(&child, margin, dead_ends) {
            return true;
        }
    }
    dead_ends.insert(*position);
    false
}

#[test]
fn the_largest_margin_is_reached_with_more_buttons() {
    for per_colour in [4, 5] {
        let mut dead_ends = HashSet::new();
        let most = max_margin(per_colour);
        let found = start_positions(per_colour, Player::Red)
            .unwrap()
            .iter()
            .any(|start| reaches(start, most, &mut dead_ends));
        assert!(
            found,
            "no battle of {per_colour} of each colour ends at {most}"
        );
    }
}

//! Facts checked on every position reachable from the starts of small variants.

use std::collections::HashSet;

use buttonup::game::reachable::{all_positions, Reachable};
use buttonup::game::scoring::max_margin;
use buttonup::game::variant::start_positions;
use buttonup::{Colour, Player, Position};

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

/// Rule 3 as written, on lists of piles: the lifted buttons, bottom first, go to the
/// piles that `Position::sowing` names (numbered before the move); the lifted pile is
/// gone, the others keep their order. Returns the piles after the move and whether the
/// mover moves again (rule 4: no overflow, the last button on its own colour, more
/// than one pile left).
fn sown_by_hand(position: &Position, mv: usize, drops: &[usize]) -> (Vec<Vec<Colour>>, bool) {
    let mut piles: Vec<Vec<Colour>> = position.piles().map(|p| p.collect()).collect();
    let lifted = piles[mv].clone();
    let mut landed_on = None;
    for (&button, &target) in lifted.iter().zip(drops) {
        landed_on = piles[target].last().copied();
        piles[target].push(button);
    }
    piles.remove(mv);
    let overflow = drops.windows(2).any(|w| w[0] == w[1]);
    let extra = !overflow && piles.len() > 1 && landed_on == lifted.last().copied();
    (piles, extra)
}

#[test]
fn the_two_sowings_agree_on_every_reachable_position() {
    for per_colour in 1..=3 {
        let reachable = Reachable::explore(per_colour, |p: &Position| *p);
        let mut moves = 0;
        for position in &reachable.positions {
            for mv in position.legal_moves() {
                let sowing = position.sowing(mv).unwrap();
                let (piles, extra) = sown_by_hand(position, mv, &sowing.drops);
                let after = sowing.outcome.position;
                let played: Vec<Vec<Colour>> = after.piles().map(|p| p.collect()).collect();
                assert_eq!(played, piles, "{position} {mv}");
                assert_eq!(sowing.outcome.extra_move, extra, "{position} {mv}");
                let overflow = sowing.drops.windows(2).any(|w| w[0] == w[1]);
                assert_eq!(sowing.outcome.overflow, overflow, "{position} {mv}");
                let mover = position.to_move();
                let next = if extra { mover } else { mover.other() };
                assert_eq!(after.to_move(), next, "{position} {mv}");
                assert_eq!(
                    sowing.outcome,
                    position.play_unchecked(mv),
                    "{position} {mv}"
                );
                moves += 1;
            }
        }
        assert!(
            moves > reachable.positions.len() / 2,
            "{per_colour}: {moves} moves"
        );
    }
}

#[test]
fn every_position_of_the_standard_game_is_listed_once_starts_first() {
    let positions = all_positions(3).unwrap();
    assert_eq!(positions.len(), 112_760); // docs/rl.md
    let distinct: HashSet<Position> = positions.iter().copied().collect();
    assert_eq!(distinct.len(), positions.len());
    let starts = start_positions(3, Player::Red).unwrap();
    assert_eq!(positions[..starts.len()], starts[..]);
    for position in &positions {
        for mv in position.legal_moves() {
            assert!(distinct.contains(&position.play_unchecked(mv).position));
        }
    }
    assert_eq!(
        all_positions(4).unwrap_err().to_string(),
        "every position is listed for 1 to 3 buttons of each colour, not 4"
    );
    assert!(all_positions(0).is_err());
}

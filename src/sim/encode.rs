//! What a batched environment writes for a game: the observation (docs/rl.md) and the
//! legal-move mask, in full or only where a step changed them.

use crate::game::bits::Portable;
use crate::game::rules::{Colour, Player, Position};
use crate::game::variant::buttons;

/// The observation of one game: `piles x heights x 3` cells, pile-major, each 1 when
/// the button at that height of that pile is the mover's (channel 0), the opponent's
/// (1) or white (2), else 0. Piles and heights both run to the number of buttons.
pub fn observation_len(per_colour: usize) -> usize {
    let n = buttons(per_colour);
    n * n * 3
}

/// Writes the observation of `position` from its mover's point of view into `out`
/// (`observation_len` cells).
pub fn encode(position: &Position, out: &mut [i8]) {
    encode_for(position, position.to_move(), out);
}

/// Writes the observation of `position` from `player`'s point of view into `out`: the
/// plain form, button by button, that the faster writers are checked against.
pub fn encode_for(position: &Position, player: Player, out: &mut [i8]) {
    out.fill(0);
    let n = position.button_count();
    let mine = match player {
        Player::Red => Colour::Red,
        Player::Black => Colour::Black,
    };
    let (mut pile, mut height) = (0, 0);
    for (i, colour) in position.buttons().enumerate() {
        if i > 0 && position.is_bottom(i) {
            (pile, height) = (pile + 1, 0);
        }
        let channel = match colour {
            Colour::White => 2,
            c if c == mine => 0,
            _ => 1,
        };
        if let Some(cell) = out.get_mut((pile * n + height) * 3 + channel) {
            *cell = 1;
        }
        height += 1;
    }
}

/// The channel of each colour code (1 red, 2 black, 3 white) seen by Red and by Black:
/// 0 the viewer's buttons, 1 the other player's, 2 the white ones.
const CHANNEL: [[usize; 4]; 2] = [[0, 0, 1, 2], [0, 1, 0, 2]];

/// The cells set in the observation of `position` seen by `viewer` (one a button), in
/// button order: what [`encode_for`] writes 1 into, read off the position's words with
/// no branch a button.
#[inline]
fn set_cells(position: &Position, viewer: Player, mut each: impl FnMut(usize)) {
    let (cells, bottoms, len, _) = position.raw();
    let n = len as usize;
    let channel = &CHANNEL[viewer as usize];
    // Bit 0 of `bottoms` is set: the first button starts pile 0.
    let (mut pile, mut bottom) = (usize::MAX, 0usize);
    for i in 0..len as usize {
        let starts = (bottoms >> i & 1) as usize;
        pile = pile.wrapping_add(starts);
        bottom = if starts == 1 { i } else { bottom };
        let code = (cells >> (2 * i) & 3) as usize;
        each((pile * n + i - bottom) * 3 + channel[code]);
    }
}

/// Rewrites `out`, which holds the observation of `before` seen by `viewer_before`,
/// into that of `after` seen by `viewer_after`: the cells of the first are cleared and
/// those of the second set, some 2 writes a button instead of the whole array.
#[inline]
pub fn update_observation(before: (&Position, Player), after: (&Position, Player), out: &mut [i8]) {
    set_cells(before.0, before.1, |c| {
        if let Some(cell) = out.get_mut(c) {
            *cell = 0;
        }
    });
    set_cells(after.0, after.1, |c| {
        if let Some(cell) = out.get_mut(c) {
            *cell = 1;
        }
    });
}

/// Writes the whole observation of `position` seen by `viewer` (the array zeroed, then
/// its cells set): for a first write, when what `out` holds is not known.
#[inline]
pub fn write_observation(position: &Position, viewer: Player, out: &mut [i8]) {
    out.fill(0);
    set_cells(position, viewer, |c| {
        if let Some(cell) = out.get_mut(c) {
            *cell = 1;
        }
    });
}

/// Writes the legal moves of `position` into `out` (one flag a pile, up to the number
/// of buttons).
pub fn legal_mask(position: &Position, out: &mut [bool]) {
    write_mask(position.legal_move_mask(), out);
}

/// `position.legal_move_mask()` from the rules' word-operation form (`legal_tops`, a
/// bit on the top button of each pile that may be lifted), its bits gathered to pile
/// indices without a branch a pile: about half the cost of the walk over the piles.
#[inline]
pub fn legal_piles(position: &Position) -> u64 {
    position.legal_move_mask_with(Portable)
}

/// The flags of each byte value: `FLAGS[b][i]` is bit `i` of `b`.
const FLAGS: [[bool; 8]; 256] = {
    let mut table = [[false; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        while i < 8 {
            table[b][i] = b >> i & 1 == 1;
            i += 1;
        }
        b += 1;
    }
    table
};

/// Writes the bits of `mask` as flags into `out` (bit `p` into `out[p]`; none past 64),
/// eight at a time.
#[inline]
pub fn write_mask(mask: u64, out: &mut [bool]) {
    let whole = out.len() / 8 * 8;
    let mut chunks = out.chunks_exact_mut(8);
    for (k, chunk) in (&mut chunks).enumerate() {
        let byte = if k < 8 { (mask >> (8 * k)) as u8 } else { 0 };
        chunk.copy_from_slice(&FLAGS[byte as usize]);
    }
    // The last few flags one at a time (a copy of a length not known here is a call).
    for (i, flag) in chunks.into_remainder().iter_mut().enumerate() {
        *flag = whole + i < 64 && mask >> (whole + i) & 1 == 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rng::{random_start, SplitMix64};

    #[test]
    fn masks_are_the_bits_of_the_mask() {
        let mut out = [true; 11];
        write_mask(0b101_0000_0110, &mut out);
        let want: Vec<bool> = (0..11).map(|p| 0b101_0000_0110u64 >> p & 1 == 1).collect();
        assert_eq!(out.to_vec(), want);
        let mut wide = [true; 70];
        write_mask(1 << 63 | 1, &mut wide);
        assert!(wide[0] && wide[63] && wide.iter().filter(|&&f| f).count() == 2);
    }

    #[test]
    fn legal_piles_are_the_legal_moves() {
        crate::sim::playout::each_random_battle(9, 1..=10, 100, |position, _| {
            assert_eq!(
                legal_piles(position),
                position.legal_move_mask(),
                "{position}"
            );
            #[cfg(target_arch = "x86_64")]
            if let Some(fast) = crate::game::bits::Bmi2::detect() {
                let want = position.legal_move_mask();
                assert_eq!(position.legal_move_mask_with(fast), want, "{position}");
            }
        });
    }

    #[test]
    fn written_and_updated_observations_equal_the_plain_encoding() {
        let mut rng = SplitMix64::new(5);
        for per_colour in 1..=6 {
            let len = observation_len(per_colour);
            let (mut plain, mut fast, mut updated) = (vec![0; len], vec![0; len], vec![0; len]);
            for battle in 0..50u64 {
                let starter = if battle % 2 == 0 {
                    Player::Red
                } else {
                    Player::Black
                };
                let mut position = random_start(per_colour, starter, &mut rng).unwrap();
                let viewer = if battle % 3 == 0 {
                    Player::Black
                } else {
                    Player::Red
                };
                let mut seen = (position, viewer);
                write_observation(&position, viewer, &mut updated);
                loop {
                    for who in [Player::Red, Player::Black] {
                        encode_for(&position, who, &mut plain);
                        write_observation(&position, who, &mut fast);
                        assert_eq!(plain, fast, "{position} for {who:?}");
                    }
                    // The viewer changes at times, as the mover does in the two-player form.
                    let viewer = if rng.below(2) == 0 {
                        Player::Red
                    } else {
                        Player::Black
                    };
                    update_observation((&seen.0, seen.1), (&position, viewer), &mut updated);
                    encode_for(&position, viewer, &mut plain);
                    assert_eq!(plain, updated, "{position}");
                    seen = (position, viewer);
                    if position.is_over() {
                        break;
                    }
                    let moves: Vec<usize> = position.legal_moves().collect();
                    let pick = moves[rng.below(moves.len() as u64) as usize];
                    position = position.play(pick).unwrap().position;
                }
            }
        }
    }
}

//! Move-path enumeration, the usual first check of a move generator.

use crate::game::rules::Position;
use crate::run::interrupt::{interrupted, Interrupted};

/// The number of move sequences of length `depth` from `position`; a sequence that ends
/// the battle sooner counts as one leaf. The last ply is counted without being played
/// (every legal move makes one sequence), as chess engines do.
pub fn perft(position: &Position, depth: u32) -> u64 {
    // Never interrupted: nothing asks to stop.
    count(position, depth, &mut || false).unwrap_or_default()
}

/// [`perft`] that stops early when [`interrupted`] says so.
pub fn perft_interruptible(position: &Position, depth: u32) -> Result<u64, Interrupted> {
    count(position, depth, &mut interrupted)
}

/// [`perft`] that stops early when `stop` says so (asked every few thousand positions).
pub fn perft_with_stop(
    position: &Position,
    depth: u32,
    stop: &mut impl FnMut() -> bool,
) -> Result<u64, Interrupted> {
    count(position, depth, stop)
}

fn count(
    position: &Position,
    depth: u32,
    stop: &mut impl FnMut() -> bool,
) -> Result<u64, Interrupted> {
    if depth == 0 || position.is_over() {
        return Ok(1);
    }
    if depth == 1 {
        return Ok(u64::from(position.legal_move_count()));
    }
    if depth >= 4 && stop() {
        return Err(Interrupted);
    }
    let mut total = 0;
    for p in position.legal_moves() {
        total += count(&position.play_unchecked(p).position, depth - 1, stop)?;
    }
    Ok(total)
}

/// The same count, playing every move of the last ply too: the figure to compare with an
/// engine that counts plainly.
pub fn perft_plain(position: &Position, depth: u32) -> u64 {
    if depth == 0 || position.is_over() {
        return 1;
    }
    position
        .legal_moves()
        .map(|p| perft_plain(&position.play_unchecked(p).position, depth - 1))
        .sum()
}

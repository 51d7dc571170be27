//! Perft of every standard start to the end of the battle, for profiling:
//! `cargo run --release --example perft_all`.

#[macro_use]
mod common;

use std::time::Instant;

use buttonup::game::perft::perft;
use buttonup::game::variant::start_positions;
use buttonup::Player;

fn main() {
    let starts = start_positions(3, Player::Red).expect("standard game");
    let started = Instant::now();
    let mut total = 0;
    for _ in 0..10 {
        total += starts.iter().map(|s| perft(s, 8)).sum::<u64>();
    }
    say!("{} leaves in {:.2?} (10 rounds)", total, started.elapsed());
}

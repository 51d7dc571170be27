//! Solves every standard start for both sides to move and prints the value
//! distribution: `cargo run --release --example solve_all`.

#[macro_use]
mod common;

use std::collections::BTreeMap;
use std::time::Instant;

use buttonup::game::notation::parse_start;
use buttonup::game::variant::start_orders;
use buttonup::search::{Payoff, Searcher};
use buttonup::Player;

fn main() {
    let orders = start_orders(3).expect("the standard game");
    let mut searcher = Searcher::new(Payoff::Margin, 16 << 20);
    let started = Instant::now();
    let mut histogram: BTreeMap<(char, i64), usize> = BTreeMap::new();
    for side in [Player::Red, Player::Black] {
        for order in &orders {
            let start = parse_start(order, side).expect("valid order");
            let value = searcher.solve(&start) as i64;
            *histogram.entry((side.letter(), value)).or_default() += 1;
        }
    }
    let elapsed = started.elapsed();
    say!(
        "solved {} starts x 2 sides in {:.2?}",
        orders.len(),
        elapsed
    );
    for ((side, value), count) in histogram {
        say!("{side} {value:+} {count}");
    }
}

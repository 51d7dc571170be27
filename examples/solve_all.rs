//! Solves every standard start for both sides to move and prints the value
//! distribution: `cargo run --release --example solve_all`.

use std::collections::BTreeMap;
use std::time::Instant;

use buttonup::notation::parse_start;
use buttonup::search::{Payoff, Searcher};
use buttonup::Player;

fn all_orders(prefix: &mut String, left: [usize; 3], out: &mut Vec<String>) {
    if left == [0, 0, 0] {
        out.push(prefix.clone());
        return;
    }
    for (i, letter) in ['R', 'B', 'W'].into_iter().enumerate() {
        if left[i] > 0 {
            let mut next = left;
            next[i] -= 1;
            prefix.push(letter);
            all_orders(prefix, next, out);
            prefix.pop();
        }
    }
}

fn main() {
    let mut orders = Vec::new();
    all_orders(&mut String::new(), [3, 3, 3], &mut orders);
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
    println!(
        "solved {} starts x 2 sides in {:.2?}",
        orders.len(),
        elapsed
    );
    for ((side, value), count) in histogram {
        println!("{side} {value:+} {count}");
    }
}

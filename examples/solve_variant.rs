//! Solves one random start with `N` buttons of each colour exactly and reports the time,
//! the positions visited and the value: `cargo run --release --example solve_variant -- N [SEED] [TABLE_MIB]`.

use std::time::Instant;

use buttonup::rng::{random_start, SplitMix64};
use buttonup::search::{Limits, Payoff, Searcher};
use buttonup::Player;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let per_colour: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(4);
    let seed: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1);
    let table_mib: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(256);
    let start = match random_start(per_colour, Player::Red, &mut SplitMix64::new(seed)) {
        Ok(start) => start,
        Err(error) => {
            eprintln!("{error}");
            std::process::exit(2);
        }
    };
    let mut searcher = Searcher::new(Payoff::Margin, table_mib << 20);
    let started = Instant::now();
    let result = searcher.search(&start, &Limits::default());
    println!(
        "{start}: value {:+} exact {} nodes {} in {:.3?} (table {} MiB)",
        result.value,
        result.exact,
        result.nodes,
        started.elapsed(),
        searcher.table_bytes() >> 20
    );
}

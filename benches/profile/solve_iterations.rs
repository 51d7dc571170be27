//! Shows where an exact solve spends its time: one deepening search of a random start
//! with `N` buttons of each colour, printing each iteration's depth, value, positions
//! visited and time: `cargo run --release --example solve_iterations -- N [SEED]
//! [TABLE_MIB]` (defaults 8, 1, 16; one thread).

#[macro_use]
mod common;

use common::arg;

use buttonup::game::rng::{random_start, SplitMix64};
use buttonup::search::{Limits, Payoff, Searcher};
use buttonup::Player;

fn main() {
    let per_colour: usize = arg(1, 8);
    let seed: u64 = arg(2, 1);
    let table_mib: usize = arg(3, 16);
    let start = match random_start(per_colour, Player::Red, &mut SplitMix64::new(seed)) {
        Ok(start) => start,
        Err(error) => {
            eprintln!("{error}");
            std::process::exit(2);
        }
    };
    let mut searcher = Searcher::new(Payoff::Margin, table_mib << 20);
    let mut last = (0u64, 0.0f64);
    let result = searcher.search_with(&start, &Limits::default(), &mut |it| {
        let secs = it.elapsed.as_secs_f64();
        say!(
            "depth {:2}: value {:+4} nodes {:>11} (+{:>10}) {:7.3} s (+{:.3})",
            it.depth,
            it.value,
            it.nodes,
            it.nodes - last.0,
            secs,
            secs - last.1
        );
        last = (it.nodes, secs);
        true
    });
    say!(
        "{start}: value {:+} in {:.3?}",
        result.value,
        result.elapsed
    );
}

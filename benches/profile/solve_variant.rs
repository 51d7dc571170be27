//! Solves random starts with `N` buttons of each colour exactly and reports the time and
//! the value: `cargo run --release --example solve_variant -- N [SEEDS] [TABLE_MIB]
//! [THREADS]`, SEEDS as `1-6` or `3` (default 1), a table of 16 MiB and every core by
//! default: `Searcher::with_threads` (one thread: a table of wide entries; more: one
//! shared table of compact entries).

#[macro_use]
mod common;

use std::time::Instant;

use common::arg;

use buttonup::game::rng::{random_start, SplitMix64};
use buttonup::run::parallel::default_threads;
use buttonup::search::Searcher;
use buttonup::Player;

fn main() {
    let per_colour: usize = arg(1, 4);
    let seeds: String = arg(2, "1".to_string());
    let (first, last) = match seeds.split_once('-') {
        Some((a, b)) => (a.parse().unwrap_or(1), b.parse().unwrap_or(1)),
        None => (seeds.parse().unwrap_or(1), seeds.parse().unwrap_or(1)),
    };
    let table_mib: usize = arg(3, 16);
    let threads: usize = arg(4, default_threads());
    let mut times = Vec::new();
    for seed in first..=last {
        let start = match random_start(per_colour, Player::Red, &mut SplitMix64::new(seed)) {
            Ok(start) => start,
            Err(error) => {
                eprintln!("{error}");
                std::process::exit(2);
            }
        };
        let started = Instant::now();
        let value = match Searcher::with_threads(table_mib << 20, threads) {
            Ok(mut searcher) => searcher.solve(&start) as i32,
            Err(error) => {
                eprintln!("{error}");
                std::process::exit(2);
            }
        };
        let elapsed = started.elapsed();
        times.push(elapsed.as_secs_f64());
        say!("seed {seed}: {start}: value {value:+} in {elapsed:.3?} ({threads} thread(s), {table_mib} MiB)");
    }
    times.sort_by(f64::total_cmp);
    let middle = times.len() / 2;
    let median = if times.len() % 2 == 0 {
        (times[middle - 1] + times[middle]) / 2.0
    } else {
        times[middle]
    };
    say!("median {median:.3} s");
}

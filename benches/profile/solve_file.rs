//! Solves every position of a file exactly, one thread, a fresh table each, and prints
//! each one's value, positions visited and time, then the totals: `cargo run --release
//! --example solve_file -- FILE [TABLE_MIB]` (FILE: one position in the notation a
//! line; a table of 12 MiB by default). On one thread the counts are the same every
//! run, so a change to the search's order shows in them before any timing.

#[macro_use]
mod common;

use std::time::Instant;

use common::arg;

use buttonup::search::{Payoff, Searcher};
use buttonup::Position;

fn main() {
    let path: String = arg(1, String::new());
    let table_mib: usize = arg(2, 12);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("{path}: {error}");
            std::process::exit(2);
        }
    };
    let (mut nodes, mut seconds, mut count) = (0u64, 0.0f64, 0usize);
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let position: Position = match line.trim().parse() {
            Ok(position) => position,
            Err(error) => {
                eprintln!("{line}: {error}");
                std::process::exit(2);
            }
        };
        let mut searcher = Searcher::new(Payoff::Margin, table_mib << 20);
        let started = Instant::now();
        let value = searcher.solve(&position);
        let elapsed = started.elapsed().as_secs_f64();
        say!(
            "{position}: {value:+} {} nodes {elapsed:.3} s",
            searcher.nodes()
        );
        nodes += searcher.nodes();
        seconds += elapsed;
        count += 1;
    }
    say!("{count} positions: {nodes} nodes, {seconds:.2} s");
}

//! Random playouts for profiling and timing:
//! `cargo run --release --example playouts -- BATTLES [PER_COLOUR] [THREADS] [bitpacked]`
//! (3 of each colour and every core by default; `bitpacked` keeps the standard game off
//! the move graph).

#[macro_use]
mod common;

use std::time::Instant;

use common::arg;

use buttonup::run::parallel::default_threads;
use buttonup::sim::move_graph::MoveGraph;
use buttonup::sim::playout::{random_playouts_on, Walk};

fn main() {
    let battles: u64 = arg(1, 1_000_000);
    let per_colour: usize = arg(2, 3);
    let threads: usize = arg(3, default_threads());
    let bitpacked = std::env::args().nth(4).as_deref() == Some("bitpacked");
    let started = Instant::now();
    if let Some(graph) = MoveGraph::get(per_colour).filter(|_| !bitpacked) {
        say!(
            "move graph: {} positions, {} KiB, built in {:.2?}",
            graph.positions(),
            graph.bytes() >> 10,
            started.elapsed()
        );
    }
    let started = Instant::now();
    let walk = if bitpacked {
        Walk::Bitboard
    } else {
        Walk::Graph
    };
    let summary = match random_playouts_on(walk, battles, 1, per_colour, threads) {
        Ok(summary) => summary,
        Err(error) => {
            eprintln!("{error:?}");
            std::process::exit(2);
        }
    };
    let elapsed = started.elapsed();
    say!(
        "{} per colour, {threads} thread(s){}: {} battles, {} moves in {:.3?}: {:.1} M moves/s",
        per_colour,
        if bitpacked { ", bit-packed" } else { "" },
        summary.battles,
        summary.moves,
        elapsed,
        summary.moves as f64 / elapsed.as_secs_f64() / 1e6
    );
}

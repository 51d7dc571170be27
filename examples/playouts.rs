//! Random playouts for profiling: `cargo run --release --example playouts -- BATTLES`.

use std::time::Instant;

use buttonup::playout::random_playouts;

fn main() {
    let battles: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let started = Instant::now();
    let graph = buttonup::playout_graph::MoveGraph::get(3).expect("standard game");
    println!(
        "move graph: {} positions, {} KiB, built in {:.2?}",
        graph.positions(),
        graph.bytes() >> 10,
        started.elapsed()
    );
    let started = Instant::now();
    let summary = random_playouts(battles, 1, 3).expect("standard game");
    let elapsed = started.elapsed();
    println!(
        "{} battles, {} moves in {:.3?}: {:.1} M moves/s",
        summary.battles,
        summary.moves,
        elapsed,
        summary.moves as f64 / elapsed.as_secs_f64() / 1e6
    );
}

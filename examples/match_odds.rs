//! Prints match win probabilities: `cargo run --release --example match_odds`.

use std::time::Instant;

use buttonup::odds::BattleGraph;
use buttonup::odds::MatchOdds;
use buttonup::Player;

fn main() {
    let started = Instant::now();
    let graph = BattleGraph::new(3);
    println!(
        "graph of {} positions built in {:.2?}",
        graph.len(),
        started.elapsed()
    );
    let started = Instant::now();
    let mut odds = MatchOdds::new(15, 3).expect("standard game");
    println!(
        "table built in {:.2?} ({} graph passes)",
        started.elapsed(),
        odds.passes
    );
    for (r, b) in [(0, 0), (14, 14), (10, 0), (0, 10), (13, 14)] {
        let red = odds.win_probability(r, b, Player::Red, None);
        let black = odds.win_probability(r, b, Player::Black, None);
        println!("{r}-{b}: Red starts {red:.6}, Black starts {black:.6}");
    }
}

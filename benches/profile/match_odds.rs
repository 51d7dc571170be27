//! Prints match win probabilities: `cargo run --release --example match_odds`.

#[macro_use]
mod common;

use std::time::Instant;

use buttonup::game::standing::Standing;
use buttonup::odds::BattleGraph;
use buttonup::odds::MatchOdds;
use buttonup::Player;

fn main() {
    let started = Instant::now();
    let graph = BattleGraph::new(3);
    say!(
        "graph of {} positions built in {:.2?}",
        graph.len(),
        started.elapsed()
    );
    let started = Instant::now();
    let mut odds = MatchOdds::new(15, 3).expect("standard game");
    say!(
        "table built in {:.2?} ({} graph passes)",
        started.elapsed(),
        odds.passes
    );
    // The scores, and the loser of the latest decided battle (none at 0-0).
    for (red, black, last_loser) in [
        (0, 0, None),
        (14, 14, Some(Player::Red)),
        (10, 0, Some(Player::Black)),
        (0, 10, Some(Player::Red)),
        (13, 14, Some(Player::Red)),
    ] {
        let at = |starter| Standing::standard(red, black, last_loser, starter);
        let mut chance = |starter| match odds.win_probability(&at(starter)) {
            Ok(p) => format!("{p:.6}"),
            Err(_) => "-".to_string(),
        };
        let (due, by_red, by_black) = (
            chance(None),
            chance(Some(Player::Red)),
            chance(Some(Player::Black)),
        );
        say!(
            "{red}-{black}: Red's chance {due} (as the rules leave it), Red starts {by_red}, \
             Black starts {by_black}"
        );
    }
}

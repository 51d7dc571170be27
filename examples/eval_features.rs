//! The learned horizon estimate's features and both estimates of positions, for the
//! training script (`scripts/train_eval.py`) and its tests: each line of standard input
//! is a position in the notation; each line out is `LEARNED PROJECTION F1 F2 ...` (the
//! two estimates of the final margin, Red minus Black, then the features), or `over
//! MARGIN` for a finished battle, or `error MESSAGE`.
//!
//! `cargo run --release --features training --example eval_features < positions.txt`

#[macro_use]
mod common;

use std::io::BufRead;

use buttonup::game::notation;
use buttonup::search::training::{features, learned_margin, projected_margin};

fn main() {
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        match notation::parse(line.trim()) {
            Err(error) => say!("error {error}"),
            Ok(position) if position.is_over() => {
                say!("over {}", position.scoring().map_or(0, |s| s.margin()))
            }
            Ok(position) => {
                let values: Vec<String> = features(&position).iter().map(f32::to_string).collect();
                say!(
                    "{} {} {}",
                    learned_margin(&position),
                    projected_margin(&position),
                    values.join(" ")
                );
            }
        }
    }
}

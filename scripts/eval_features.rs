//! The network estimate's features and both estimates of positions, for the training
//! script (`scripts/train_net.py`) and its tests: each line of standard input is a
//! position in the notation; each line out is `NET PROJECTION I1 I2 ...`: the network's
//! estimate of the final margin for the side to move (before rounding), the projection
//! of the final margin (Red minus Black), then the network's active features (an index
//! as often as it is active); or `over MARGIN` for a finished battle, or `error MESSAGE`.
//!
//! `cargo run --release --features training --example eval_features < positions.txt`
//! (an example of the crate's, kept beside the training script it serves).

use std::io::{BufRead, Write};

use buttonup::game::notation;
use buttonup::search::training::{each_feature, net_value, projected_margin};

fn main() {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let answer = match notation::parse(line.trim()) {
            Err(error) => format!("error {error}"),
            Ok(position) if position.is_over() => {
                format!("over {}", position.scoring().map_or(0, |s| s.margin()))
            }
            Ok(position) => {
                let mut words = vec![
                    net_value(&position).to_string(),
                    projected_margin(&position).to_string(),
                ];
                each_feature(&position, |feature| words.push(feature.to_string()));
                words.join(" ")
            }
        };
        // A reader that went away ends the program quietly.
        if writeln!(out, "{answer}").is_err() {
            return;
        }
    }
    let _ = out.flush();
}

//! The learned horizon estimate's features and both estimates of positions, for the
//! training script (`scripts/train_eval.py`) and its tests: each line of standard input
//! is a position in the notation; each line out is `LEARNED PROJECTION F1 F2 ...` (the
//! two estimates of the final margin, Red minus Black, then the features), or `over
//! MARGIN` for a finished battle, or `error MESSAGE`. With the argument `--net`, each line
//! out is the network's estimate for the side to move (before rounding) and its active
//! features, `VALUE I1 I2 ...` (`scripts/train_net.py` and its tests).
//!
//! `cargo run --release --features training --example eval_features < positions.txt`
//! (an example of the crate's, kept beside the training script it serves).

use std::io::{BufRead, Write};

use buttonup::game::notation;
use buttonup::search::training::{each_feature, features, learned_margin, net_value, projected_margin};

fn main() {
    let net = std::env::args().nth(1).as_deref() == Some("--net");
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let answer = match notation::parse(line.trim()) {
            Err(error) => format!("error {error}"),
            Ok(position) if position.is_over() => {
                format!("over {}", position.scoring().map_or(0, |s| s.margin()))
            }
            Ok(position) if net => {
                let mut active = Vec::new();
                each_feature(&position, |feature| active.push(feature.to_string()));
                format!("{} {}", net_value(&position), active.join(" "))
            }
            Ok(position) => {
                let values: Vec<String> = features(&position).iter().map(f32::to_string).collect();
                let (learned, projected) = (learned_margin(&position), projected_margin(&position));
                format!("{learned} {projected} {}", values.join(" "))
            }
        };
        // A reader that went away ends the program quietly.
        if writeln!(out, "{answer}").is_err() {
            return;
        }
    }
    let _ = out.flush();
}

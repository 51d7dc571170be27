//! Times `VecEnv::step` alone (no Python): `cargo run --release --example vecenv_steps --
//! [GAMES] [THREADS] [obs|random|obs,random]` (`obs`: observations written; `random`:
//! `step_random`, each game drawing its pile, instead of the lowest legal pile chosen here).

mod common;

use std::time::Instant;

use common::arg;

use buttonup::sim::vecenv::{observation_len, Outputs, VecEnv};

fn main() {
    let games: usize = arg(1, 4096);
    let threads: usize = arg(2, 1);
    let how = std::env::args().nth(3).unwrap_or_default();
    let (observe, random) = (how.contains("obs"), how.contains("random"));
    let Ok(mut env) = VecEnv::new(games, 3, 1) else {
        return;
    };
    let width = env.max_piles();
    let (mut current, mut mask) = (vec![0i8; games], vec![false; games * width]);
    let (mut rewards, mut done) = (vec![0f32; games * 2], vec![false; games]);
    let mut obs = vec![0i8; games * observation_len(3)];
    let mut actions = vec![0i64; games];
    let _ = env.observe(
        Outputs {
            current_player: &mut current,
            legal_action_mask: &mut mask,
            rewards: &mut rewards,
            terminated: &mut done,
            observation: None,
        },
        threads,
    );
    let steps = 2000;
    let started = Instant::now();
    for _ in 0..steps {
        if random {
            let out = Outputs {
                current_player: &mut current,
                legal_action_mask: &mut mask,
                rewards: &mut rewards,
                terminated: &mut done,
                observation: observe.then_some(obs.as_mut_slice()),
            };
            if let Err(error) = env.step_random(None, out, threads) {
                eprintln!("{error}");
                return;
            }
            continue;
        }
        for (g, action) in actions.iter_mut().enumerate() {
            let row = &mask[g * width..(g + 1) * width];
            *action = row.iter().position(|&m| m).unwrap_or(0) as i64;
        }
        let out = Outputs {
            current_player: &mut current,
            legal_action_mask: &mut mask,
            rewards: &mut rewards,
            terminated: &mut done,
            observation: observe.then_some(obs.as_mut_slice()),
        };
        if let Err(error) = env.step(&actions, out, threads) {
            eprintln!("{error}");
            return;
        }
    }
    let elapsed = started.elapsed();
    let rate = (steps * games) as f64 / elapsed.as_secs_f64();
    println!(
        "{games} games, {threads} threads, obs {observe}, random {random}: {:.1} M steps/s",
        rate / 1e6
    );
}

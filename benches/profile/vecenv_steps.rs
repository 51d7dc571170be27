//! Times `VecEnv::step` alone (no Python): `cargo run --release --example vecenv_steps --
//! [GAMES] [THREADS] [obs|random|obs,random]` (`obs`: observations written; `random`:
//! `step_random`, each game drawing its pile, instead of the lowest legal pile chosen here).

#[macro_use]
mod common;

use std::time::Instant;

use common::arg;

use buttonup::sim::buffers::Buffers;
use buttonup::sim::vecenv::VecEnv;

fn main() {
    let games: usize = arg(1, 4096);
    let threads: usize = arg(2, 1);
    let how = std::env::args().nth(3).unwrap_or_default();
    let (observe, random) = (how.contains("obs"), how.contains("random"));
    let Ok(mut env) = VecEnv::new(games, 3, 1) else {
        return;
    };
    let width = env.max_piles();
    let mut out = Buffers::new(&env, observe);
    let mut actions = vec![0i64; games];
    let _ = env.observe(out.outputs(), threads);
    let steps = 2000;
    let started = Instant::now();
    for _ in 0..steps {
        let done = if random {
            env.step_random(None, out.outputs(), threads)
                .map_err(|e| e.to_string())
        } else {
            for (action, row) in actions.iter_mut().zip(out.mask.chunks(width)) {
                *action = row.iter().position(|&m| m).unwrap_or(0) as i64;
            }
            env.step(&actions, out.outputs(), threads)
                .map_err(|e| e.to_string())
        };
        if let Err(error) = done {
            eprintln!("{error}");
            return;
        }
    }
    let elapsed = started.elapsed();
    let rate = (steps * games) as f64 / elapsed.as_secs_f64();
    say!(
        "{games} games, {threads} threads, obs {observe}, random {random}: {:.1} M steps/s",
        rate / 1e6
    );
}

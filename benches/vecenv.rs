//! Criterion benchmarks of the batched environment's step, no Python:
//! `cargo bench --bench vecenv`. The actions are the lowest legal pile of each game,
//! read from the last mask inside the timing (as a caller would); the environment's
//! worker threads are made before it.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

use buttonup::game::rng::{random_start, SplitMix64};
use buttonup::sim::buffers::Buffers;
use buttonup::sim::vecenv::VecEnv;
use buttonup::{Player, Position};

fn steps(c: &mut Criterion) {
    let games = 4096;
    let mut group = c.benchmark_group("VecEnv step");
    group.throughput(Throughput::Elements(games as u64));
    group.measurement_time(Duration::from_secs(3));
    for observe in [false, true] {
        for threads in [1, 2] {
            let mut env = VecEnv::new(games, 3, 1).expect("standard game");
            let width = env.max_piles();
            let mut out = Buffers::new(&env, observe);
            let mut actions = vec![0i64; games];
            env.observe(out.outputs(), threads).expect("no panic");
            let kind = if observe {
                "observations"
            } else {
                "masks only"
            };
            group.bench_function(format!("4096 games, {kind}, {threads} thread(s)"), |b| {
                b.iter(|| {
                    for (action, row) in actions.iter_mut().zip(out.mask.chunks(width)) {
                        *action = row.iter().position(|&m| m).unwrap_or(0) as i64;
                    }
                    env.step(&actions, out.outputs(), threads)
                        .expect("legal actions")
                })
            });
        }
    }
    // Each game's pile drawn in Rust (`step_random`), masks only.
    for threads in [1, 2] {
        let mut env = VecEnv::new(games, 3, 1).expect("standard game");
        let mut out = Buffers::new(&env, false);
        let mut chosen = vec![0i64; games];
        let name = format!("4096 games, masks only, step_random, {threads} thread(s)");
        group.bench_function(name, |b| {
            b.iter(|| {
                env.step_random(Some(&mut chosen), out.outputs(), threads)
                    .expect("no panic")
            })
        });
    }
    // The floor: the same games, each move played and its legal moves found, nothing
    // written but the positions (a finished battle dealt again, as in the step).
    let mut rng = SplitMix64::new(1);
    let mut positions: Vec<Position> = (0..games)
        .map(|_| random_start(3, Player::Red, &mut rng).expect("standard game"))
        .collect();
    group.bench_function("4096 games, the moves alone (no outputs, 1 thread)", |b| {
        b.iter(|| {
            for position in positions.iter_mut() {
                *position = if position.is_over() {
                    random_start(3, Player::Red, &mut rng).expect("standard game")
                } else {
                    let pile = position.legal_move_mask().trailing_zeros() as usize;
                    position.play_unchecked(pile).position
                };
            }
            black_box(&positions);
        })
    });
    group.finish();
}

criterion_group!(benches, steps);
criterion_main!(benches);

//! Criterion benchmarks of the batched environment's step, no Python:
//! `cargo bench --bench vecenv`. The actions are the lowest legal pile of each game,
//! chosen outside the timing; the environment's worker threads are made before it.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

use buttonup::game::rng::{random_start, SplitMix64};
use buttonup::sim::vecenv::{observation_len, Outputs, VecEnv};
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
            let (mut current, mut mask) = (vec![0i8; games], vec![false; games * width]);
            let (mut rewards, mut done) = (vec![0f32; games * 2], vec![false; games]);
            let mut obs = vec![
                0i8;
                if observe {
                    games * observation_len(3)
                } else {
                    0
                }
            ];
            let mut actions = vec![0i64; games];
            let first = Outputs {
                current_player: &mut current,
                legal_action_mask: &mut mask,
                rewards: &mut rewards,
                terminated: &mut done,
                observation: observe.then_some(obs.as_mut_slice()),
            };
            env.observe(first, threads).expect("no panic");
            let kind = if observe {
                "observations"
            } else {
                "masks only"
            };
            group.bench_function(format!("4096 games, {kind}, {threads} thread(s)"), |b| {
                b.iter(|| {
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
                    env.step(&actions, out, threads).expect("legal actions")
                })
            });
        }
    }
    // Each game's pile drawn in Rust (`step_random`), masks only.
    for threads in [1, 2] {
        let mut env = VecEnv::new(games, 3, 1).expect("standard game");
        let width = env.max_piles();
        let (mut current, mut mask) = (vec![0i8; games], vec![false; games * width]);
        let (mut rewards, mut done) = (vec![0f32; games * 2], vec![false; games]);
        let mut chosen = vec![0i64; games];
        let name = format!("4096 games, masks only, step_random, {threads} thread(s)");
        group.bench_function(name, |b| {
            b.iter(|| {
                let out = Outputs {
                    current_player: &mut current,
                    legal_action_mask: &mut mask,
                    rewards: &mut rewards,
                    terminated: &mut done,
                    observation: None,
                };
                env.step_random(Some(&mut chosen), out, threads)
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

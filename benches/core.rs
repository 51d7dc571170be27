//! Criterion benchmarks of the Rust core: `cargo bench --bench core`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};

use buttonup::game::notation::parse;
use buttonup::game::perft::{perft, perft_plain};
use buttonup::game::rng::{random_start, SplitMix64};
use buttonup::game::variant::{buttons, start_positions};
use buttonup::search::batch::{perft_many, solve_many};
use buttonup::search::{Limits, Payoff, Searcher};
use buttonup::sim::playout::{random_playouts, random_playouts_on, Walk};
use buttonup::Player;

fn moves(c: &mut Criterion) {
    let start = parse("W/R/B/W/B/R/R/W/B r").unwrap();
    let middle = parse("BR/RB/RW/WW/B r").unwrap();
    c.bench_function("play (start, move 3)", |b| {
        b.iter(|| black_box(&start).play_unchecked(black_box(3)))
    });
    c.bench_function("play (overflow)", |b| {
        let p = parse("RBWRB/W/R b").unwrap();
        b.iter(|| black_box(&p).play_unchecked(black_box(0)))
    });
    c.bench_function("legal moves", |b| {
        b.iter(|| black_box(&middle).legal_move_mask())
    });
}

fn perft_all(c: &mut Criterion) {
    let starts = start_positions(3, Player::Red).expect("standard game");
    let mut group = c.benchmark_group("perft");
    group.sample_size(20);
    group.bench_function("all 1680 starts to the end", |b| {
        b.iter(|| starts.iter().map(|s| perft(s, 8)).sum::<u64>())
    });
    group.bench_function("all 1680 starts to the end, every move played", |b| {
        b.iter(|| starts.iter().map(|s| perft_plain(s, 8)).sum::<u64>())
    });
    for threads in [1, 2] {
        group.bench_function(
            format!("perft_many, all 1680 starts, {threads} thread(s)"),
            |b| b.iter(|| perft_many(&starts, 8, threads).unwrap()),
        );
    }
    group.finish();
}

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("random playouts");
    group.throughput(criterion::Throughput::Elements(8 * 10_000));
    group.bench_function("10000 standard battles, move graph, 1 thread", |b| {
        b.iter(|| random_playouts(10_000, black_box(7), 3, 1).unwrap())
    });
    group.bench_function("10000 standard battles, bit-packed, 1 thread", |b| {
        b.iter(|| random_playouts_on(Walk::Bitboard, 10_000, black_box(7), 3, 1).unwrap())
    });
    for per_colour in [4, 5, 6, 8] {
        let moves = 10_000 * (buttons(per_colour) as u64 - 1);
        group.throughput(criterion::Throughput::Elements(moves));
        for threads in [1, 2] {
            group.bench_function(
                format!(
                    "10000 battles, {per_colour} of each colour, bit-packed, {threads} thread(s)"
                ),
                |b| b.iter(|| random_playouts(10_000, black_box(7), per_colour, threads).unwrap()),
            );
        }
    }
    group.finish();
}

fn solving(c: &mut Criterion) {
    let starts: Vec<_> = [Player::Red, Player::Black]
        .into_iter()
        .flat_map(|side| start_positions(3, side).expect("standard game"))
        .collect();
    let mut group = c.benchmark_group("solve");
    group.sample_size(20);
    group.bench_function(
        "every standard start, both sides (fresh 16 MiB table)",
        |b| {
            b.iter_batched(
                || Searcher::new(Payoff::Margin, 16 << 20),
                |mut searcher| starts.iter().map(|s| searcher.solve(s) as i64).sum::<i64>(),
                BatchSize::LargeInput,
            )
        },
    );
    group.bench_function(
        "every standard start, both sides, independently (cleared 256 KiB table)",
        |b| {
            let mut searcher = Searcher::new(Payoff::Margin, 256 << 10);
            b.iter(|| {
                starts
                    .iter()
                    .map(|s| {
                        searcher.clear();
                        searcher.solve(s) as i64
                    })
                    .sum::<i64>()
            })
        },
    );
    let four: Vec<_> = start_positions(4, Player::Red).expect("4 of each colour")[..4000].to_vec();
    for threads in [1, 2] {
        group.bench_function(
            format!("solve_many, 4000 starts of 4 per colour, {threads} thread(s)"),
            |b| b.iter(|| solve_many(&four, 16 << 20, threads).unwrap()),
        );
    }
    for per_colour in [4, 5, 6] {
        let start = random_start(per_colour, Player::Red, &mut SplitMix64::new(1)).unwrap();
        if per_colour == 6 {
            group
                .sample_size(10)
                .measurement_time(Duration::from_secs(20));
        }
        group.bench_function(format!("one start, {per_colour} of each colour"), |b| {
            b.iter_batched(
                || Searcher::new(Payoff::Margin, 64 << 20),
                |mut searcher| searcher.search(&start, &Limits::default()).value,
                BatchSize::LargeInput,
            )
        });
    }
    group.finish();
    let mut group = c.benchmark_group("solve, 8 of each colour");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(30));
    let start = random_start(8, Player::Red, &mut SplitMix64::new(1)).unwrap();
    for threads in [1, 2] {
        group.bench_function(
            format!("seed 1, Searcher::with_threads, 12 MiB, {threads} thread(s)"),
            |b| {
                b.iter(|| {
                    let mut searcher = Searcher::with_threads(12 << 20, threads).unwrap();
                    searcher.solve(&start)
                })
            },
        );
    }
    group.bench_function("seed 1, Searcher::solve, 16 MiB, 1 thread", |b| {
        b.iter_batched(
            || Searcher::new(Payoff::Margin, 16 << 20),
            |mut searcher| searcher.solve(&start),
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

criterion_group!(benches, moves, perft_all, playouts, solving);
criterion_main!(benches);

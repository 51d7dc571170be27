//! The fast and portable copies of a batched environment's work, step by step.

use crate::game::rng::SplitMix64;
use crate::game::rules::Player;
use crate::sim::buffers::Buffers;
use crate::sim::opponent::OpponentKind;
use crate::sim::vecenv::VecEnv;

/// Steps `fast` (the copy this processor runs fastest) and `portable` (the copy for
/// any processor) with the same random legal actions, asserting equal outputs.
fn same_outputs(mut fast: VecEnv, mut portable: VecEnv, threads: usize, seed: u64) {
    portable.set_portable(true);
    let (mut a, mut b) = (Buffers::new(&fast, true), Buffers::new(&portable, true));
    fast.observe(a.outputs(), threads).unwrap();
    portable.observe(b.outputs(), threads).unwrap();
    assert_eq!(a, b);
    let width = fast.max_piles();
    let mut rng = SplitMix64::new(seed);
    let mut ends = 0;
    for step in 0..150 {
        let actions: Vec<i64> = a
            .mask
            .chunks(width)
            .map(|row| {
                let legal: Vec<usize> = (0..width).filter(|&p| row[p]).collect();
                match legal.len() {
                    0 => 0,
                    n => legal[rng.below(n as u64) as usize] as i64,
                }
            })
            .collect();
        if step % 4 == 1 {
            // Random steps: legal piles drawn alike by both copies.
            let before = a.mask.clone();
            let (mut mine, mut theirs) = (vec![7; actions.len()], vec![7; actions.len()]);
            fast.step_random(Some(&mut mine), a.outputs(), threads)
                .unwrap();
            portable
                .step_random(Some(&mut theirs), b.outputs(), threads)
                .unwrap();
            assert_eq!(mine, theirs, "random step {step}");
            for (g, &pile) in mine.iter().enumerate() {
                let row = &before[g * width..(g + 1) * width];
                let none = !row.contains(&true);
                assert!(none == (pile == -1), "game {g}: {pile} with mask {row:?}");
                assert!(
                    pile == -1 || row[pile as usize],
                    "game {g}: pile {pile} illegal"
                );
            }
        } else {
            fast.step(&actions, a.outputs(), threads).unwrap();
            portable.step(&actions, b.outputs(), threads).unwrap();
        }
        assert_eq!(a, b, "step {step}");
        ends += a.done.iter().filter(|&&d| d).count();
        if step % 7 == 3 {
            fast.restart_finished(a.outputs(), threads).unwrap();
            portable.restart_finished(b.outputs(), threads).unwrap();
            assert_eq!(a, b, "restart after step {step}");
        }
    }
    assert!(ends > 0, "some battles end");
}

#[test]
fn the_fast_and_portable_copies_give_the_same_outputs() {
    for (per_colour, seed) in [(1, 0), (2, 1), (3, 2), (3, 3), (6, 4), (10, 5)] {
        let make = || VecEnv::new(300, per_colour, seed).unwrap();
        same_outputs(make(), make(), 1 + seed as usize % 2, seed);
    }
    let level = OpponentKind::for_level(1).unwrap();
    let make = || VecEnv::against(300, 3, 7, Player::Black, level).unwrap();
    same_outputs(make(), make(), 1, 7);
}

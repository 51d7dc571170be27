//! The batched environment's writes by changes against full writes, and its kept
//! threads against one thread: the same outputs, step by step, over many seeds.

use buttonup::game::rng::SplitMix64;
use buttonup::sim::buffers::Buffers;
use buttonup::sim::vecenv::{encode_for, observation_len, VecEnv};
use buttonup::Player;

/// Random legal actions from the masks (0 where none).
fn actions(mask: &[bool], width: usize, rng: &mut SplitMix64) -> Vec<i64> {
    mask.chunks(width)
        .map(|row| {
            let legal: Vec<usize> = (0..width).filter(|&p| row[p]).collect();
            if legal.is_empty() {
                0
            } else {
                legal[rng.below(legal.len() as u64) as usize] as i64
            }
        })
        .collect()
}

#[test]
fn writes_by_changes_on_kept_threads_equal_full_writes_on_one() {
    for seed in 0..6u64 {
        for per_colour in [1, 3, 5] {
            let games = 1100; // two parts: a thread each (from 1,024 games with observations)
            let mut changed = VecEnv::new(games, per_colour, seed).unwrap();
            let mut full = VecEnv::new(games, per_colour, seed).unwrap();
            let width = changed.max_piles();
            let mut kept = Buffers::new(&changed, true);
            changed.observe(kept.outputs(), 2).unwrap();
            let mut rng = SplitMix64::new(seed);
            for step in 0..(8 * per_colour as u64 + 6) {
                let acts = actions(&kept.mask, width, &mut rng);
                changed.step(&acts, kept.outputs(), 2).unwrap();
                // New buffers every step: written in full, on one thread.
                let mut fresh = Buffers::new(&full, true);
                full.forget_outputs();
                full.step(&acts, fresh.outputs(), 1).unwrap();
                assert!(
                    kept == fresh,
                    "seed {seed}, {per_colour} a colour, step {step}"
                );
                if step % 5 == 0 {
                    changed.restart_finished(kept.outputs(), 2).unwrap();
                    full.restart_finished(fresh.outputs(), 1).unwrap();
                    let mut again = Buffers::new(&full, true);
                    full.forget_outputs();
                    full.observe(again.outputs(), 1).unwrap();
                    assert_eq!(kept.obs, again.obs);
                    assert_eq!(kept.mask, again.mask);
                }
            }
            assert_eq!(changed.pool_threads(), 2);
            let cells = observation_len(per_colour);
            let mut plain = vec![0; cells];
            for (g, position) in changed.positions().enumerate() {
                encode_for(&position, position.to_move(), &mut plain);
                assert_eq!(plain, kept.obs[g * cells..(g + 1) * cells]);
            }
        }
    }
}

#[test]
fn the_single_agent_form_is_the_same_on_kept_threads() {
    use buttonup::sim::opponent::OpponentKind;
    let level = OpponentKind::for_level(1).unwrap();
    let mut one = VecEnv::against(1100, 3, 4, Player::Red, level).unwrap();
    let mut two = VecEnv::against(1100, 3, 4, Player::Red, level).unwrap();
    let (mut a, mut b) = (Buffers::new(&one, true), Buffers::new(&two, true));
    one.observe(a.outputs(), 1).unwrap();
    two.observe(b.outputs(), 2).unwrap();
    let mut rng = SplitMix64::new(4);
    for _ in 0..60 {
        let acts = actions(&a.mask, one.max_piles(), &mut rng);
        one.step(&acts, a.outputs(), 1).unwrap();
        two.step(&acts, b.outputs(), 2).unwrap();
        one.restart_finished(a.outputs(), 1).unwrap();
        two.restart_finished(b.outputs(), 2).unwrap();
        assert_eq!(a, b);
    }
    let cells = observation_len(3);
    let mut plain = vec![0; cells];
    for (g, position) in two.positions().enumerate() {
        encode_for(&position, Player::Red, &mut plain);
        assert_eq!(plain, b.obs[g * cells..(g + 1) * cells]);
    }
}

#[test]
fn a_reset_with_one_seed_a_game_deals_each_game_from_its_own_seed() {
    let seeds = [1u64, 99, 98, 97];
    let mut each = VecEnv::new(4, 3, 0).unwrap();
    each.reset_each(&seeds).unwrap();
    let dealt: Vec<_> = each.positions().collect();
    for (g, &seed) in seeds.iter().enumerate() {
        let alone = VecEnv::new(1, 3, seed).unwrap();
        assert_eq!(dealt[g], alone.positions().next().unwrap(), "game {g}");
    }
    let mut other = VecEnv::new(4, 3, 0).unwrap();
    other.reset_each(&[1, 2, 3, 4]).unwrap();
    let again: Vec<_> = other.positions().collect();
    assert_eq!(again[0], dealt[0]);
    assert_ne!(again[1..], dealt[1..]);
}

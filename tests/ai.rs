//! The level scale of `buttonup::ai`, checked against a plain minimax written from the
//! rules alone (tests/common: no table, no ordering).

mod common;

use buttonup::ai::{Bot, Level};
use buttonup::game::notation;
use buttonup::game::rng::{random_start, SplitMix64};
use buttonup::search::Limits;
use buttonup::{Match, Player, Position};
use common::minimax;

fn move_values(position: &Position) -> Vec<(usize, i32)> {
    position
        .legal_moves()
        .map(|mv| {
            let next = position.play(mv).unwrap().position;
            let v = minimax(&next);
            (
                mv,
                if next.to_move() == position.to_move() {
                    v
                } else {
                    -v
                },
            )
        })
        .collect()
}

fn starts(count: u64) -> Vec<Position> {
    (0..count)
        .map(|seed| random_start(3, Player::Red, &mut SplitMix64::new(seed)).unwrap())
        .collect()
}

#[test]
fn level_9_plays_the_lowest_numbered_perfect_move_and_level_1_every_move() {
    for start in starts(12) {
        let mut position = start;
        let mut perfect = Bot::new(9, 3).unwrap();
        let mut on_thread = Bot::new(9, 4).unwrap().on_thread_table();
        while !position.is_over() {
            let values = move_values(&position);
            let top = values.iter().map(|v| v.1).max().unwrap();
            // The one tie rule: of the best moves, the lowest-numbered.
            let first_best = values.iter().find(|v| v.1 == top).unwrap().0;
            for bot in [&mut perfect, &mut on_thread] {
                assert_eq!(bot.choose(&position, None), Some(first_best), "{position}");
                assert!(!bot.last_random());
                assert!(bot.last_search().is_some_and(|s| s.exact));
            }
            position = position.play(values[0].0).unwrap().position;
        }
        assert_eq!(perfect.choose(&position, None), None);
    }
    let start = notation::parse("W/R/B/W/B/R/R/W/B r").unwrap();
    let mut random = Bot::new(1, 5).unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..200 {
        seen.insert(random.choose(&start, None).unwrap());
        assert!(random.last_random());
    }
    assert_eq!(seen.into_iter().collect::<Vec<_>>(), vec![0, 3, 7]);
}

#[test]
fn noisy_levels_play_their_share_of_random_moves_and_repeat_by_seed() {
    let start = notation::parse("W/R/B/W/B/R/R/W/B r").unwrap();
    for level in 2..=8 {
        let mut bot = Bot::new(level, 11).unwrap();
        let draws = 4000;
        let random = (0..draws)
            .filter(|_| {
                bot.choose(&start, None).unwrap();
                bot.last_random()
            })
            .count() as f64;
        let epsilon = Level::new(level).unwrap().epsilon();
        // Four standard deviations of a binomial count.
        let spread = 4.0 * (draws as f64 * epsilon * (1.0 - epsilon)).sqrt();
        assert!(
            (random - draws as f64 * epsilon).abs() <= spread,
            "level {level}: {random}"
        );
        let moves = |seed| {
            let mut bot = Bot::new(level, seed).unwrap();
            (0..50)
                .map(|_| bot.choose(&start, None).unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(moves(1), moves(1));
    }
}

#[test]
fn limits_hold_at_every_level() {
    let start = random_start(8, Player::Red, &mut SplitMix64::new(1)).unwrap();
    for level in [5, 9, 10] {
        let mut bot = Bot::new(level, 0).unwrap();
        bot.set_limits(Limits {
            depth: Some(2),
            ..Limits::default()
        });
        let mv = bot.choose(&start, None).unwrap();
        assert!(start.is_legal(mv));
        if let Some(search) = bot.last_search() {
            assert_eq!(search.depth, 2);
            assert!(!search.exact);
        }
    }
}

#[test]
fn level_10_plays_a_whole_match_and_chooses_starters() {
    let mut game = Match::new(Player::Red, 7, 3, 4, &[]).unwrap();
    let mut bots = [Bot::new(10, 1).unwrap(), Bot::new(9, 2).unwrap()];
    let mut moves = 0;
    while game.winner().is_none() {
        if let Some(chooser) = game.chooser() {
            let bot = &mut bots[usize::from(chooser == Player::Black)];
            let starter = bot.choose_starter(&game);
            game.choose_starter(starter).unwrap();
            continue;
        }
        let position = game.position();
        let bot = &mut bots[usize::from(position.to_move() == Player::Black)];
        let mv = bot.choose(&position, Some(&game)).unwrap();
        game.play(mv).unwrap();
        moves += 1;
        assert!(moves < 10_000);
    }
    assert!(!game.battles().is_empty());
}

/// Stops `bot` 100 ms into its move from `start` and checks that a legal move came soon
/// after (a generous bound on a shared machine: without the stop, minutes).
fn assert_a_stop_ends_the_move(mut bot: Bot, start: &Position) {
    let stop = bot.stop_flag();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(100));
        stop.store(true, std::sync::atomic::Ordering::SeqCst);
        std::time::Instant::now()
    });
    let mv = bot.choose(start, None).unwrap();
    let late = std::time::Instant::now().saturating_duration_since(stopper.join().unwrap());
    assert!(start.is_legal(mv));
    assert!(
        late < std::time::Duration::from_secs(10),
        "{late:?} after the stop"
    );
}

/// Plays a battle from `position` with `bot` on both sides, each move checked to be a
/// best move by a fresh exact analysis on one thread (and, if `searched`, to come from
/// a search that reached the end).
fn assert_plays_best_moves(bot: &mut Bot, mut position: Position, searched: bool) {
    while !position.is_over() {
        let mv = bot.choose(&position, None).unwrap();
        assert!(!searched || bot.last_search().unwrap().exact);
        let values = buttonup::search::analyze(&position, 1).unwrap();
        let best = values.iter().map(|&(_, v)| v).max().unwrap();
        assert!(
            values.contains(&(mv, best)),
            "{position}: {mv} of {values:?}"
        );
        position = position.play(mv).unwrap().position;
    }
}

#[test]
fn a_stop_ends_an_exact_move_solved_on_several_threads() {
    // 30 piles: an exact move is solved on two threads, for minutes. The bot's stop must
    // reach every lane, so that the move comes at once (it had not come 20 s after the stop).
    let start = random_start(10, Player::Red, &mut SplitMix64::new(3)).unwrap();
    let mut bot = Bot::new(9, 1).unwrap();
    bot.set_threads(2);
    assert_a_stop_ends_the_move(bot, &start);
}

#[test]
fn a_bot_keeps_its_exact_table_from_move_to_move_and_still_plays_perfectly() {
    // 18 piles: the moves are solved on two threads, in the table the bot keeps.
    let position = random_start(6, Player::Red, &mut SplitMix64::new(11)).unwrap();
    let mut bot = Bot::new(9, 4).unwrap();
    bot.set_threads(2);
    assert_plays_best_moves(&mut bot, position, false);
}

#[test]
fn searches_within_a_time_on_two_threads_play_best_moves_and_stop() {
    // 18 piles: a search within a time runs on both threads (Lazy SMP) on the bot's own
    // table or its thread's; with time to spare it is exact, so every move is a best one.
    let within = Limits {
        time: Some(std::time::Duration::from_secs(60)),
        ..Limits::default()
    };
    for thread_table in [false, true] {
        let position = random_start(6, Player::Red, &mut SplitMix64::new(12)).unwrap();
        let mut bot = Bot::new(9, 4).unwrap();
        if thread_table {
            bot = bot.on_thread_table();
        }
        bot.set_threads(2);
        bot.set_limits(within);
        assert_plays_best_moves(&mut bot, position, true);
    }
    // 30 piles within a minute: a stop ends the search and its helper at once.
    let start = random_start(10, Player::Red, &mut SplitMix64::new(3)).unwrap();
    let mut bot = Bot::new(9, 1).unwrap();
    bot.set_threads(2);
    bot.set_limits(within);
    assert_a_stop_ends_the_move(bot, &start);
}

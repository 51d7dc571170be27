//! Match records (docs/notation.md, "Match records"): texts written by hand, read and
//! written, and the faults a reader names.

use buttonup::game::record::{self, Notes, Place, RecordError};
use buttonup::{Match, Player};

/// The perfect battle of docs/rules.md, as a record of a match to 1 point.
const PERFECT: &str = "\
[Event \"docs/rules.md\"]
[Date \"?\"]
[Red \"?\"]
[Black \"?\"]
[Target \"1\"]
[PerColour \"3\"]
[Seed \"0\"]
[Score \"1-0\"]
[Result \"Red\"]

1. WRBWBRRWB r 3 0 0+ 1+ 3 3 2+ 0 RBWWBRWBR R+1 1-0
";

#[test]
fn the_perfect_battle_reads_and_writes_back_the_same() {
    let read = record::read(PERFECT).unwrap();
    assert_eq!(read.game.winner(), Some(Player::Red));
    assert_eq!(read.game.battles()[0].moves, vec![3, 0, 0, 1, 3, 3, 2, 0]);
    assert_eq!(read.game.battles()[0].last.to_string(), "RBWWBRWBR b");
    assert_eq!(
        read.tags[0],
        ("Event".to_string(), "docs/rules.md".to_string())
    );
    let text = record::write(&read.game, &read.tags, &read.notes, true).unwrap();
    assert_eq!(text, PERFECT);
}

#[test]
fn a_match_in_play_is_written_with_its_current_battle_and_seed() {
    let mut game = Match::new(Player::Black, 15, 3, 99, &[]).unwrap();
    let first = game.legal_moves()[0];
    game.play(first).unwrap();
    let text = record::write(&game, &[], &Notes::default(), true).unwrap();
    let start: String = game.start().buttons().map(|c| c.letter()).collect();
    assert!(text.contains("[Seed \"99\"]\n"), "{text}");
    assert!(text.contains("[Result \"*\"]\n"), "{text}");
    assert!(
        text.ends_with(&format!("\n1. {start} b {first}\n")),
        "{text}"
    );
    let back = record::read(&text).unwrap().game;
    assert_eq!(back.position(), game.position());
    assert_eq!(back.seed(), 99);
}

#[test]
fn comments_and_values_stand_where_they_were_written() {
    let text = "{a match} 1. WRBWBRRWB r {dealt} 3 (+1) {best} 0 (-1) 0+ 1+ 3 3 2+ 0 \
                RBWWBRWBR R+1 1-0 {close}";
    let read = record::read(text).unwrap();
    assert_eq!(
        read.notes.comments,
        vec![
            (Place::Match, "a match".to_string()),
            (Place::Start(1), "dealt".to_string()),
            (Place::Move(1, 0), "best".to_string()),
            (Place::End(1), "close".to_string()),
        ]
    );
    assert_eq!(read.notes.values, vec![((1, 0), 1.0), ((1, 1), -1.0)]);
    let written = record::write(&read.game, &[], &read.notes, false).unwrap();
    let expected = "{a match}\n1. WRBWBRRWB r {dealt} 3 (+1) {best} 0 (-1) 0+ 1+ 3 3 2+ 0 \
                    RBWWBRWBR R+1 1-0\n  {close}\n2. ";
    assert!(written.contains(expected), "{written}");
    let again = record::read(&written).unwrap();
    assert_eq!(again.notes, read.notes);
}

/// The message of the fault in `text`.
fn fault(text: &str) -> String {
    match record::read(text) {
        Err(error @ RecordError::At { .. }) => error.to_string(),
        other => panic!("{text:?} gave {other:?}"),
    }
}

#[test]
fn faults_name_their_line_and_token() {
    let cases = [
        ("[Target \"1\"]\n\n1. WRBWBRRWB r 3 0 0 1", "line 3, at '0': 0 gives an extra move in RW/B/BW/R/R/W/B r: it is written 0+"),
        ("1. WRBWBRRWB r 3\n 0+", "line 2, at '0+': 0 gives no extra move in W/R/B/BW/R/R/W/B b: it is written 0, without '+'"),
        ("1. WRBWBRRWB r 1", "line 1, at '1': pile 1 (R) has no white button"),
        ("1. WRBWBRRWB r 30", "line 1, at '30': there is no pile 30: the piles are numbered 0 to 8"),
        ("1. WRBWBRRWB r 3 0 0+ 1+ 3 3 2+ 0 RBWWBRWBR R+2", "line 1, at 'R+2': battle 1 ends with Red 16 and Black 15: its result is R+1"),
        ("1. WRBWBRRWB r 3 0 0+ 1+ 3 3 2+ 0 RBWWBRWBR R+1 0-1", "line 1, at '0-1': the score after battle 1 is 1-0"),
        ("1. WRBWBRRWB r 3 0 0+ 1+ 3 3 2+ 0 RBWWBRWBB R+1", "line 1, at 'RBWWBRWBB': battle 1 ends in the pile RBWWBRWBR, not RBWWBRWBB"),
        ("1. WRBWBRRWB r 3 0 0+ 1+ 3 3 2+ 0 1", "line 1, at '1': battle 1 is over after 8 moves: its result comes next"),
        ("1. WRBWBRRWB r 3 0 0+ 1+ 3 3 2+ 0", "at the end of the record: battle 1 is over: its result, R+1, follows its last move"),
        ("1. WRBWBRRWB r 3 0 R+1", "line 1, at 'R+1': battle 1 is not over: 7 piles are left"),
        ("1. WRBWBRRWB r 3\n2. WRBWBRRWB b", "line 2, at '2.': battle 1 is not over (8 piles are left), so battle 2 cannot start"),
        ("1. WRBWBRRWB r 3 0 0+ 1+ 3 3 2+ 0 R+1\n2. WRBWBRRWB r", "line 2, at 'r': Black starts battle 2, not Red (Black is behind 1-0)"),
        ("[Target \"1\"]\n1. WRBWBRRWB r 3 0 0+ 1+ 3 3 2+ 0 R+1\n2. WRBWBRRWB b", "line 3, at '2.': the match is over: Red won 1-0, so there is no battle 2"),
        ("1. WRBWBRRWB r 3 0 0+ 1+ 3 3 2+ 0 R+1\n3. WRBWBRRWB b", "line 2, at '3.': battle 2 comes here, written '2.'"),
        ("1. WRBWBRRWX r", "line 1, at 'WRBWBRRWX': unknown token 'WRBWBRRWX'"),
        ("1. WRBWBRRW r", "line 1, at 'WRBWBRRW': battle 1's start does not have 3 buttons of each colour"),
        ("[Result \"Red\"]\n1. WRBWBRRWB r", "line 1, at 'Result': the match is not over: the tag Result is \"*\""),
        ("[Score \"1-0\"]\n1. WRBWBRRWB r", "line 1, at 'Score': the battles make the score 0-0, not '1-0'"),
        ("[Red \"Ann\"]\n[Red \"Bob\"]\n1. WRBWBRRWB r", "line 2, at 'Red': the tag Red is given twice"),
        ("[Target \"0\"]\n1. WRBWBRRWB r", "line 1, at 'Target': target must be from 1 to 1000, not 0"),
        ("[Red Ann]\n1. WRBWBRRWB r", "line 1, at '[Red Ann]': a tag's value is written in double quotes"),
        ("[Red \"Ann\"]\n\n", "line 1, at the end of the record: a record holds at least the start of battle 1"),
        ("1. WRBWBRRWB", "at the end of the record: battle 1's start is cut short"),
        ("1. WRBWBRRWB r (+1)", "line 1, at '(+1)': a value in parentheses comes right after its move"),
        ("1. WRBWBRRWB r 3 {open", "line 1, at '{': this comment has no closing '}'"),
        ("1. WRBWBRRWB r 3 (1e999)", "line 1, at '(1e999)': a value is a number in parentheses"),
        ("1. WRBWBRRWB r 3 (2x)", "line 1, at '(2x)': a value is a number in parentheses"),
        ("1. WRBWBRRWB r 3 99999999999999999999999", "line 1, at '99999999999999999999...': there is no pile 99999999999999999999..."),
    ];
    for (text, expected) in cases {
        let message = fault(text);
        assert!(
            message.contains(expected),
            "{text:?}:\n  got      {message}\n  expected {expected}"
        );
    }
}

#[test]
fn the_tie_rules_choice_is_the_next_battles_starter() {
    // Red wins battle 1 by 1 and Black battle 2 by 1: 1-1, Red (who lost last) chooses.
    let text = "1. WRBWBRRWB r 3 0 0+ 1+ 3 3 2+ 0 R+1 1-0\n2. RWBWBRRWB b";
    let mut game = record::read(text).unwrap().game;
    while game.chooser().is_none() {
        let mv = game.legal_moves()[0];
        game.play(mv).unwrap();
    }
    let chooser = game.chooser().unwrap();
    game.choose_starter(chooser.other()).unwrap();
    let text = record::write(&game, &[], &Notes::default(), true).unwrap();
    let back = record::read(&text).unwrap().game;
    assert_eq!(back.starter(), chooser.other());
    assert_eq!(back.position(), game.position());
    assert_eq!(back.standing(), game.standing());
}

#[test]
fn writing_refuses_what_would_not_read_back() {
    let game = Match::new(Player::Red, 15, 3, 1, &[]).unwrap();
    let tag = |name: &str, value: &str| vec![(name.to_string(), value.to_string())];
    let notes = Notes::default();
    for (tags, expected) in [
        (
            tag("Target", "3"),
            "the tag Target is written from the match itself",
        ),
        (tag("red", "Ann"), "bad tag name 'red'"),
        (
            tag("Red", "Ann\nBob"),
            "one line without control characters",
        ),
    ] {
        let error = record::write(&game, &tags, &notes, true).unwrap_err();
        assert!(error.to_string().contains(expected), "{error}");
    }
    let quoted = record::write(&game, &tag("Event", "the \"big\" one \\o/"), &notes, true).unwrap();
    assert!(
        quoted.starts_with("[Event \"the \\\"big\\\" one \\\\o/\"]\n"),
        "{quoted}"
    );
    assert_eq!(
        record::read(&quoted).unwrap().tags[0].1,
        "the \"big\" one \\o/"
    );
    let bad_comment = Notes {
        comments: vec![(Place::Match, "a } brace".to_string())],
        values: Vec::new(),
    };
    assert!(record::write(&game, &[], &bad_comment, true).is_err());
    let nowhere = Notes {
        comments: Vec::new(),
        values: vec![((1, 0), 1.0)],
    };
    assert!(record::write(&game, &[], &nowhere, true).is_err());
}

#[test]
fn a_file_of_records_reads_as_many_matches() {
    let one = "[Red \"Ann\"]\n\n1. WRBWBRRWB r 3 0\n";
    let two = "[Red \"Bob\"]\n\n1. WRBWBRRWB b 3\n";
    let records = record::read_all(&format!("{one}\n{two}")).unwrap();
    assert_eq!(records.len(), 2);
    assert_eq!(records[1].tags[0].1, "Bob");
    assert_eq!(records[1].game.moves(), &[3]);
    let error =
        record::read_all(&format!("{one}\n[Red \"Cy\"]\n\n1. WRBWBRRWB b 1\n")).unwrap_err();
    assert!(error.to_string().starts_with("line 7, at '1':"), "{error}");
}

mod fuzz {
    use buttonup::game::record;
    use proptest::prelude::*;

    /// Characters that records are made of, and a few that they are not.
    const ALPHABET: &[char] = &[
        '[', ']', '"', '\\', ' ', '\n', '{', '}', '(', ')', '.', '+', '-', '=', 'e', 'R', 'B', 'W',
        'r', 'b', '0', '1', '2', '3', '7', '9', 'T', 'a', 'g', 'é', '\t',
    ];

    fn texts() -> impl Strategy<Value = String> {
        prop::collection::vec(prop::sample::select(ALPHABET), 0..200)
            .prop_map(|chars| chars.into_iter().collect())
    }

    proptest! {
        #[test]
        fn any_text_is_read_or_refused_without_a_panic(text in texts()) {
            let _ = record::read(&text);
            let _ = record::read_all(&text);
        }

        #[test]
        fn a_damaged_record_is_read_or_refused_without_a_panic(
            at in 0usize..200, cut in 0usize..4, insert in texts()
        ) {
            let good = super::PERFECT;
            let at = at.min(good.len());
            let end = (at + cut).min(good.len());
            let inserted: String = insert.chars().take(3).collect();
            let text = format!("{}{inserted}{}", &good[..at], &good[end..]);
            if let Ok(read) = record::read(&text) {
                // What reads also writes, and reads back to the same positions.
                let written = record::write(&read.game, &read.tags, &read.notes, true).unwrap();
                let again = record::read(&written).unwrap();
                prop_assert_eq!(again.game.position(), read.game.position());
            }
        }
    }
}

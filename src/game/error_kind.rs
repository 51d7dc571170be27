//! The kinds of error that a front end tells apart, decided once here for every error of
//! the core (issue 32). Each door maps a kind to its own representation one to one (a
//! Python exception class, a JavaScript error `name`, a C status, an HTTP status: the
//! table of docs/reliability.md, "Error kinds"); the message is always the error's
//! `Display`, the same through every door.

use std::fmt;

use crate::game::error::{IllegalMove, NotationError, PositionError};
use crate::game::match_rules::MatchError;
use crate::game::record::RecordError;
use crate::game::standing::StandingError;
use crate::game::variant::VariantError;

/// What kind of failure an error is: what a caller may want to tell apart.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ErrorKind {
    /// A text that is not a position or a start order in the notation (a deal included).
    Notation,
    /// A move that cannot be played: no such pile, no white button, the battle over, or
    /// a match that takes no move now (won, or a starter to choose first).
    IllegalMove,
    /// Something only a finished battle has (its scoring, its tower) asked of one that
    /// goes on.
    BattleNotOver,
    /// A request to a match, not a move, that the match rules refuse in its state (a
    /// choice of starter when none is due, an undo with nothing to take back, a standing
    /// no match can reach).
    MatchState,
    /// A text that is not a match record, or a match that cannot be written as one.
    Record,
    /// A search stopped (a `stop()`, a time limit) before it had its answer.
    SearchStopped,
    /// An argument of the right type whose value is refused: out of its range, a count
    /// of buttons a capability does not support (a variant), a level that does not exist.
    InvalidArgument,
    /// An argument of the wrong type (a NULL pointer in C).
    WrongType,
    /// Long work interrupted from outside (Ctrl-C in Python, the interruption hook).
    Interrupted,
    /// A table could not be allocated.
    Memory,
    /// A bug in buttonup (a panic caught at a boundary).
    Internal,
}

impl ErrorKind {
    /// Every kind, in the order of the docs' table.
    pub const ALL: [ErrorKind; 11] = [
        ErrorKind::Notation,
        ErrorKind::IllegalMove,
        ErrorKind::BattleNotOver,
        ErrorKind::MatchState,
        ErrorKind::Record,
        ErrorKind::SearchStopped,
        ErrorKind::InvalidArgument,
        ErrorKind::WrongType,
        ErrorKind::Interrupted,
        ErrorKind::Memory,
        ErrorKind::Internal,
    ];

    /// The kind's stable name: lowercase, words joined by `_`.
    pub const fn name(self) -> &'static str {
        match self {
            ErrorKind::Notation => "notation",
            ErrorKind::IllegalMove => "illegal_move",
            ErrorKind::BattleNotOver => "battle_not_over",
            ErrorKind::MatchState => "match_state",
            ErrorKind::Record => "record",
            ErrorKind::SearchStopped => "search_stopped",
            ErrorKind::InvalidArgument => "invalid_argument",
            ErrorKind::WrongType => "wrong_type",
            ErrorKind::Interrupted => "interrupted",
            ErrorKind::Memory => "memory",
            ErrorKind::Internal => "internal",
        }
    }

    /// The kind of a stable name.
    pub fn from_name(name: &str) -> Option<ErrorKind> {
        ErrorKind::ALL.into_iter().find(|kind| kind.name() == name)
    }
}

/// One row of the "Error kinds" table of docs/reliability.md: what each door makes of a
/// kind, its cells without backquotes. The table is the one written form of that
/// mapping; each door's tests read it (hence hidden: it serves tests, not callers).
#[doc(hidden)]
#[derive(Clone, Debug)]
pub struct DocumentedKind {
    pub kind: ErrorKind,
    pub python: String,
    pub javascript: String,
    /// The status's name and number, as `BUTTONUP_STATUS_NOTATION_ERROR (2)`.
    pub c: String,
    pub http: String,
}

impl DocumentedKind {
    /// The table's rows in `doc` (the text of docs/reliability.md), one for each kind in
    /// the order of [`ErrorKind::ALL`]; `None` unless the table names exactly those kinds
    /// in that order, each row with its six cells, and gives each kind its own Python
    /// class, JavaScript error and C status (HTTP statuses are shared).
    pub fn table(doc: &str) -> Option<Vec<DocumentedKind>> {
        let section = doc.split("## Error kinds").nth(1)?.split("\n## ").next()?;
        let rows: Vec<Vec<String>> = section
            .lines()
            .filter(|line| line.starts_with("| `"))
            .map(|row| {
                let cells = row.trim().trim_matches('|').split('|');
                cells.map(|cell| cell.trim().replace('`', "")).collect()
            })
            .collect();
        if rows.len() != ErrorKind::ALL.len() {
            return None;
        }
        let each = ErrorKind::ALL.into_iter().zip(rows).map(|(kind, row)| {
            match <[String; 6]>::try_from(row) {
                Ok([name, _what, python, javascript, c, http]) if name == kind.name() => {
                    Some(DocumentedKind {
                        kind,
                        python,
                        javascript,
                        c,
                        http,
                    })
                }
                _ => None,
            }
        });
        let table: Vec<DocumentedKind> = each.collect::<Option<_>>()?;
        let one_to_one = |cell: fn(&DocumentedKind) -> &str| {
            let distinct: std::collections::HashSet<&str> = table.iter().map(cell).collect();
            distinct.len() == table.len()
        };
        let each_its_own = one_to_one(|row| &row.python)
            && one_to_one(|row| &row.javascript)
            && one_to_one(|row| &row.c);
        each_its_own.then_some(table)
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An error of the core that knows its kind. Every error type of the core implements
/// it (here for the game's, in `crate::error_kinds` for the layers above).
pub trait HasKind: fmt::Display {
    /// What kind of failure this is.
    fn kind(&self) -> ErrorKind;
}

/// [`HasKind`] for errors that are all of one kind: `one_kind! { Error => Kind, ... }`
/// gives every `Error` the kind `ErrorKind::Kind`.
macro_rules! one_kind {
    ($($error:ty => $kind:ident),+ $(,)?) => {
        $(
            impl $crate::game::error_kind::HasKind for $error {
                fn kind(&self) -> $crate::game::error_kind::ErrorKind {
                    $crate::game::error_kind::ErrorKind::$kind
                }
            }
        )+
    };
}
pub(crate) use one_kind;

/// Refusals that are about the state of a battle rather than one move: the messages
/// every door gives for them, in one place.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BattleError {
    /// Scoring (or a tower) asked of a battle that goes on.
    NotOver,
    /// A move asked for (a best move, an engine's `go`) once the battle is over.
    NoMove,
    /// A bot asked to choose a move once the battle is over.
    NoMoveToChoose,
}

/// The words of [`BattleError::NotOver`].
pub const BATTLE_NOT_OVER: &str = "the battle is not over: it has more than one pile";
/// The words of [`BattleError::NoMove`].
pub const NO_MOVE: &str = "the battle is over: there is no move";
/// The words of [`BattleError::NoMoveToChoose`].
pub const NO_MOVE_TO_CHOOSE: &str = "the battle is over: there is no move to choose";

impl fmt::Display for BattleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BattleError::NotOver => BATTLE_NOT_OVER,
            BattleError::NoMove => NO_MOVE,
            BattleError::NoMoveToChoose => NO_MOVE_TO_CHOOSE,
        })
    }
}

impl std::error::Error for BattleError {}

impl HasKind for BattleError {
    fn kind(&self) -> ErrorKind {
        match self {
            BattleError::NotOver => ErrorKind::BattleNotOver,
            BattleError::NoMove | BattleError::NoMoveToChoose => ErrorKind::IllegalMove,
        }
    }
}

one_kind! {
    PositionError => Notation,
    NotationError => Notation,
    IllegalMove => IllegalMove,
    VariantError => InvalidArgument,
    RecordError => Record,
}

impl HasKind for StandingError {
    fn kind(&self) -> ErrorKind {
        match self {
            StandingError::BadTarget(_) => ErrorKind::InvalidArgument,
            StandingError::Variant(error) => error.kind(),
            // Requests to a match, not moves, that the match rules refuse.
            StandingError::Impossible(_)
            | StandingError::NoChoiceDue
            | StandingError::NoBattle(_) => ErrorKind::MatchState,
        }
    }
}

impl HasKind for MatchError {
    fn kind(&self) -> ErrorKind {
        match self {
            // Moves refused.
            MatchError::Over(_) | MatchError::ChooserDue(_) => ErrorKind::IllegalMove,
            MatchError::Illegal(error) => error.kind(),
            // A request to a match, not a move, that the match rules refuse.
            MatchError::NothingToUndo => ErrorKind::MatchState,
            MatchError::Standing(error) => error.kind(),
            MatchError::BadDeal { .. } => ErrorKind::Notation,
            MatchError::DealSize { .. } => ErrorKind::InvalidArgument,
            MatchError::Variant(error) => error.kind(),
            MatchError::Interrupted => ErrorKind::Interrupted,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::game::rules::Player;
    use crate::game::standing::Next;
    use crate::game::variant::Capability;

    /// The names are those of docs/reliability.md's table, in its order.
    #[test]
    fn names_are_the_documented_ones_distinct_and_read_back() {
        let table = DocumentedKind::table(include_str!("../../docs/reliability.md"));
        assert_eq!(table.map(|rows| rows.len()), Some(ErrorKind::ALL.len()));
        let names: HashSet<&str> = ErrorKind::ALL.iter().map(|k| k.name()).collect();
        assert_eq!(names.len(), ErrorKind::ALL.len());
        for kind in ErrorKind::ALL {
            assert_eq!(ErrorKind::from_name(kind.name()), Some(kind));
            assert_eq!(kind.to_string(), kind.name());
        }
        assert_eq!(ErrorKind::from_name("Notation"), None);
    }

    /// A table that is not the kinds' in order is refused, not read askew.
    #[test]
    fn a_table_out_of_order_or_short_is_not_read() {
        let doc = include_str!("../../docs/reliability.md");
        let swapped = doc
            .replacen("| `notation` |", "| `x` |", 1)
            .replacen("| `illegal_move` |", "| `notation` |", 1)
            .replacen("| `x` |", "| `illegal_move` |", 1);
        assert!(DocumentedKind::table(&swapped).is_none());
        let short = doc.replacen("| `memory` |", "| memory |", 1);
        assert!(DocumentedKind::table(&short).is_none());
        let shared = doc.replacen("| `InternalError` |", "| `MemoryError` |", 1);
        assert!(DocumentedKind::table(&shared).is_none());
        assert!(DocumentedKind::table("no table").is_none());
    }

    fn variant() -> VariantError {
        VariantError {
            capability: Capability::Rules,
            per_colour: "0".into(),
        }
    }

    #[test]
    fn every_game_error_has_its_kind() {
        use ErrorKind as K;
        let notation = NotationError::MissingSide;
        let cases: Vec<(Box<dyn HasKind>, ErrorKind)> = vec![
            (Box::new(PositionError::NoWhite), K::Notation),
            (Box::new(PositionError::EmptyPile { pile: 0 }), K::Notation),
            (Box::new(NotationError::Empty), K::Notation),
            (Box::new(notation.clone()), K::Notation),
            (Box::new(IllegalMove::BattleOver), K::IllegalMove),
            (
                Box::new(IllegalMove::NoSuchPile {
                    pile: "9".into(),
                    piles: 3,
                }),
                K::IllegalMove,
            ),
            (Box::new(variant()), K::InvalidArgument),
            (
                Box::new(StandingError::BadTarget("0".into())),
                K::InvalidArgument,
            ),
            (
                Box::new(StandingError::Variant(variant())),
                K::InvalidArgument,
            ),
            (
                Box::new(StandingError::Impossible("x".into())),
                K::MatchState,
            ),
            (Box::new(StandingError::NoChoiceDue), K::MatchState),
            (
                Box::new(StandingError::NoBattle(Next::Won(Player::Red))),
                K::MatchState,
            ),
            (Box::new(MatchError::Over(Player::Red)), K::IllegalMove),
            (
                Box::new(MatchError::ChooserDue(Player::Black)),
                K::IllegalMove,
            ),
            (
                Box::new(MatchError::Illegal(IllegalMove::BattleOver)),
                K::IllegalMove,
            ),
            (Box::new(MatchError::NothingToUndo), K::MatchState),
            (
                Box::new(MatchError::Standing(StandingError::NoChoiceDue)),
                K::MatchState,
            ),
            (
                Box::new(MatchError::Standing(StandingError::BadTarget("0".into()))),
                K::InvalidArgument,
            ),
            (
                Box::new(MatchError::BadDeal {
                    deal: 2,
                    error: notation,
                }),
                K::Notation,
            ),
            (
                Box::new(MatchError::DealSize {
                    deal: 1,
                    per_colour: 3,
                }),
                K::InvalidArgument,
            ),
            (Box::new(MatchError::Variant(variant())), K::InvalidArgument),
            (Box::new(MatchError::Interrupted), K::Interrupted),
            (Box::new(RecordError::Write("tag".into())), K::Record),
            (Box::new(BattleError::NotOver), K::BattleNotOver),
            (Box::new(BattleError::NoMove), K::IllegalMove),
            (Box::new(BattleError::NoMoveToChoose), K::IllegalMove),
        ];
        for (error, kind) in cases {
            assert_eq!(error.kind(), kind, "{error}");
        }
    }

    #[test]
    fn the_shared_messages() {
        assert_eq!(
            BattleError::NotOver.to_string(),
            "the battle is not over: it has more than one pile"
        );
        assert_eq!(
            BattleError::NoMove.to_string(),
            "the battle is over: there is no move"
        );
        assert_eq!(
            BattleError::NoMoveToChoose.to_string(),
            "the battle is over: there is no move to choose"
        );
    }
}

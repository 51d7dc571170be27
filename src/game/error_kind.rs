//! The kinds of error that a front end tells apart, one for every error of the core
//! (each error's own is given beside it). Each door maps a kind to its own representation one to one (a
//! Python exception class, a JavaScript error `name`, a C status, an HTTP status: the
//! table of docs/reliability.md, "Error kinds"); the message is always the error's
//! `Display`, the same through every door.

use std::fmt;

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

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An error of the core that knows its kind. Every error type of the core implements
/// it, beside the error's definition.
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

//! What every call returns, the message of the last failure on each thread, and the
//! guard that keeps a Rust panic from ever crossing into C.

use std::cell::RefCell;
use std::ffi::{c_char, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

use buttonup::{ErrorKind, HasKind};

/// The result of a call: `BUTTONUP_STATUS_OK`, or what kind of failure it was
/// (`buttonup_last_error()` then says what is wrong, in the words of the Python
/// library's errors). Each failure status is one kind of error of the core, the same
/// kind the Python library raises as one exception class (docs/reliability.md, "Error
/// kinds").
#[repr(C)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ButtonupStatus {
    /// The call did what it was asked.
    Ok = 0,
    /// A required pointer argument was NULL (kind `wrong_type`: Python's `TypeError`).
    NullArgument = 1,
    /// Text that is not a position or a start order in the notation, or not UTF-8
    /// (kind `notation`: Python's `NotationError`).
    NotationError = 2,
    /// A move that cannot be played: no such pile, no white button, the battle over (a
    /// bot asked for a move included), or a match that takes no move now: won, or a
    /// starter to choose first (kind `illegal_move`: `IllegalMoveError`).
    IllegalMove = 3,
    /// A count of buttons, a level or another number out of its range (kind
    /// `invalid_argument`: Python's `ValueError`).
    InvalidArgument = 4,
    /// A request to a match, not a move, that the match rules refuse in its state: a
    /// choice of starter when none is due, an undo with nothing to take back (kind
    /// `match_state`: `MatchStateError`).
    MatchError = 5,
    /// Asked of a battle that is not over: its scoring (kind `battle_not_over`:
    /// `BattleNotOverError`).
    WrongState = 6,
    /// A table could not be allocated (kind `memory`: Python's `MemoryError`).
    OutOfMemory = 7,
    /// The search was stopped before it had an answer (kind `search_stopped`:
    /// `SearchStoppedError`).
    Stopped = 8,
    /// A bug in buttonup (a panic caught at the boundary): please report it (kind
    /// `internal`).
    InternalError = 9,
    /// Text that is not a match record, or a match that cannot be written as one (kind
    /// `record`: `RecordError`).
    RecordError = 10,
    /// Long work interrupted from outside (kind `interrupted`: Python's
    /// `KeyboardInterrupt`).
    Interrupted = 11,
}

pub use ButtonupStatus as Status;

/// The status of each kind of error: one status a kind, one kind a status.
pub const fn status_of(kind: ErrorKind) -> Status {
    match kind {
        ErrorKind::Notation => Status::NotationError,
        ErrorKind::IllegalMove => Status::IllegalMove,
        ErrorKind::BattleNotOver => Status::WrongState,
        ErrorKind::MatchState => Status::MatchError,
        ErrorKind::Record => Status::RecordError,
        ErrorKind::SearchStopped => Status::Stopped,
        ErrorKind::InvalidArgument => Status::InvalidArgument,
        ErrorKind::WrongType => Status::NullArgument,
        ErrorKind::Interrupted => Status::Interrupted,
        ErrorKind::Memory => Status::OutOfMemory,
        ErrorKind::Internal => Status::InternalError,
    }
}

/// A failure: its kind and its message.
pub struct Failure {
    pub status: Status,
    pub message: String,
}

impl Failure {
    /// A failure of `kind` found by the C door itself (an argument it checks).
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Failure {
        Failure {
            status: status_of(kind),
            message: message.into(),
        }
    }

    /// An error of the core: its kind's status, its own message.
    pub fn of(error: impl HasKind) -> Failure {
        Failure::new(error.kind(), error.to_string())
    }
}

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

fn remember(message: &str) {
    let text = CString::new(message.replace('\0', " ")).unwrap_or_default();
    LAST_ERROR.with(|last| *last.borrow_mut() = text);
}

/// Runs `body`, turning its failure or a panic into a status (and the thread's last
/// error message). Nothing unwinds out of it.
pub fn guard(body: impl FnOnce() -> Result<(), Failure>) -> Status {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => {
            remember("");
            Status::Ok
        }
        Ok(Err(failure)) => {
            remember(&failure.message);
            failure.status
        }
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown".into());
            remember(&format!(
                "internal error in buttonup (please report it): {what}"
            ));
            status_of(ErrorKind::Internal)
        }
    }
}

/// The message of the last call that failed on this thread ("" after a call that
/// succeeded). The text belongs to the library and stays valid until the next call on
/// this thread; copy it to keep it.
#[no_mangle]
pub extern "C" fn buttonup_last_error() -> *const c_char {
    LAST_ERROR.with(|last| last.borrow().as_ptr())
}

/// The version of the library, as "MAJOR.MINOR.PATCH" (static text).
#[no_mangle]
pub extern "C" fn buttonup_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}

/// The failure of a NULL pointer named `name`.
pub fn null(name: &str) -> Failure {
    Failure::new(ErrorKind::WrongType, format!("{name} is NULL"))
}

/// `pointer` as a reference, or the failure naming `name`.
pub fn non_null<'a, T>(pointer: *const T, name: &str) -> Result<&'a T, Failure> {
    // SAFETY: the caller promises a valid pointer or NULL (documented on every call).
    unsafe { pointer.as_ref() }.ok_or_else(|| null(name))
}

/// Writes `value` through `out`, or fails naming `name` when it is NULL.
pub fn put<T>(out: *mut T, name: &str, value: T) -> Result<(), Failure> {
    if out.is_null() {
        return Err(null(name));
    }
    // SAFETY: non-NULL, and the caller promises it points at a writable T.
    unsafe { out.write(value) };
    Ok(())
}

/// Frees a value this library handed out as a `Box` (NULL is ignored).
///
/// # Safety
/// `pointer` is NULL or from `Box::into_raw` of this library, not freed before.
pub unsafe fn free_box<T>(pointer: *mut T) {
    if !pointer.is_null() {
        drop(Box::from_raw(pointer));
    }
}

/// A new C string of `text`, owned by the caller (free it with `buttonup_string_free`).
pub fn new_string(text: &str) -> *mut c_char {
    CString::new(text.replace('\0', " "))
        .unwrap_or_default()
        .into_raw()
}

/// Writes a new C string of what `text` makes through `out` (free it with
/// `buttonup_string_free`), or fails naming `out` when it is NULL: checked before the
/// string is made, which leaked when it was made first.
pub fn put_string(
    out: *mut *mut c_char,
    text: impl FnOnce() -> Result<String, Failure>,
) -> Result<(), Failure> {
    if out.is_null() {
        return Err(null("out"));
    }
    put(out, "out", new_string(&text()?))
}

/// Frees a string this library returned (NULL is allowed and ignored).
///
/// # Safety
/// `text` must be NULL or a string from this library, not freed before.
#[no_mangle]
pub unsafe extern "C" fn buttonup_string_free(text: *mut c_char) {
    if !text.is_null() {
        drop(CString::from_raw(text));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use buttonup::{Match, Player};
    use buttonup_testkit::{DocumentedKind, RELIABILITY_DOC};

    /// Every kind's status is the docs' (which gives each kind its own), by its name in
    /// the header and its number.
    #[test]
    fn each_kind_has_its_documented_status() {
        let doc = RELIABILITY_DOC;
        let header = include_str!("../include/buttonup.h");
        for row in DocumentedKind::table(doc).expect("the docs' table of error kinds") {
            let code = status_of(row.kind) as i32;
            let (name, number) = row.c.split_once(' ').expect("a name and (number)");
            assert_eq!(number, format!("({code})"), "{}", row.kind);
            assert!(header.contains(&format!("  {name} = {code},")), "{name}");
        }
    }

    /// A bad deal (no C call deals one, but the mapping is the core's) is a notation
    /// error with the core's words, as Python's `Match(deals=["RBXWBRRWB"])` says.
    #[test]
    fn a_bad_deal_is_a_notation_error() {
        let error = Match::new(Player::Red, 15, 3, 1, &["RBXWBRRWB"]).unwrap_err();
        let failure = Failure::of(error);
        assert_eq!(failure.status, Status::NotationError);
        assert_eq!(
            failure.message,
            "deal 1: unknown button 'X' at index 2: a start order is one letter a pile, \
             'R', 'B' or 'W'"
        );
    }
}

//! What every call returns, the message of the last failure on each thread, and the
//! guard that keeps a Rust panic from ever crossing into C.

use std::cell::RefCell;
use std::ffi::{c_char, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The result of a call: `BUTTONUP_STATUS_OK`, or what kind of failure it was
/// (`buttonup_last_error()` then says what is wrong, in the words of the Python
/// library's errors).
#[repr(C)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ButtonupStatus {
    /// The call did what it was asked.
    Ok = 0,
    /// A required pointer argument was NULL.
    NullArgument = 1,
    /// Text that is not in the notation (a position, a record), or not UTF-8.
    NotationError = 2,
    /// A move that cannot be played: no such pile, no white button, or the battle is over.
    IllegalMove = 3,
    /// A count of buttons, a level or another number out of its range.
    InvalidArgument = 4,
    /// Something the match rules refuse now (a move while a starter is due, ...).
    MatchError = 5,
    /// Asked of a battle that is not over (its scoring), or over (a move).
    WrongState = 6,
    /// A table could not be allocated.
    OutOfMemory = 7,
    /// The search was stopped before it had an answer.
    Stopped = 8,
    /// A bug in buttonup (a panic caught at the boundary): please report it.
    InternalError = 9,
}

pub use ButtonupStatus as Status;

/// A failure: its kind and its message.
pub struct Failure {
    pub status: Status,
    pub message: String,
}

impl Failure {
    pub fn new(status: Status, message: impl Into<String>) -> Failure {
        Failure {
            status,
            message: message.into(),
        }
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
            Status::InternalError
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

/// `pointer` as a reference, or the failure naming `name`.
pub fn non_null<'a, T>(pointer: *const T, name: &str) -> Result<&'a T, Failure> {
    // SAFETY: the caller promises a valid pointer or NULL (documented on every call).
    unsafe { pointer.as_ref() }
        .ok_or_else(|| Failure::new(Status::NullArgument, format!("{name} is NULL")))
}

/// Writes `value` through `out`, or fails naming `name` when it is NULL.
pub fn put<T>(out: *mut T, name: &str, value: T) -> Result<(), Failure> {
    if out.is_null() {
        return Err(Failure::new(
            Status::NullArgument,
            format!("{name} is NULL"),
        ));
    }
    // SAFETY: non-NULL, and the caller promises it points at a writable T.
    unsafe { out.write(value) };
    Ok(())
}

/// A new C string of `text`, owned by the caller (free it with `buttonup_string_free`).
pub fn new_string(text: &str) -> *mut c_char {
    CString::new(text.replace('\0', " "))
        .unwrap_or_default()
        .into_raw()
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

//! What the C library's tests share: the last error's text, and positions and matches
//! made by calls that must succeed.

use std::ffi::{CStr, CString};
use std::ptr::null_mut;

use buttonup_c::*;

/// The text of the last failure on this thread.
pub fn last_error() -> String {
    // SAFETY: the library's own static or thread-local text.
    unsafe { CStr::from_ptr(buttonup_last_error()) }
        .to_string_lossy()
        .into_owned()
}

/// The position `text` (in the notation), parsed.
pub fn parse(text: &str) -> *mut ButtonupPosition {
    let text = CString::new(text).unwrap();
    let mut out = null_mut();
    assert_eq!(
        unsafe { buttonup_position_parse(text.as_ptr(), &mut out) },
        ButtonupStatus::Ok
    );
    out
}

/// A new match that Red starts.
pub fn new_match(target: u32, per_colour: u32, seed: u64) -> *mut ButtonupMatch {
    let mut out = null_mut();
    assert_eq!(
        unsafe { buttonup_match_new(1, target, per_colour, seed, &mut out) },
        ButtonupStatus::Ok
    );
    out
}

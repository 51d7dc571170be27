//! Why a text is not a match record, or a match cannot be written as one.

use std::fmt;

use crate::game::error::shorten;

/// Why a text is not a record (the line and token that are wrong, and what is wrong
/// with them), or why a record cannot be written.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum RecordError {
    /// A fault of the text being read.
    At {
        /// The line, from 1.
        line: usize,
        /// The token or line as written; `None` at the end of the text.
        token: Option<String>,
        /// What is wrong, in words.
        message: String,
    },
    /// Something that cannot be written in a record: a bad tag, or a comment that
    /// would not read back.
    Write(String),
    /// A record longer than [`MAX_RECORD_BYTES`](super::MAX_RECORD_BYTES), refused
    /// before it is read.
    TooLong {
        /// Its length in bytes.
        bytes: usize,
    },
}

crate::game::error_kind::one_kind! { RecordError => Record }

impl RecordError {
    /// A fault at a token (or a whole line) of line `line`.
    pub(crate) fn at(line: usize, token: &str, message: String) -> RecordError {
        RecordError::At {
            line,
            token: Some(token.to_string()),
            message,
        }
    }

    /// A fault found at the end of the text, whose last line is `line`.
    pub(crate) fn at_end(line: usize, message: String) -> RecordError {
        RecordError::At {
            line,
            token: None,
            message,
        }
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::At {
                line,
                token: Some(token),
                message,
            } => write!(f, "line {line}, at '{}': {message}", shorten(token.trim())),
            RecordError::At {
                line,
                token: None,
                message,
            } => write!(f, "line {line}, at the end of the record: {message}"),
            RecordError::Write(message) => write!(f, "cannot write the record: {message}"),
            RecordError::TooLong { bytes } => write!(
                f,
                "a record is at most {} bytes (1 MiB), not {bytes}",
                super::MAX_RECORD_BYTES
            ),
        }
    }
}

impl std::error::Error for RecordError {}

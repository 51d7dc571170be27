//! What the examples share: reading their command-line arguments, and printing to a
//! reader that may go away.

/// The `n`th command-line argument parsed, or `default` where it is missing or does not
/// parse.
#[allow(dead_code)] // not every example reads arguments
pub fn arg<T: std::str::FromStr>(n: usize, default: T) -> T {
    std::env::args()
        .nth(n)
        .and_then(|a| a.parse().ok())
        .unwrap_or(default)
}

/// `println!` for a reader that may stop reading (`| head`): a closed pipe ends the
/// example quietly, where `println!` would panic.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if writeln!(std::io::stdout(), $($arg)*).is_err() {
            std::process::exit(0);
        }
    }};
}

//! What the examples share: reading their command-line arguments.

/// The `n`th command-line argument parsed, or `default` where it is missing or does not
/// parse.
pub fn arg<T: std::str::FromStr>(n: usize, default: T) -> T {
    std::env::args()
        .nth(n)
        .and_then(|a| a.parse().ok())
        .unwrap_or(default)
}

//! Lines in: at most [`MAX_LINE`] bytes a line (the rest of a longer one is skipped),
//! decoded as UTF-8, and split into words as the protocol splits them.

use std::io::BufRead;

/// The longest line read; a longer one is ignored with an error line.
pub const MAX_LINE: usize = 65536;

/// One line of input.
pub enum Line {
    /// The end of input (or an input that cannot be read any more).
    End,
    /// A line over [`MAX_LINE`] bytes, skipped.
    TooLong,
    /// A line's bytes, its end of line included where it had one.
    Bytes(Vec<u8>),
}

/// The next line of `input`.
pub fn read_line(input: &mut impl BufRead) -> Line {
    let mut line = Vec::new();
    loop {
        let (done, used) = match input.fill_buf() {
            Ok([]) => {
                return if line.is_empty() {
                    Line::End
                } else {
                    Line::Bytes(line)
                }
            }
            Ok(buffer) => match buffer.iter().position(|&b| b == b'\n') {
                Some(at) => {
                    line.extend_from_slice(&buffer[..=at]);
                    (true, at + 1)
                }
                None => {
                    line.extend_from_slice(buffer);
                    (false, buffer.len())
                }
            },
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return Line::End,
        };
        input.consume(used);
        if line.len() > MAX_LINE || (line.len() == MAX_LINE && !done) {
            if !done {
                skip_rest(input);
            }
            return Line::TooLong;
        }
        if done {
            return Line::Bytes(line);
        }
    }
}

fn skip_rest(input: &mut impl BufRead) {
    loop {
        let (found, used) = match input.fill_buf() {
            Ok([]) | Err(_) => return,
            Ok(buffer) => match buffer.iter().position(|&b| b == b'\n') {
                Some(at) => (true, at + 1),
                None => (false, buffer.len()),
            },
        };
        input.consume(used);
        if found {
            return;
        }
    }
}

/// A line as text (NUL read as a space), or the protocol error for bytes that are not
/// UTF-8.
pub fn decode(raw: &[u8]) -> Result<String, String> {
    match std::str::from_utf8(raw) {
        Ok(text) => Ok(text.replace('\0', " ")),
        Err(error) => {
            let at = error.valid_up_to();
            Err(format!(
                "the line is not UTF-8 (byte 0x{:02x} at {at})",
                raw[at]
            ))
        }
    }
}

/// The words of a line: split at white space as the protocol's Python engine splits
/// (Unicode white space and the separators U+001C to U+001F).
pub fn words(line: &str) -> Vec<&str> {
    line.split(|c: char| c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c))
        .filter(|w| !w.is_empty())
        .collect()
}

/// A protocol word quoted in an error line: at most 40 characters, with `...` when cut.
pub fn shorten(text: &str) -> String {
    crate::game::error::shorten_to(text, 40)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(bytes: &[u8]) -> Vec<String> {
        let mut input = std::io::BufReader::with_capacity(7, bytes);
        let mut out = Vec::new();
        loop {
            match read_line(&mut input) {
                Line::End => return out,
                Line::TooLong => out.push("(too long)".into()),
                Line::Bytes(b) => out.push(String::from_utf8_lossy(&b).into_owned()),
            }
        }
    }

    #[test]
    fn lines_are_split_and_long_ones_skipped() {
        assert_eq!(lines(b"ugi\nisready\nlast"), ["ugi\n", "isready\n", "last"]);
        let mut long = vec![b'x'; MAX_LINE + 3];
        long.extend_from_slice(b"\nquit\n");
        assert_eq!(lines(&long), ["(too long)", "quit\n"]);
        let mut exact = vec![b'y'; MAX_LINE - 1];
        exact.push(b'\n');
        assert_eq!(lines(&exact).len(), 1);
    }

    #[test]
    fn words_and_bytes() {
        assert_eq!(
            words(" go\tdepth\u{1f}3 \u{3000}x "),
            ["go", "depth", "3", "x"]
        );
        assert_eq!(
            decode(b"go \xff").unwrap_err(),
            "the line is not UTF-8 (byte 0xff at 3)"
        );
        assert_eq!(decode(b"a\0b").unwrap(), "a b");
        assert_eq!(shorten(&"z".repeat(41)), "z".repeat(40) + "...");
    }
}

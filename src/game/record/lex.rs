//! The text of a record cut into its parts: the tag lines, then the tokens of the
//! battles, each with the line it stands on.

use super::error::RecordError;
use crate::game::pieces::Player;

/// One tag line, `[Name "value"]`.
#[derive(Debug)]
pub(super) struct TagLine {
    pub line: usize,
    pub name: String,
    pub value: String,
}

/// What a token of the battles is, by its shape alone.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Kind {
    /// `3.`: the number of the battle that starts here.
    Number(u64),
    /// Letters `R`, `B`, `W` only: a start order, or a final pile.
    Pile,
    /// `r` or `b`: the starter.
    Side(Player),
    /// A pile index, `+` when the move gives an extra move; `None` when the digits
    /// overflow (no such pile, whatever the position).
    Move { pile: Option<usize>, plus: bool },
    /// `(+1)`: a value of the move before it.
    Value(f64),
    /// `{...}`: a comment (its text inside the braces).
    Comment(String),
    /// `R+3`, `B+2` or `=`: a battle's margin, Red minus Black.
    Result(i64),
    /// `5-3`: the score after a battle, Red's points first.
    Score(u64, u64),
}

/// A token: its kind, its text as written and its line (from 1).
#[derive(Clone, Debug)]
pub(super) struct Token {
    pub kind: Kind,
    pub text: String,
    pub line: usize,
}

/// The tag lines and the tokens of one record; `first_line` is the number of its
/// first line in the whole text.
pub(super) fn lex(
    text: &str,
    first_line: usize,
) -> Result<(Vec<TagLine>, Vec<Token>), RecordError> {
    let mut tags = Vec::new();
    let mut lines = text.split('\n').enumerate().peekable();
    // The tag section: tag lines and blank lines, up to the first other line.
    let mut body_start = 0;
    while let Some((index, line)) = lines.peek().copied() {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            body_start += line.len() + 1;
            lines.next();
            continue;
        }
        if !trimmed.starts_with('[') {
            break;
        }
        tags.push(tag_line(trimmed, first_line + index)?);
        body_start += line.len() + 1;
        lines.next();
    }
    let body = text.get(body_start.min(text.len())..).unwrap_or("");
    let body_line = first_line + text[..body_start.min(text.len())].matches('\n').count();
    Ok((tags, tokens(body, body_line)?))
}

/// Reads `[Name "value"]`, the value with `\"` and `\\` escaped.
fn tag_line(line: &str, number: usize) -> Result<TagLine, RecordError> {
    let bad = |message: &str| RecordError::at(number, line, message.to_string());
    let inner = line
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
        .ok_or_else(|| bad("a tag line is written [Name \"value\"], on one line"))?;
    let (name, rest) = inner
        .split_once(|c: char| c.is_whitespace())
        .ok_or_else(|| bad("a tag needs a name, a space, then its value in double quotes"))?;
    check_tag_name(name).map_err(|message| RecordError::at(number, line, message))?;
    let quoted = rest.trim();
    let body = quoted
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
        .ok_or_else(|| bad("a tag's value is written in double quotes"))?;
    let mut value = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(escaped @ ('"' | '\\')) => value.push(escaped),
                _ => {
                    return Err(bad(
                        "in a tag's value '\\' is written before '\"' or '\\' only",
                    ))
                }
            },
            '"' => return Err(bad("a '\"' inside a tag's value is written '\\\"'")),
            c if c.is_control() => return Err(bad("a tag's value holds no control character")),
            c => value.push(c),
        }
    }
    Ok(TagLine {
        line: number,
        name: name.to_string(),
        value,
    })
}

/// A tag's name: an ASCII letter, then letters, digits or `_`.
pub(super) fn check_tag_name(name: &str) -> Result<(), String> {
    let mut chars = name.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_uppercase());
    if first_ok && chars.all(|c| c.is_ascii_alphanumeric() || c == '_') {
        Ok(())
    } else {
        Err(format!(
            "bad tag name '{}': a capital letter, then letters, digits or '_'",
            crate::game::error::shorten(name)
        ))
    }
}

/// The tokens of the battles: split at white space, except inside `{...}`.
fn tokens(body: &str, first_line: usize) -> Result<Vec<Token>, RecordError> {
    let mut out = Vec::new();
    let mut line = first_line;
    let mut chars = body.char_indices().peekable();
    while let Some(&(start, c)) = chars.peek() {
        if c == '\n' {
            line += 1;
            chars.next();
            continue;
        }
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        if c == '{' {
            let token_line = line;
            chars.next();
            let mut text = String::new();
            loop {
                match chars.next() {
                    Some((_, '}')) => break,
                    Some((_, '{')) => {
                        return Err(RecordError::at(
                            line,
                            "{",
                            "a comment holds no '{' (it ends at the first '}')".to_string(),
                        ))
                    }
                    Some((_, ch)) => {
                        if ch == '\n' {
                            line += 1;
                        }
                        text.push(ch);
                    }
                    None => {
                        return Err(RecordError::at(
                            token_line,
                            "{",
                            "this comment has no closing '}'".to_string(),
                        ))
                    }
                }
            }
            out.push(Token {
                kind: Kind::Comment(text.trim().to_string()),
                text: "{".to_string(),
                line: token_line,
            });
            continue;
        }
        let mut end = body.len();
        while let Some(&(i, ch)) = chars.peek() {
            if ch.is_whitespace() || (ch == '{' && i > start) {
                end = i;
                break;
            }
            chars.next();
        }
        let text = &body[start..end];
        out.push(Token {
            kind: kind(text).map_err(|message| RecordError::at(line, text, message))?,
            text: text.to_string(),
            line,
        });
    }
    Ok(out)
}

/// The kind of a token by its shape, or why it is none.
fn kind(text: &str) -> Result<Kind, String> {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if let Some(number) = text.strip_suffix('.').filter(|s| digits(s)) {
        return Ok(Kind::Number(number.parse().unwrap_or(u64::MAX)));
    }
    if text.bytes().all(|b| matches!(b, b'R' | b'B' | b'W')) {
        return Ok(Kind::Pile);
    }
    match text {
        "r" => return Ok(Kind::Side(Player::Red)),
        "b" => return Ok(Kind::Side(Player::Black)),
        "=" => return Ok(Kind::Result(0)),
        _ => {}
    }
    let (pile, plus) = match text.strip_suffix('+') {
        Some(pile) => (pile, true),
        None => (text, false),
    };
    if digits(pile) {
        return Ok(Kind::Move {
            pile: pile.parse().ok(),
            plus,
        });
    }
    if let Some(inner) = text.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
        return value(inner).map(Kind::Value);
    }
    for (prefix, sign) in [("R+", 1), ("B+", -1)] {
        if let Some(points) = text.strip_prefix(prefix).filter(|s| digits(s)) {
            return match points.parse::<i64>() {
                Ok(points) if points > 0 && points < 1 << 20 => Ok(Kind::Result(sign * points)),
                _ => Err(format!(
                    "a battle's result is R+N or B+N with N from 1 up, or '=': not '{}'",
                    crate::game::error::shorten(text)
                )),
            };
        }
    }
    if let Some((red, black)) = text.split_once('-').filter(|(r, b)| digits(r) && digits(b)) {
        return Ok(Kind::Score(
            red.parse().unwrap_or(u64::MAX),
            black.parse().unwrap_or(u64::MAX),
        ));
    }
    Err(format!(
        "unknown token '{}': expected a battle number such as '2.', a start order, \
         'r' or 'b', a move such as '3' or '0+', a value such as '(+1)', a comment in \
         braces, a result such as 'R+1', 'B+2' or '=', or a score such as '5-3'",
        crate::game::error::shorten(text)
    ))
}

/// The most digits a value has before its decimal point.
pub(super) const MAX_WHOLE_DIGITS: usize = 15;
/// The most digits a value has after its decimal point.
pub(super) const MAX_DECIMALS: usize = 24;

/// A value: an optional sign, digits, optional decimals, and an optional exponent
/// (`e` or `E`, an optional sign, one to three digits).
pub(super) fn value(inner: &str) -> Result<f64, String> {
    let (mantissa, exponent) = match inner.split_once(['e', 'E']) {
        Some((mantissa, exponent)) => (mantissa, Some(exponent)),
        None => (inner, None),
    };
    let body = mantissa.strip_prefix(['+', '-']).unwrap_or(mantissa);
    let (whole, decimals) = body.split_once('.').unwrap_or((body, "0"));
    let ok = |s: &str, most: usize| {
        !s.is_empty() && s.len() <= most && s.bytes().all(|b| b.is_ascii_digit())
    };
    let exponent_ok = exponent.is_none_or(|e| ok(e.strip_prefix(['+', '-']).unwrap_or(e), 3));
    if ok(whole, MAX_WHOLE_DIGITS) && ok(decimals, MAX_DECIMALS) && exponent_ok {
        if let Ok(number) = inner.parse::<f64>() {
            if number.is_finite() {
                return Ok(number);
            }
        }
    }
    Err(format!(
        "a value is a number in parentheses, such as '(+1)', '(-0.25)' or '(+1.5e-7)': \
         not '({})'",
        crate::game::error::shorten(inner)
    ))
}

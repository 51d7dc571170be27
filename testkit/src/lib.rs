//! Test helpers shared by the tests of buttonup's doors (the core, the Python extension,
//! the C library, WebAssembly): what the docs say that each door's tests check
//! themselves against. Not shipped: a dev-dependency only.

use buttonup::ErrorKind;

/// The text of docs/reliability.md, whose "Error kinds" table every door's tests read.
pub const RELIABILITY_DOC: &str = include_str!("../../docs/reliability.md");

/// One row of the "Error kinds" table of docs/reliability.md: what each door makes of a
/// kind, its cells without backquotes. The table is the one written form of that
/// mapping; each door's tests read it.
#[derive(Clone, Debug)]
pub struct DocumentedKind {
    /// The kind.
    pub kind: ErrorKind,
    /// The Python exception class.
    pub python: String,
    /// The JavaScript error's `name`.
    pub javascript: String,
    /// The status's name and number, as `BUTTONUP_STATUS_NOTATION_ERROR (2)`.
    pub c: String,
    /// The HTTP status.
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

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    /// The names are those of docs/reliability.md's table, in its order.
    #[test]
    fn names_are_the_documented_ones_distinct_and_read_back() {
        let table = DocumentedKind::table(RELIABILITY_DOC);
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
        let doc = RELIABILITY_DOC;
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
}

//! The match tables of a process, built once per (target, buttons of each colour) and
//! shared by every thread and every door: a table takes a while to build and is the
//! same for every caller.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use super::moves::red_chance;
use super::table::MatchOdds;
use crate::game::match_rules::MatchError;
use crate::game::rules::Position;
use crate::game::standing::Standing;
use crate::search::Searcher;

/// A match table that threads share.
pub type SharedOdds = Arc<Mutex<MatchOdds>>;

/// One table's slot: built once, by the first thread that needs it, while other
/// threads wait for that table only.
type Slot = Arc<Mutex<Option<SharedOdds>>>;

/// Locks `mutex`; a table is only ever filled in, so one left by a panicking thread is
/// still a good table (the panic itself is the caller's to report).
pub fn lock_odds<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The match table for `target` points and `per_colour` buttons of each colour. The
/// map's lock is held only to find a slot, never while a table is built; a build that
/// fails (an unsupported variant, an interruption) leaves the slot empty for the next
/// caller.
pub fn shared_odds(target: u32, per_colour: usize) -> Result<SharedOdds, MatchError> {
    static TABLES: OnceLock<Mutex<HashMap<(u32, usize), Slot>>> = OnceLock::new();
    let slot: Slot = {
        let mut tables = lock_odds(TABLES.get_or_init(Default::default));
        Arc::clone(tables.entry((target, per_colour)).or_default())
    };
    let mut slot = lock_odds(&slot);
    if let Some(table) = slot.as_ref() {
        return Ok(Arc::clone(table));
    }
    let table = Arc::new(Mutex::new(MatchOdds::new(target, per_colour)?));
    *slot = Some(Arc::clone(&table));
    Ok(table)
}

/// Red's chance of winning a match that stands at `standing`, under perfect match play
/// with the shuffles as chance: between two battles (`battle` `None`) the standing's; in
/// a battle, from its position `battle`, the mover choosing his best move (solved on up
/// to `threads` threads where that pays, else on `searcher`). On `own`, a match table of
/// the caller's for the standing's target and buttons of each colour (the C library's,
/// freed with its match), else on the process's shared one; a table is locked only while
/// it is read, never during the search. What every door's `win_probability` of a match
/// is, and the page's chart. An impossible standing or a variant beyond the tables is
/// refused; an interruption is `MatchError::Interrupted`.
pub fn red_chance_at(
    standing: &Standing,
    battle: Option<&Position>,
    threads: usize,
    searcher: &mut Searcher,
    own: Option<&Mutex<MatchOdds>>,
) -> Result<f64, MatchError> {
    // An impossible standing is refused before a table is built for it.
    standing.check().map_err(MatchError::Standing)?;
    let shared;
    let table = match own {
        Some(table) => table,
        None => {
            shared = shared_odds(standing.target, standing.per_colour)?;
            &*shared
        }
    };
    let Some(position) = battle else {
        return lock_odds(table).win_probability(standing);
    };
    let payoff = lock_odds(table).payoff(standing)?;
    red_chance(&payoff, position, threads, searcher).map_err(|_| MatchError::Interrupted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_table_per_variant_and_errors_not_kept() {
        let a = shared_odds(3, 1).unwrap();
        let b = shared_odds(3, 1).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        assert!(!Arc::ptr_eq(&a, &shared_odds(5, 1).unwrap()));
        assert!(shared_odds(3, 50).is_err());
        assert!(shared_odds(3, 50).is_err());
    }
}

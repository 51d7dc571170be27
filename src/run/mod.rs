//! Running long work: shared out over threads (`parallel`) and interrupted from outside
//! (`interrupt`). Everything else builds on these two; they know no rule.

pub mod interrupt;
pub mod parallel;

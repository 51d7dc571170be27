//! Running long work: shared out over threads (`parallel`) and interrupted from outside
//! (`interrupt`). Everything else builds on these two; they know no rule. `clock` is the
//! time that limits read (a WebAssembly build installs its own).

pub mod clock;
pub mod interrupt;
pub mod parallel;

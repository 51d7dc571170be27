//! Running long work: shared out over threads (`parallel`, and the batches of
//! `batch`), and interrupted from outside (`interrupt`).

pub mod batch;
pub mod interrupt;
pub mod parallel;

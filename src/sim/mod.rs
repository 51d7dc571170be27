//! Simulation: random playouts with the loop in Rust, the precomputed move graph they
//! walk for small variants, and the batched environment for reinforcement learning.

pub mod buffers;
pub mod encode;
pub mod move_graph;
pub mod opponent;
pub mod playout;
pub mod pool;
pub mod vecenv;
mod vecenv_game;
mod vecenv_step;

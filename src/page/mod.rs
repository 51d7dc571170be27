//! What a game page shows and lets a player do, made once for every door that serves
//! one (the server in Python, the offline page in WebAssembly): the JSON views of
//! positions, matches and lines ([`view`]), the analysis, hint, review and chart
//! ([`analysis`]), and the page's turn rules with their refusals ([`seats`]).

pub mod analysis;
pub mod seats;
pub mod view;

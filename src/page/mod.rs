//! What a game page shows and lets a player do, made once for every door that serves
//! one (the server in Python, the offline page in WebAssembly): the JSON views of
//! positions, matches and lines ([`view`]), the analysis, hint, review and chart
//! ([`analysis`]), the page's turn rules with their refusals ([`seats`]), and a page's
//! match with all of these together ([`session`]), which both doors keep.

pub mod analysis;
pub mod seats;
pub mod session;
pub mod view;

#!/usr/bin/env bash
# Builds the doors that `cargo test` does not, so that the test suite tests them all
# (README, second command): the native UGI engine and the C library (release builds in
# target/release), the training tool of the network estimate (scripts/eval_features.rs),
# cbindgen for the header check, and the WebAssembly package (scripts/build-wasm.sh,
# which installs its own toolchain pieces where missing).
# Each step is quick when its output is already up to date.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "build-doors: $*" >&2; }

say "cargo build --release -p buttonup-engine -p buttonup-c"
cargo build --release --quiet -p buttonup-engine -p buttonup-c
say "cargo build --release --features training --example eval_features"
cargo build --release --quiet --features training --example eval_features
if ! command -v cbindgen >/dev/null; then
  say "cargo install cbindgen (the C header check)"
  cargo install --quiet cbindgen --version '^0.29'
fi
say "scripts/build-wasm.sh"
bash scripts/build-wasm.sh

#!/usr/bin/env bash
# Builds the WebAssembly package of the engine (docs/wasm.md):
#   target/wasm-pkg/         for Node and bundlers (CommonJS): package.json, the .wasm,
#                            the glue (buttonup_wasm.js) and the TypeScript declarations
#   target/wasm-pkg/web/     the same engine as an ES module for browsers (the page)
#
# Usage: scripts/build-wasm.sh [--route auto|rustup|debian] [--no-install]
#
# It picks the first route that works:
#   rustup  `rustup target add wasm32-unknown-unknown`, then rustup's cargo;
#   debian  Debian's rustc-web, cargo-web and rust-web-src (Rust 1.96, as /usr/bin/rustc
#           and /usr/bin/cargo) with lld's wasm-ld: the standard library is built for the
#           target from source (-Zbuild-std; about 3 minutes on 2 cores the first time),
#           in a target folder of its own (target/wasm-debian).
# What is missing is installed unless --no-install is given: the Debian packages with
# apt-get (as root), and wasm-bindgen-cli with `cargo install`, at exactly the version of
# the wasm-bindgen crate in wasm/Cargo.toml (the glue and the crate must match).
# BUTTONUP_WASM_ROUTE sets the route as --route does.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

route="${BUTTONUP_WASM_ROUTE:-auto}"
install=1
while [ $# -gt 0 ]; do
  case "$1" in
    --route) route="${2:?--route needs auto, rustup or debian}"; shift 2 ;;
    --route=*) route="${1#--route=}"; shift ;;
    --no-install) install=0; shift ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "build-wasm.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case "$route" in auto|rustup|debian) ;; *) echo "build-wasm.sh: --route must be auto, rustup or debian, not '$route'" >&2; exit 2 ;; esac

target=wasm32-unknown-unknown
say() { echo "build-wasm: $*" >&2; }

rustup_route() {
  command -v rustup >/dev/null || return 1
  if ! rustup target list --installed 2>/dev/null | grep -qx "$target"; then
    [ "$install" = 1 ] || return 1
    say "rustup target add $target"
    timeout 300 rustup target add "$target" >&2 || return 1
  fi
  rustup target list --installed 2>/dev/null | grep -qx "$target"
}

debian_ready() {
  [ -x /usr/bin/rustc ] && [ -x /usr/bin/cargo ] && command -v wasm-ld >/dev/null \
    && [ -d /usr/lib/rustlib/src/rust/library ]
}

debian_route() {
  if ! debian_ready; then
    [ "$install" = 1 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null || return 1
    say "apt-get install rustc-web cargo-web rust-web-src lld"
    (apt-get install -y -q rustc-web cargo-web rust-web-src lld >&2 \
      || { apt-get update -q >&2 && apt-get install -y -q rustc-web cargo-web rust-web-src lld >&2; }) \
      || return 1
  fi
  debian_ready
}

chosen=""
if [ "$route" != debian ] && rustup_route; then
  chosen=rustup
elif [ "$route" != rustup ] && debian_route; then
  chosen=debian
else
  say "no route to build for $target: neither 'rustup target add $target' nor Debian's"
  say "rustc-web, cargo-web, rust-web-src and lld (apt-get install as root) are available"
  exit 3
fi
say "route: $chosen"

# The wasm-bindgen CLI at the crate's version.
version=$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)".*/\1/p' wasm/Cargo.toml)
[ -n "$version" ] || { say "no pinned wasm-bindgen version in wasm/Cargo.toml"; exit 3; }
bindgen="$(command -v wasm-bindgen || true)"
[ -n "$bindgen" ] || bindgen="${CARGO_HOME:-$HOME/.cargo}/bin/wasm-bindgen"
if ! [ -x "$bindgen" ] || [ "$("$bindgen" --version | awk '{print $2}')" != "$version" ]; then
  [ "$install" = 1 ] || { say "wasm-bindgen $version is not installed (cargo install wasm-bindgen-cli --version $version)"; exit 3; }
  # Without --locked: one locked dependency of the CLI is missing from the registry here.
  say "cargo install wasm-bindgen-cli --version $version"
  cargo install wasm-bindgen-cli --version "$version" >&2
  bindgen="${CARGO_HOME:-$HOME/.cargo}/bin/wasm-bindgen"
fi

# The build: one thread of the core, panics abort (none is expected: every bad input is
# an error), the whole program optimised together.
export CARGO_PROFILE_RELEASE_PANIC=abort CARGO_PROFILE_RELEASE_LTO=fat
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1
if [ "$chosen" = rustup ]; then
  out="$root/target/wasm-rustup"
  CARGO_TARGET_DIR="$out" cargo build --release --locked --target "$target" \
    --manifest-path wasm/Cargo.toml >&2
else
  out="$root/target/wasm-debian"
  # Debian's cargo and rustc, beside rustup's: its std sources are built for the target.
  env -u RUSTUP_TOOLCHAIN CARGO_TARGET_DIR="$out" RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc \
    RUSTC_BOOTSTRAP=1 CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=wasm-ld \
    /usr/bin/cargo build --release --locked --target "$target" \
    --manifest-path wasm/Cargo.toml -Zbuild-std=std,panic_abort >&2
fi
wasm="$out/$target/release/buttonup_wasm.wasm"

pkg="$root/target/wasm-pkg"
rm -rf "$pkg"
"$bindgen" --target nodejs --out-dir "$pkg" "$wasm"
"$bindgen" --target web --out-dir "$pkg/web" "$wasm"
# Node's console.log and util.inspect show a position or a match by what it is, not by
# its pointer into the module's memory (`Position { __wbg_ptr: 3212280 }`); toJSON is the
# core's (JSON.stringify). Appended to the glue, where the classes are in scope.
for glue in "$pkg/buttonup_wasm.js" "$pkg/web/buttonup_wasm.js"; do
  cat >>"$glue" <<'JS'

const inspectCustom = Symbol.for("nodejs.util.inspect.custom");
Position.prototype[inspectCustom] = function () { return `Position <${this.toString()}>`; };
Match.prototype[inspectCustom] = function () {
  const s = this.standing;
  return `Match <Red ${s.red} - Black ${s.black}, first to ${s.target}: ${this.position.toString()}>`;
};
JS
done
crate_version=$(sed -n 's/^version = "\(.*\)"/\1/p' wasm/Cargo.toml | head -n 1)
cat >"$pkg/package.json" <<EOF
{
  "name": "buttonup-wasm",
  "version": "$crate_version",
  "description": "The buttonup engine for Button Up! in WebAssembly: rules, solver, AI, match odds",
  "license": "MIT",
  "main": "buttonup_wasm.js",
  "types": "buttonup_wasm.d.ts",
  "exports": {
    ".": { "types": "./buttonup_wasm.d.ts", "default": "./buttonup_wasm.js" },
    "./web": { "types": "./web/buttonup_wasm.d.ts", "default": "./web/buttonup_wasm.js" }
  },
  "files": ["buttonup_wasm.js", "buttonup_wasm.d.ts", "buttonup_wasm_bg.wasm",
            "buttonup_wasm_bg.wasm.d.ts", "web/"],
  "engines": { "node": ">=18" }
}
EOF
echo "{\"route\": \"$chosen\", \"wasm_bindgen\": \"$version\"}" >"$pkg/build.json"
say "wrote $pkg ($(wc -c <"$pkg/buttonup_wasm_bg.wasm") bytes of .wasm; route $chosen)"
echo "$pkg"

# The page's copy inside the Python package (ignored by git): a wheel built after this
# ships it, so that `buttonup export-site` works from a plain install (pyproject.toml).
page_copy="$root/python/buttonup/web/wasm"
rm -rf "$page_copy"
mkdir -p "$page_copy"
cp "$pkg/web/buttonup_wasm.js" "$pkg/web/buttonup_wasm_bg.wasm" "$pkg/web/buttonup_wasm.d.ts" "$page_copy/"

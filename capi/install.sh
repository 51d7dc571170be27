#!/usr/bin/env bash
# Installs the C library as a packager would: PREFIX/lib/libbuttonup_c.{so,a},
# PREFIX/include/buttonup.h and PREFIX/lib/pkgconfig/buttonup.pc, from the release build
# (cargo build --release -p buttonup-c). Then, with PKG_CONFIG_PATH=PREFIX/lib/pkgconfig:
#   cc battle.c $(pkg-config --cflags --libs buttonup)            # shared
# The program runs as built: the .pc file's rpath tells the loader where the library is
# (no LD_LIBRARY_PATH, no ldconfig).
#   cc battle.c $(pkg-config --cflags --libs --static buttonup) -static-libgcc  # static
# usage: capi/install.sh PREFIX
set -euo pipefail
prefix=${1:?usage: capi/install.sh PREFIX}
root="$(cd "$(dirname "$0")/.." && pwd)"
release="${CARGO_TARGET_DIR:-$root/target}/release"
for built in libbuttonup_c.so libbuttonup_c.a; do
  [ -f "$release/$built" ] || { echo "install.sh: $release/$built is not built (cargo build --release -p buttonup-c)" >&2; exit 1; }
done
prefix="$(mkdir -p "$prefix" && cd "$prefix" && pwd)"
version=$(sed -n 's/^version = "\(.*\)"/\1/p' "$root/capi/Cargo.toml" | head -n 1)
install -d "$prefix/lib/pkgconfig" "$prefix/include"
install -m 755 "$release/libbuttonup_c.so" "$prefix/lib/"
install -m 644 "$release/libbuttonup_c.a" "$prefix/lib/"
# Rust's standard library comes inside the static library; its debug sections need not
# (25.2 MB -> 16.4 MB here).
if command -v strip >/dev/null; then strip --strip-debug "$prefix/lib/libbuttonup_c.a"; fi
install -m 644 "$root/capi/include/buttonup.h" "$prefix/include/"
cat >"$prefix/lib/pkgconfig/buttonup.pc" <<PC
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: buttonup
Description: The rules, solver, AI and match odds of Button Up! (C library)
Version: $version
Cflags: -I\${includedir}
Libs: -L\${libdir} -Wl,-rpath,\${libdir} -lbuttonup_c
Libs.private: -lpthread -ldl -lm
PC
echo "installed buttonup $version under $prefix"

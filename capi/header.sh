#!/usr/bin/env bash
# Writes capi/include/buttonup.h from the Rust sources with cbindgen (cargo install
# cbindgen); with --check, fails when the checked-in header differs from a fresh one.
set -euo pipefail
cd "$(dirname "$0")"
fresh=$(mktemp)
trap 'rm -f "$fresh"' EXIT
cbindgen --quiet --config cbindgen.toml --crate buttonup-c --output "$fresh" .
if [ "${1:-}" = "--check" ]; then
  if ! diff -u include/buttonup.h "$fresh"; then
    echo "capi/include/buttonup.h is out of date: run bash capi/header.sh" >&2
    exit 1
  fi
  echo "capi/include/buttonup.h is up to date"
else
  cp "$fresh" include/buttonup.h
fi

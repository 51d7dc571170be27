"""Rust against the pure-Python reference (and OpenSpiel's mancala when installed), in one
run: ``python benches/compare.py [--full] [--smoke] [--json FILE]``, the same as
``buttonup bench``. Build the extension in release mode first (``pip install .``)."""

import sys

from buttonup.cli.main import main

if __name__ == "__main__":
    sys.exit(main(["bench", *sys.argv[1:]]))

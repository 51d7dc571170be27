"""The ``buttonup`` command and its applications: the terminal game (``play``), the
reports (``analyze``, ``solve-all``), bot tournaments and the benchmarks. They use the
library at the top of the package and hold no game rules of their own."""

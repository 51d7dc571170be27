"""Helpers for testing code that uses buttonup (hypothesis strategies in
:mod:`buttonup.testing.strategies`; they need the ``hypothesis`` package), and child
processes for tests that send them Ctrl-C (:mod:`buttonup.testing.processes`)."""

"""Helpers for testing code that uses buttonup: hypothesis strategies in
:mod:`buttonup.testing.strategies` (they need the ``hypothesis`` package)."""

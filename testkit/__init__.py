"""Test doubles and harnesses shared by the test suite and the benchmarks.

They live outside `tests/` so that `bench/` can drive the same fake model and emulator harness
without importing the test suite: the arrows point from both to here, never between them.
"""

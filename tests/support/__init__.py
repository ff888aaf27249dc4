"""Helpers shared by the tests (and the benchmarks): games, windows, reports and firmware made for tests."""

"""Benchmarks: each prints one JSON object as its last line (run as python -m benchmarks.NAME from the checkout)."""

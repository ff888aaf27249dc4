"""A game day under faults, played by the test command (short) and the benchmark (whole): see run.py."""

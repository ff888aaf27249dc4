"""The replay window (issue 19): a stored game scrubbed through on the map, read-only."""

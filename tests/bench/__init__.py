"""Benchmarks: scripts that print figures (not assertions). Run with `make bench`."""

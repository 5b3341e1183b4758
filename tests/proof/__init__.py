"""Proof: concurrency, crash and fuzz tests against the production server and the real app."""

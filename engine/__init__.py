"""Sahra's pure rules engine: no I/O, no clock, no ambient randomness."""

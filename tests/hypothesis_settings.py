"""Fewer examples for property tests whose one example is expensive, relative to the profile.

The profile (tests/conftest.py, HYPOTHESIS_PROFILE) sets how many examples a property test draws.
A test whose one example plays a whole game move by move, goes through the web app, or checks
against a brute-force oracle takes tens of times longer per example than the rest; it draws a
fixed fraction of the profile's count instead, so "thorough" still makes it search harder.
These are read when a test module is imported, after tests/conftest.py has loaded the profile.
"""

from __future__ import annotations

from hypothesis import settings


def _fraction(divisor: int) -> settings:
    return settings(max_examples=max(10, settings.default.max_examples // divisor))


#: A quarter of the profile's examples: a whole game played move by move, or requests through
#: the web app (tens of milliseconds per example).
SLOW = _fraction(4)

#: An eighth: an example checked against a brute-force oracle, or a game played out card by card
#: (a hundred milliseconds or more per example).
VERY_SLOW = _fraction(8)

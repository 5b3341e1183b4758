"""Loser Pays, a toy game that lives only in the tests: the proof that a game is added by
following docs/games.md, in a rules module of a few lines and a pages module, with no change to
any shared file (:mod:`tests.web.test_toy_game` installs it for one test at a time)."""

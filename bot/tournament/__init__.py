"""Tournaments: Swiss, round robin and knockout events whose matches are
real tables (issue 26; docs/tournaments.md).

:mod:`bot.tournament.pairing` is the pure part — who plays whom each round,
the standings and the tie-breaks — with no Discord, no pictures and no I/O.
"""

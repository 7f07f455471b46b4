"""Finished games: a result as it is built (:mod:`bot.results.build`) and
stored (:mod:`bot.results.rows`), and their storage with the ratings,
seasons, boards, statistics and history read from them
(:mod:`bot.results.repo`)."""

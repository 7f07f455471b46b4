"""Live tables: the one write path (:mod:`bot.tables.service`), the rows
as stored (:mod:`bot.tables.rows`) and their storage
(:mod:`bot.tables.repo`)."""

"""Post-game reviews as stored (:mod:`bot.reviews.repo`); they are made by
:mod:`games.review` and shown by :mod:`bot.commands.review`."""

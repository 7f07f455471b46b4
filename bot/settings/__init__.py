"""Server settings as stored (:mod:`bot.settings.repo`); they are set with
``/config`` (:mod:`bot.commands.config`)."""

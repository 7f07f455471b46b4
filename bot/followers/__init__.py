"""What happens after a commit: one follower per concern, each subscribed to
the table service's bus in :mod:`bot.app`, in this order —

1. :mod:`bot.followers.screen` — the table message (the presser's answer);
2. :mod:`bot.followers.private` — the players' DMs (and the ephemeral
   fallback), then the plain "Done" to a press not answered yet;
3. :mod:`bot.followers.ping` — "your turn" pings;
4. :mod:`bot.followers.clock` — the turn-clock sweeper learns the deadline;
5. :mod:`bot.followers.cpu` — computer players move.

Followers import the service; the service imports none of them.
"""

"""SQLite's schema: numbered migrations (:mod:`bot.db.schema_postgres` has
the same steps in PostgreSQL's types: a version number means the same
schema on both)."""

from __future__ import annotations

# Migration N brings the schema from version N-1 to N. Never edit a released
# migration: add the next one (and the same step for PostgreSQL in
# bot/db/schema_postgres.py: a version number means the same schema on both).
MIGRATIONS: list[str] = [
    # 1: the first schema
    """
    CREATE TABLE tables (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id    INTEGER,
        channel_id  INTEGER NOT NULL,
        message_id  INTEGER,
        game        TEXT NOT NULL,
        phase       TEXT NOT NULL,            -- lobby | playing
        host_id     INTEGER NOT NULL,
        seats       TEXT NOT NULL,            -- JSON list of {"id", "name", "bot"}
        options     TEXT NOT NULL,            -- JSON house options
        state       TEXT,                     -- JSON engine state (null in the lobby)
        ui          TEXT NOT NULL DEFAULT '{}',  -- JSON UI state (held dice, log…)
        seed        TEXT,                     -- secret until the game ends
        version     INTEGER NOT NULL DEFAULT 0,
        deadline    REAL,                     -- turn clock (unix seconds), null = none
        created_at  REAL NOT NULL,
        updated_at  REAL NOT NULL
    );
    CREATE UNIQUE INDEX tables_channel ON tables(channel_id);
    CREATE INDEX tables_deadline ON tables(deadline) WHERE deadline IS NOT NULL;
    CREATE TABLE results (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        table_id    INTEGER NOT NULL,
        guild_id    INTEGER,
        channel_id  INTEGER NOT NULL,
        game        TEXT NOT NULL,
        record      TEXT NOT NULL,            -- JSON games.core.Record
        outcome     TEXT NOT NULL,            -- JSON engine outcome
        settlement  TEXT NOT NULL,            -- JSON user id -> points
        seed        TEXT,
        has_bots    INTEGER NOT NULL DEFAULT 0,
        finished_at REAL NOT NULL
    );
    CREATE TABLE result_players (
        result_id   INTEGER NOT NULL REFERENCES results(id),
        user_id     INTEGER NOT NULL,
        guild_id    INTEGER,
        game        TEXT NOT NULL,
        name        TEXT NOT NULL,
        rank        INTEGER NOT NULL,         -- 1 = winner
        won         INTEGER NOT NULL,
        points      INTEGER NOT NULL,         -- settlement points (Yahtzee: total)
        best        INTEGER,                  -- best Yahtzee total / best Six Dice turn / …
        rated       INTEGER NOT NULL,
        finished_at REAL NOT NULL,
        PRIMARY KEY (result_id, user_id)
    );
    CREATE INDEX result_players_game ON result_players(game, guild_id, user_id);
    CREATE TABLE ratings (
        game        TEXT NOT NULL,
        user_id     INTEGER NOT NULL,
        mu          REAL NOT NULL,
        sigma       REAL NOT NULL,
        games       INTEGER NOT NULL,
        PRIMARY KEY (game, user_id)
    );
    CREATE TABLE guild_settings (
        guild_id    INTEGER NOT NULL,
        key         TEXT NOT NULL,
        value       TEXT NOT NULL,            -- JSON
        PRIMARY KEY (guild_id, key)
    );
    """,
    # 2: turn-clock bookkeeping (warned, consecutive timeouts per player)
    """
    ALTER TABLE tables ADD COLUMN clock TEXT NOT NULL DEFAULT '{}';
    """,
    # 3: the version last shown on the table message (what is on screen);
    # tables written before it are taken as shown
    """
    ALTER TABLE tables ADD COLUMN shown INTEGER NOT NULL DEFAULT -1;
    UPDATE tables SET shown = version;
    CREATE INDEX tables_behind ON tables(updated_at) WHERE shown < version;
    """,
    # 4: who sat at a finished game and who hosted it (a rematch seats them
    # again: people by id, computers at their level); null before it
    """
    ALTER TABLE results ADD COLUMN seats TEXT;
    ALTER TABLE results ADD COLUMN host_id INTEGER;
    """,
    # 5: history and seasons — where a result's message is (channel_id and
    # message_id: a link), each result's season (null: seasons off, a DM),
    # each player's all-time rating after the game (the stats card's trend),
    # and ratings per server season (fresh each season; all-time goes on)
    """
    ALTER TABLE results ADD COLUMN message_id INTEGER;
    ALTER TABLE results ADD COLUMN season TEXT;
    ALTER TABLE result_players ADD COLUMN season TEXT;
    ALTER TABLE result_players ADD COLUMN rating REAL;
    CREATE INDEX result_players_user ON result_players(user_id, finished_at);
    CREATE INDEX results_guild ON results(guild_id, finished_at);
    CREATE TABLE season_ratings (
        guild_id    INTEGER NOT NULL,
        season      TEXT NOT NULL,            -- bot.seasons: "2026-11", "2026-Q4"
        game        TEXT NOT NULL,
        user_id     INTEGER NOT NULL,
        mu          REAL NOT NULL,
        sigma       REAL NOT NULL,
        games       INTEGER NOT NULL,
        PRIMARY KEY (guild_id, season, game, user_id)
    );
    """,
    # 6: several processes — the moves ledger (one row per stored version of a
    # table, written in the same transaction: the oracle of "no move lost or
    # doubled" and the data of game history), a computer's turn due time
    # (claimed like a turn clock, so a process dying mid-think loses
    # nothing) and the lease of whoever claimed a due table
    """
    CREATE TABLE moves (
        table_id    INTEGER NOT NULL,
        version     INTEGER NOT NULL,         -- the version this change stored
        actor       TEXT,                     -- the engine name of the mover, if a player
        move        TEXT NOT NULL,            -- moves in notation, or the lobby action / kind
        origin      TEXT NOT NULL,            -- press | command | clock | cpu
        process     TEXT NOT NULL,            -- host:pid of the process that stored it
        at          REAL NOT NULL,
        PRIMARY KEY (table_id, version)
    );
    ALTER TABLE tables ADD COLUMN cpu_due REAL;
    ALTER TABLE tables ADD COLUMN lease_owner TEXT;
    ALTER TABLE tables ADD COLUMN lease_until REAL;
    CREATE INDEX tables_cpu_due ON tables(cpu_due) WHERE cpu_due IS NOT NULL;
    """,
    # 7: a small key/value table for the bot's own bookkeeping (the hash of
    # the slash commands last synced, per application: synced again only
    # when the command tree changed)
    """
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    """,
    # 8: post-game reviews (bot/commands/review.py), computed once per result:
    # derived from the stored record, so not copied by copy-db; ``engine`` is
    # the review's version (games.review.VERSION): another version recomputes
    """
    CREATE TABLE reviews (
        result_id   INTEGER PRIMARY KEY,
        engine      TEXT NOT NULL,
        review      TEXT NOT NULL,            -- games.review.Review.to_json()
        created_at  REAL NOT NULL
    );
    """,
    # 9: tournaments (bot/tournament/, docs/tournaments.md): an event, its
    # players and its matches. A round is claimed by ``round = round + 1``
    # where the round is still the old one (one process wins) in the
    # transaction that stores its pairings, before any table is opened
    """
    CREATE TABLE tournaments (
        id              INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id        INTEGER NOT NULL,
        channel_id      INTEGER NOT NULL,
        game            TEXT NOT NULL,
        format          TEXT NOT NULL,        -- swiss | round-robin | knockout
        rounds          INTEGER NOT NULL,     -- 0: as many as the format needs
        table_size      INTEGER NOT NULL,
        options         TEXT NOT NULL,        -- JSON house options
        clock_seconds   INTEGER,              -- the matches' turn clock (null: the server's)
        starts_at       REAL,                 -- null: when the host presses Start
        checkin_seconds INTEGER NOT NULL DEFAULT 0,
        cpu_fill        INTEGER NOT NULL DEFAULT 0,
        host_id         INTEGER NOT NULL,
        lang            TEXT NOT NULL,
        state           TEXT NOT NULL,        -- signup | checkin | running | finished | ended
        round           INTEGER NOT NULL DEFAULT 0,
        message_id      INTEGER,              -- the sign-up message
        standings_message_id INTEGER,
        version         INTEGER NOT NULL DEFAULT 0,
        created_at      REAL NOT NULL,
        finished_at     REAL
    );
    CREATE INDEX tournaments_guild ON tournaments(guild_id, created_at);
    CREATE TABLE tournament_players (
        tournament_id   INTEGER NOT NULL REFERENCES tournaments(id),
        user_id         INTEGER NOT NULL,
        name            TEXT NOT NULL,
        rating          REAL,
        seed            INTEGER,
        status          TEXT NOT NULL,        -- joined | checked_in | dropped | kicked
        joined_at       REAL NOT NULL,
        PRIMARY KEY (tournament_id, user_id)
    );
    CREATE TABLE tournament_matches (
        id              INTEGER PRIMARY KEY AUTOINCREMENT,
        tournament_id   INTEGER NOT NULL REFERENCES tournaments(id),
        round           INTEGER NOT NULL,
        number          INTEGER NOT NULL,
        seats           TEXT NOT NULL,        -- JSON user ids (a computer: negative)
        thread_id       INTEGER,
        table_id        INTEGER,
        result_id       INTEGER,
        state           TEXT NOT NULL,        -- paired | open | finished | bye
        points          TEXT,                 -- JSON user id -> tournament points
        scores          TEXT,                 -- JSON user id -> game score
        UNIQUE (tournament_id, round, number)
    );
    CREATE INDEX tournament_matches_table ON tournament_matches(table_id);
    """,
    # 10: boards that cost the same after years of games (issue 35). The
    # totals every board and /stats read, kept by the finishing transaction
    # (bot/results/repo.py) for three scopes — every server (guild_id 0,
    # season ''), a server (season ''), a server's season — one row per
    # game and player: games, wins, points (their sum), best, top (the most
    # points in one game) and name (the greatest, as MAX(name) read it).
    # ``board_counts``: the places of a scope (why a board is empty) and
    # which seasons a server has games in. Sorted indexes for each board of
    # every server (a server's and a season's players are few: read by the
    # key and sorted), the ratings by ordinal (mu - 3 sigma). Both tables
    # back-filled from the results; WITHOUT ROWID: the rows live in their
    # key's b-tree (one b-tree less to write when a game finishes).
    """
    CREATE TABLE board_totals (
        game        TEXT NOT NULL,
        guild_id    INTEGER NOT NULL,         -- 0: every server (and direct messages)
        season      TEXT NOT NULL,            -- '': every season
        user_id     INTEGER NOT NULL,
        name        TEXT NOT NULL,
        games       INTEGER NOT NULL,
        wins        INTEGER NOT NULL,
        points      INTEGER NOT NULL,
        best        INTEGER,
        top         INTEGER NOT NULL,
        PRIMARY KEY (game, guild_id, season, user_id)
    ) WITHOUT ROWID;
    CREATE TABLE board_counts (
        guild_id    INTEGER NOT NULL,
        season      TEXT NOT NULL,
        game        TEXT NOT NULL,
        finished    INTEGER NOT NULL,         -- places in finished games
        rated       INTEGER NOT NULL,         -- ... of rated games
        with_bots   INTEGER NOT NULL,         -- ... of games with computers
        PRIMARY KEY (guild_id, season, game)
    ) WITHOUT ROWID;
    INSERT INTO board_totals (game, guild_id, season, user_id, name, games, wins, points, best, top)
        SELECT game, 0, '', user_id, MAX(name), COUNT(*), SUM(won), SUM(points), MAX(best),
        MAX(points) FROM result_players GROUP BY game, user_id;
    INSERT INTO board_totals (game, guild_id, season, user_id, name, games, wins, points, best, top)
        SELECT game, guild_id, '', user_id, MAX(name), COUNT(*), SUM(won), SUM(points), MAX(best),
        MAX(points) FROM result_players WHERE guild_id IS NOT NULL GROUP BY game, guild_id, user_id;
    INSERT INTO board_totals (game, guild_id, season, user_id, name, games, wins, points, best, top)
        SELECT game, guild_id, season, user_id, MAX(name), COUNT(*), SUM(won), SUM(points),
        MAX(best), MAX(points) FROM result_players WHERE guild_id IS NOT NULL
        AND season IS NOT NULL GROUP BY game, guild_id, season, user_id;
    INSERT INTO board_counts (guild_id, season, game, finished, rated, with_bots)
        SELECT 0, '', rp.game, COUNT(*), SUM(rp.rated), SUM(r.has_bots)
        FROM result_players rp JOIN results r ON r.id = rp.result_id GROUP BY rp.game;
    INSERT INTO board_counts (guild_id, season, game, finished, rated, with_bots)
        SELECT rp.guild_id, '', rp.game, COUNT(*), SUM(rp.rated), SUM(r.has_bots)
        FROM result_players rp JOIN results r ON r.id = rp.result_id
        WHERE rp.guild_id IS NOT NULL GROUP BY rp.guild_id, rp.game;
    INSERT INTO board_counts (guild_id, season, game, finished, rated, with_bots)
        SELECT rp.guild_id, rp.season, rp.game, COUNT(*), SUM(rp.rated), SUM(r.has_bots)
        FROM result_players rp JOIN results r ON r.id = rp.result_id
        WHERE rp.guild_id IS NOT NULL AND rp.season IS NOT NULL
        GROUP BY rp.guild_id, rp.season, rp.game;
    INSERT INTO board_counts (guild_id, season, game, finished, rated, with_bots)
        SELECT DISTINCT guild_id, season, game, 0, 0, 0 FROM results
        WHERE guild_id IS NOT NULL AND season IS NOT NULL
        ON CONFLICT (guild_id, season, game) DO NOTHING;
    -- the indexes after the rows: built once, not row by row
    CREATE INDEX board_totals_wins ON board_totals(game, wins DESC, user_id) WHERE guild_id = 0;
    CREATE INDEX board_totals_points ON board_totals(game, points DESC, wins DESC, user_id)
        WHERE guild_id = 0;
    CREATE INDEX board_totals_best ON board_totals(game, best DESC, wins DESC, user_id)
        WHERE guild_id = 0 AND best IS NOT NULL;
    CREATE INDEX ratings_ordinal ON ratings(game, (mu - 3 * sigma));
    -- the boards no longer read the places by game and server: one index
    -- less to write for each place of a finished game
    DROP INDEX IF EXISTS result_players_game;
    """,
    # 11: what is counted reads only what it counts (issue 35). A server's
    # open tables (the limits of /play, bot/tables/repo.py open_counts):
    # its own rows of the index, which holds all the count reads (phase,
    # host). A server's /history of one game by its own index. The
    # reviews being waited for (bot/commands/review.py): a row per member
    # and result while the member waits, so every process
    # counts the same (docs/review.md "Limits"); ``since``: a row a process
    # left behind when it died counts no more after a while. Not copied by
    # copy-db (nobody waits on the copy).
    """
    CREATE INDEX tables_guild ON tables(guild_id, phase, host_id);
    -- a server's history of one game: its newest ten, not every newest
    -- result of the server until ten are of the game
    CREATE INDEX results_guild_game ON results(guild_id, game, finished_at);
    CREATE TABLE review_waits (
        result_id   INTEGER NOT NULL,
        user_id     INTEGER NOT NULL,
        guild_id    INTEGER,                  -- the server it was asked in (NULL: a DM)
        since       REAL NOT NULL,
        PRIMARY KEY (result_id, user_id)
    );
    CREATE INDEX review_waits_user ON review_waits(user_id, since);
    CREATE INDEX review_waits_guild ON review_waits(guild_id, since) WHERE guild_id IS NOT NULL;
    """,
    # 12: the boards by rating read only their rows (issue 35). Each row of
    # board_totals keeps the rating its scope's board sorts by — the all-time
    # rating (mu - 3 sigma) on the rows of season '' (every server's, each
    # server's), the season's own on a season's row; NULL: no rating there —
    # and ``rated``, the games that rating counts (the provisional mark).
    # The finishing transaction writes them into the rows it upserts, and a
    # rated game the player's all-time rating into their rows of the other
    # servers too (by board_totals_user: a player's rows of season '' but
    # every server's). board_totals_rating holds every board by rating as a
    # range of ``limit`` rows in its order (rating, wins, user), so the
    # ratings by ordinal are read by no board any more: dropped (one index
    # less to write a player per finish). Back-filled from the ratings.
    """
    ALTER TABLE board_totals ADD COLUMN rating REAL;
    ALTER TABLE board_totals ADD COLUMN rated INTEGER;
    UPDATE board_totals SET (rating, rated) = (SELECT r.mu - 3 * r.sigma, r.games FROM ratings r
        WHERE r.game = board_totals.game AND r.user_id = board_totals.user_id)
        WHERE season = '';
    UPDATE board_totals SET (rating, rated) = (SELECT r.mu - 3 * r.sigma, r.games
        FROM season_ratings r WHERE r.guild_id = board_totals.guild_id
        AND r.season = board_totals.season AND r.game = board_totals.game
        AND r.user_id = board_totals.user_id)
        WHERE season <> '';
    CREATE INDEX board_totals_rating ON board_totals(game, guild_id, season, rating DESC,
        wins DESC, user_id) WHERE rating IS NOT NULL;
    CREATE INDEX board_totals_user ON board_totals(user_id, game)
        WHERE season = '' AND guild_id <> 0;
    DROP INDEX IF EXISTS ratings_ordinal;
    """,
    # 13: a player's own places read from their index alone (issue 35): a
    # player's history, the stats card's rating trend, the names boards
    # show and the review's last game walk the player's places newest first
    # and read, of each, its result, server, game and rating — kept in the
    # index, so the player's ten newest are one leaf of it, not ten rows on
    # ten pages of a file of gigabytes. The same index, wider (one index a
    # place, as before); ordered by the result too (the histories' order).
    """
    DROP INDEX result_players_user;
    CREATE INDEX result_players_user ON result_players(user_id, finished_at, result_id, game,
        guild_id, rating);
    """,
]

"""Slash commands about finished games: /leaderboard and /stats.

Both answer with a picture (:mod:`bot.render.stats`: the leaderboard, the
player's card) and keep the words beside it for screen readers. ``scope``
is the period — ``season`` (this season of the server, the default of
/leaderboard), ``all`` (all time, the default of /stats) or a past season
by name (``2026-10``; offered as you type) — and ``where`` this server or
all servers (every server's board is all-time: a season is a server's).
"""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot import pictures, ratings, seasons
from bot.commands.choices import offer_games
from bot.i18n import lang_of, t
from bot.ui.result_words import points_text
from games import registry

if TYPE_CHECKING:
    from bot.host import Host


class Boards(commands.Cog):
    """Leaderboards and players' statistics."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        offer_games(self)

    def person(self, interaction: discord.Interaction[Any], user_id: int, stored: str) -> str:
        """A player's name as they chose it: their display name here (or
        their Discord name), else the name stored with their results."""
        guild = interaction.guild
        member = guild.get_member(int(user_id)) if guild is not None else None
        user = member or self.bot.get_user(int(user_id))
        return str(user.display_name) if user is not None else stored

    async def period(
        self, interaction: discord.Interaction[Any], scope: str, where: str, loc: Any
    ) -> tuple[str | None, str, bool] | None:
        """The season ``scope`` names here (``None`` = all time), the period
        in words and whether it is the season now; ``None`` after refusing a
        bad one (nothing shown)."""
        guild_id = interaction.guild_id
        scope = scope.strip()
        if scope in ("all", "") or guild_id is None or where == "global":
            if seasons.is_season(scope) and (guild_id is None or where == "global"):
                await self.bot.tables.reply(interaction, "error.season_here")
                return None
            return None, t("board.period.all", loc), False
        now = await self.current_season(guild_id)
        if scope == "season":
            if now is None:
                return None, t("board.period.off", loc), False
            name = now
        elif seasons.is_season(scope):
            name = scope
        else:
            await self.bot.tables.reply(interaction, "error.bad_scope", value=scope[:40])
            return None
        start, end = seasons.dates(name)
        return name, t("board.period.season", loc, season=name, start=start, end=end), name == now

    async def current_season(self, guild_id: int) -> str | None:
        """The server's season now (``None``: seasons are off)."""
        setting = await self.bot.tables.store.settings.guild_setting(guild_id, "season")
        return seasons.season_at(self.bot.tables.clock(), seasons.length_of(setting))

    async def scopes(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """This season (named with its dates), all time, and the server's
        past seasons: each season once."""
        loc = interaction.locale
        now = None
        if interaction.guild_id is not None:
            now = await self.current_season(interaction.guild_id)
        out = []
        if now is not None:
            start, end = seasons.dates(now)
            label = t("choice.season_now", loc, season=now, start=start, end=end)
            out.append(app_commands.Choice(name=label[:100], value="season"))
        out.append(app_commands.Choice(name=t("choice.all", loc), value="all"))
        if interaction.guild_id is not None:
            for name in await self.bot.tables.store.boards.seasons(interaction.guild_id):
                if name == now:
                    continue  # offered as this season
                start, end = seasons.dates(name)
                label = t("board.period.season", loc, season=name, start=start, end=end)
                out.append(app_commands.Choice(name=label[:100], value=name))
        typed = current.strip().lower()
        return [c for c in out if typed in c.name.lower() or typed in c.value][:25]

    @app_commands.command(name="leaderboard", description="The best players of a game")
    @app_commands.describe(
        game="The game to rank",
        scope="This season, all time or a past season",
        where="This server or all servers",
        by="Rank by rating, wins, points or best",
    )
    @app_commands.autocomplete(scope=scopes)
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        scope: str = "season",
        where: Literal["server", "global"] = "server",
        by: Literal["rating", "wins", "points", "best"] = "rating",
    ) -> None:
        store = self.bot.tables.store
        if game not in registry.names():
            await self.bot.tables.reply(interaction, "error.no_game")
            return
        lang = await self.bot.tables.public_lang(interaction)
        period = await self.period(interaction, scope, where, lang)
        if period is None:
            return
        season, when, now = period
        guild_id = interaction.guild_id if where == "server" else None
        game_name = t(f"game.{game}", lang)
        rows = await store.boards.leaderboard(game, guild_id=guild_id, by=by, season=season)
        note = None  # why the board is not the one asked for
        counts: dict[str, int] | None = None
        if not rows:
            counts = await store.boards.board_counts(game, guild_id=guild_id, season=season)
            if counts["finished"] and by == "rating":
                # finished but unrated games (computers, one person): their
                # records by wins, and why nobody has a rating
                note = await self.unrated_reason(guild_id, counts, lang)
                by = "wins"
                rows = await store.boards.leaderboard(game, guild_id=guild_id, by=by, season=season)
        title = t(
            "board.title",
            lang,
            game=game_name,
            scope=t(f"board.scope.{where}", lang),
            by=t(f"board.by.{by}", lang),
        )
        title += "\n" + when
        if not rows:
            if by == "best" and counts is not None and counts["finished"]:
                empty = t("board.no_best", lang, game=game_name)  # this game keeps no best
            elif now and season is not None:
                start, _ = seasons.dates(season)
                empty = t("board.empty_season", lang, start=start, game=game_name)
            else:
                empty = t("board.empty", lang, game=game_name)
            await interaction.response.send_message(title + "\n" + empty)
            return
        chosen = await store.boards.display_names([r["user_id"] for r in rows])
        for r in rows:  # people by the names they chose (results keep engine names)
            r["name"] = self.person(interaction, r["user_id"], chosen.get(r["user_id"], r["name"]))
        lines = [title] + ([note] if note else [])
        drawn: list[dict[str, Any]] = []
        provisional = False
        for i, r in enumerate(rows, start=1):
            value = r["value"]
            if by == "rating":
                shown = ratings.shown(value, r["rated"])
                provisional = provisional or ratings.provisional(r["rated"])
            elif by == "points":  # in the game's unit: "+16 chips", "2 lives lost"
                shown = points_text(value, game, lang)
            else:
                shown = str(value)
            games = t("unit.game", lang, count=r["games"])
            wins = t("unit.win", lang, count=r["wins"])
            if by == "wins":  # the value is the wins: said once
                line = t("board.line_wins", lang, rank=i, name=r["name"], wins=wins, games=games)
            else:
                line = t(
                    "board.line", lang, rank=i, name=r["name"], value=shown, games=games, wins=wins
                )
            lines.append(line)
            drawn.append(
                {
                    "rank": i,
                    "name": r["name"],
                    "value": shown,
                    "games": r["games"],
                    "wins": r["wins"],
                }
            )
        if provisional:
            lines.append(t("board.provisional", lang, n=ratings.PROVISIONAL_GAMES))
        board = {
            "title": title.split("\n")[0].replace("**", ""),
            "subtitle": when,
            "by": by,
            "value_label": t(f"pic.board.by.{by}", lang),
            "provisional": provisional,
            "rows": drawn,
        }
        picture = await asyncio.to_thread(_board_file, board, lang)
        await interaction.response.send_message(
            "\n".join(lines), file=picture, allowed_mentions=discord.AllowedMentions.none()
        )

    async def unrated_reason(self, guild_id: int | None, counts: dict[str, int], lang: str) -> str:
        """Why games were finished but nobody has a rating: games with
        computers not rated here (/config bots_rated), or too few people."""
        if counts["with_bots"]:
            if guild_id is None:
                return t("board.unrated_bots_global", lang)
            if not await self.bot.tables.store.settings.guild_setting(guild_id, "bots_rated"):
                return t("board.unrated_bots", lang)
        return t("board.unrated", lang)

    @app_commands.command(name="stats", description="A player's games, wins and records")
    @app_commands.describe(
        user="The player (you if left out)",
        game="One game (all games if left out)",
        scope="All time, this season or a past season",
        where="All servers or this server",
    )
    @app_commands.autocomplete(scope=scopes)
    async def stats(
        self,
        interaction: discord.Interaction[Any],
        user: discord.User | None = None,
        game: str | None = None,
        scope: str = "all",
        where: Literal["server", "global"] = "global",
    ) -> None:
        who = user or interaction.user
        loc = interaction.locale
        store = self.bot.tables.store
        if game is not None and game not in registry.names():
            await self.bot.tables.reply(interaction, "error.no_game")
            return
        if scope.strip() not in ("all", "") and interaction.guild_id is not None:
            where = "server"  # a season is this server's
        period = await self.period(interaction, scope, where, loc)
        if period is None:
            return
        season, when, _ = period
        guild_id = interaction.guild_id if where == "server" else None
        rows = await store.boards.stats(who.id, game=game, guild_id=guild_id, season=season)
        rated = await store.boards.rated_games(who.id, guild_id=guild_id, season=season)
        for r in rows:  # how many games each rating counts ("1540?" below ten)
            r["rated"] = rated.get(r["game"], 0)
        if not rows:
            key = "stats.empty_self" if who.id == interaction.user.id else "stats.empty"
            await interaction.response.send_message(
                t(key, loc, user=who.display_name), ephemeral=True
            )
            return
        lines = [t("stats.title", loc, user=who.display_name)]
        provisional = False
        for r in rows:
            rate = 100 * r["wins"] / r["games"]
            line = t(
                "stats.line",
                loc,
                game=t(f"game.{r['game']}", loc),
                games=t("unit.game", loc, count=r["games"]),
                wins=t("unit.win", loc, count=r["wins"]),
                rate=f"{rate:.0f}",
                points=_points(r["game"], r["points"], loc),
            )
            if r.get("best") is not None:
                line += t(f"stats.best.{r['game']}", loc, best=r["best"])
            if r.get("rating") is not None:
                line += t("stats.rating", loc, rating=ratings.shown(r["rating"], r["rated"]))
                provisional = provisional or ratings.provisional(r["rated"])
            lines.append(line)
        favourite = max(rows, key=lambda r: (r["games"], r["wins"], r["game"]))["game"]
        trend_game = game or favourite
        card = {
            "name": who.display_name,
            "key": who.id,
            "period": when,
            "games": rows,
            "favourite": favourite,
            "trend_game": trend_game,
            "trend": await store.boards.rating_trend(who.id, trend_game),
            "trend_all_time": season is not None,
        }
        picture = await asyncio.to_thread(_card_file, card, lang_of(loc))
        lines.insert(1, when)
        if provisional:
            lines.append(t("board.provisional", loc, n=ratings.PROVISIONAL_GAMES))
        await interaction.response.send_message(
            "\n".join(lines),
            file=picture,
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )


def _card_file(card: dict[str, Any], lang: str) -> discord.File:
    pic = pictures.stats_picture(card, lang=lang)
    return discord.File(io.BytesIO(pic.png), pic.filename, description=pic.alt)


def _board_file(board: dict[str, Any], lang: str) -> discord.File:
    pic = pictures.board_picture(board, lang=lang)
    return discord.File(io.BytesIO(pic.png), pic.filename, description=pic.alt)


def _points(game: str, points: int, loc: object) -> str:
    """A player's points in a game in its unit ("+16 chips", "9 game
    points"; Bluff's lives lost: never "-1 points")."""
    if game in registry.names():
        return points_text(points, game, loc)
    return t("stats.points", loc, count=abs(points), signed=f"{points:+}")

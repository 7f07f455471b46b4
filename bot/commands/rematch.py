"""The "Rematch" button under a finished game's result (``cr:<result>:rematch``).

It opens a new lobby in the same channel through the lobby's
``open_lobby``: the same game and house options, a new seed (its hash on the
lobby), the same host, the computers seated again at their levels, and the
people of the game invited — each presses Join to confirm (the presser
confirmed by pressing Rematch). The button carries only the result id; the
seats and the host come from the stored result, so it works after a restart.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.i18n import t
from bot.lobby import Again
from bot.model import human_seat, is_cpu
from games import registry

if TYPE_CHECKING:
    from bot.host import Host


CPU_NAME = re.compile(r"CPU\d+")  # a computer's seat name (bot.model.cpu_seat)


def seats_of(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The seats of a finished game in their order. A result stored before
    its seats were (schema 4) has them rebuilt from the record and its
    players: people by id, the rest computers at the normal level."""
    if result.get("seats"):
        return [dict(s) for s in result["seats"]]
    by_name = {p["name"]: p for p in result["players"]}
    out: list[dict[str, Any]] = []
    for n, name in enumerate(result["record"].get("players", []), start=1):
        person = by_name.get(name)
        if person is not None:
            out.append({"id": person["user_id"], "name": name, "display": name})
        else:
            out.append({"id": -n, "name": name, "display": name, "bot": True, "level": "normal"})
    return out


class Rematch(commands.Cog):
    """The same players again, at a new table in the same channel."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        bot.result_actions["rematch"] = self.rematch

    async def rematch(
        self, interaction: discord.Interaction[Any], result_id: int, arg: str
    ) -> None:
        tables = self.bot.tables
        result = await tables.store.results.get_result(result_id)
        if (
            result is None
            or result["channel_id"] != interaction.channel_id
            or result["guild_id"] != interaction.guild_id
            or interaction.guild_id is None
            or result["game"] not in registry.names()
        ):
            await tables.reply(interaction, "error.no_result")
            return
        if await tables.store.tournaments.match_of_table(int(result["table_id"])) is not None:
            # a tournament's match: its result shows no Rematch (the event
            # pairs the next round); a press made by hand is refused too
            await tables.reply(interaction, "tournament.error.no_rematch")
            return
        old = seats_of(result)
        people = [s for s in old if not is_cpu(s) and not s.get("kicked")]  # /game kick: not again
        if not any(s["id"] == interaction.user.id for s in people):
            await tables.reply(interaction, "error.rematch_not_a_player")
            return
        lang = await tables.public_lang(interaction)
        seats: list[dict[str, Any]] = []
        order: list[int] = []  # everyone's id, in the old seats' order
        names = {s["name"] for s in old}
        ids = {s["id"] for s in old if not is_cpu(s) or CPU_NAME.fullmatch(s["name"])}  # kept
        numbers = iter(n for n in range(1, len(old) + 2) if f"CPU{n}" not in names and -n not in ids)
        for seat in old:
            order.append(seat["id"])
            if is_cpu(seat):  # computers stay, labelled in the new table's language
                if not CPU_NAME.fullmatch(seat["name"]):  # one that took a kicked player's seat
                    n = next(numbers)
                    seat = {**seat, "id": -n, "name": f"CPU{n}"}
                    order[-1] = -n
                level = seat.get("level", "normal")
                label = t("cpu.display", lang, name=seat["name"], level=t(f"cpu.level.{level}", lang))
                seats.append({**seat, "display": label})
            elif seat["id"] == interaction.user.id:  # pressing Rematch is their Join
                taken = {s["name"] for s in old if is_cpu(s)} | {f"CPU{n}" for n in range(len(old) + 2)}
                seats.append(human_seat(interaction.user, taken, interaction.locale))
        host = int(result.get("host_id") or 0)
        if not any(s["id"] == host for s in people):  # the host left: the presser hosts
            host = interaction.user.id
        again = Again(
            result_id=result_id,
            options=dict(result["record"].get("options", {})),
            seats=seats,
            host_id=host,
            invited=[
                {"id": s["id"], "display": s.get("display") or s["name"]}
                for s in people
                if s["id"] != interaction.user.id
            ],
            order=order,
        )
        await self.bot.lobby.open_lobby(interaction, result["game"], None, again=again)


async def setup(bot: Host) -> None:
    await bot.add_cog(Rematch(bot))

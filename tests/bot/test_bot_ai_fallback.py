"""When the AI cannot answer — its worker process dies, runs out of memory or
of time (bot/ai.py, docs/cpu.md) — a computer player still moves (the game's
default move, the one its turn clock would make) and /hint still answers (the
default move, without numbers): no table is left waiting."""

from __future__ import annotations

import logging

import pytest
from simtable import accepted, reading

from bot import ai
from bot.games import plugin
from bot.i18n import t
from games import registry


@pytest.fixture
def decisions_run_over(monkeypatch, caplog):
    """Every decision or hint runs over its time: its worker is killed (and
    replaced) and the AI is unavailable."""
    monkeypatch.setenv("CHABUDAI_AI_WORKERS", "2")
    monkeypatch.setattr(ai, "DECISION_SECONDS", 0.0)
    caplog.set_level(logging.WARNING, logger="bot.ai")
    return caplog


def lost(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if "ran over" in r.getMessage()]


async def test_a_computer_whose_worker_is_lost_plays_the_default_move(
    game_night, decisions_run_over
):
    async with game_night(seeded=True) as night:
        table = await night.table("nine", players=1, cpus=["strong"])
        await night.settle()
        for _ in range(20):
            moves = await table.moves()
            if sum(m.startswith("CPU1 ") for m in moves) >= 2 or table.over:
                break
            accepted(await table.play(by=night.alice))
            await night.settle()
        moves = await table.moves()
    cpu = [m for m in moves if m.startswith("CPU1 ")]
    assert len(cpu) >= 2, moves  # the computer moved all the same
    assert len(lost(decisions_run_over)) >= len(cpu)  # each decision's worker was lost


async def test_hint_says_the_default_move_when_the_ai_is_lost(game_night, decisions_run_over):
    async with game_night(seeded=True) as night:
        table = await night.table("sixtysix", players=2)
        await night.settle()
        mover = table.mover
        text = await table.ask(mover, "hint")
        (row,) = await night.store.tables.live_tables()
        eng = registry.engine("sixtysix")
        state = eng.from_json(row.state)
        legal = eng.legal_moves(state, mover.name)
        default = registry.spec("sixtysix").timeout_move(state, mover.name, legal, [])[0]
        title = reading(text, "hint.title", game=t("game.sixtysix"))
        label = plugin("sixtysix").move_text(default, eng.view(state, mover.name), "en")
        assert title is not None and title["move"] == label, text
        assert text.strip() == t("hint.title", game=t("game.sixtysix"), move=label)
        assert "hints" not in row.ui  # not the coach's advice: not marked
    assert lost(decisions_run_over)

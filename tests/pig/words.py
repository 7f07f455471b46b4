"""Pig's catalogue entries, in both languages."""

from __future__ import annotations

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "game.pig": "Pig",
        "choice.pig": "Pig",
        "pic.pig": "Pig",
        "pig.btn.roll": "Roll",
        "pig.btn.hold": "Hold",
        "pig.status": "This turn: {total} • {scores} (first to {target})",
        "pig.hint": "This turn so far: {total}.",
        "ev.pig.roll": "{player} rolled {die} (this turn: {total}).",
        "ev.pig.pig_out": "{player} rolled a 1 and lost {lost}.",
        "ev.pig.hold": "{player} held {points} (score {score}).",
        "ev.pig.forfeit": "{player} left the game.",
        "rule.pig.illegal": "You cannot {move} now.",
    },
    "ja": {
        "game.pig": "ピッグ",
        "choice.pig": "ピッグ",
        "pic.pig": "ピッグ",
        "pig.btn.roll": "振る",
        "pig.btn.hold": "止める",
        "pig.status": "このターン: {total} • {scores}（{target}点先取）",
        "pig.hint": "このターンの点: {total}。",
        "ev.pig.roll": "{player}が{die}を出した（このターン {total}）。",
        "ev.pig.pig_out": "{player}が1を出して{lost}点を失った。",
        "ev.pig.hold": "{player}が{points}点を確保（合計 {score}）。",
        "ev.pig.forfeit": "{player}がゲームを抜けた。",
        "rule.pig.illegal": "いまは{move}できません。",
    },
}

"""The sandbox speaks its ``--locale``: the members' interactions carry it
(:func:`members_speak`) and the page's slash commands read in it
(:func:`commands_speak`, turned back into the registered names by
:func:`_canonical_command`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from typing import Any


def _localized(node: Mapping[str, Any], key: str, locale: str) -> str:
    return str((node.get(f"{key}_localizations") or {}).get(locale) or node.get(key, ""))


def _leaf_names(command: Mapping[str, Any], path: list[str], locale: str) -> tuple[list[str], Mapping[str, Any]]:
    """``path``'s names in ``locale`` and the leaf's node."""
    names = [_localized(command, "name", locale)]
    node: Mapping[str, Any] = command
    for part in path[1:]:
        node = next(o for o in node.get("options") or [] if o.get("name") == part)
        names.append(_localized(node, "name", locale))
    return names, node


def _canonical_command(env: Any, body: Mapping[str, Any]) -> Mapping[str, Any]:
    """A slash command from a page that shows the commands' names in the
    sandbox's language (:func:`commands_speak`), in the names the bot
    registered (which Discord sends the bot whatever the user's language)."""
    from simcord.interactions import command_leaves

    locale = _COMMANDS_LOCALE.get("locale")
    path = body.get("path")
    if not locale or not isinstance(path, list):
        return body
    command = next(
        (c for scope in env.backend.commands.values() for c in scope.values()
         if str(c.get("id")) == str(body.get("command_id"))),
        None,
    )
    if command is None:
        return body
    for canonical, leaf in command_leaves(command):
        names, _node = _leaf_names(command, canonical, locale)
        if names != path:
            continue
        back = {_localized(o, "name", locale): o["name"] for o in leaf.get("options") or []}
        out = {**body, "path": list(canonical)}
        if isinstance(body.get("options"), Mapping):
            out["options"] = {back.get(k, k): v for k, v in body["options"].items()}
        if isinstance(body.get("focused"), str):
            out["focused"] = back.get(body["focused"], body["focused"])
        return out
    return body


_COMMANDS_LOCALE: dict[str, str] = {}


@contextlib.contextmanager
def commands_speak(locale: str) -> Iterator[None]:
    """The page's slash commands in the sandbox's language, as Discord shows a
    Japanese user ``/あそぶ``: SimCord's command catalog shows the registered
    names and ignores the translations the bot synced with them
    (``name_localizations``, from ``cmd.*.name`` in bot/i18n). The page
    shows them translated; what a page sends back is turned into the
    registered names (:func:`_canonical_command`). Only the catalog the page
    reads is translated: the action run from it still names the command as
    registered (``tournament create``; SimCord walks a subcommand's path by
    its registered names)."""
    from simcord.interactions import command_leaves
    from simcord.preview import _commands as catalog

    lang = locale if locale not in ("en-US", "en-GB") else ""
    original = catalog.build_catalog

    def speak(entry: dict[str, Any], command: Mapping[str, Any]) -> None:
        path = list(entry["path"])
        leaf = next((node for canonical, node in command_leaves(dict(command)) if canonical == path), None)
        if leaf is None:
            return
        names, _node = _leaf_names(command, path, lang)
        entry["path"] = names
        entry["invocation"] = " ".join(names)
        entry["description"] = _localized(leaf, "description", lang)
        for wire, option in zip(entry["options"], leaf.get("options") or [], strict=False):
            wire["name"] = _localized(option, "name", lang)
            wire["description"] = _localized(option, "description", lang)
            for choice, raw in zip(wire["choices"], option.get("choices") or [], strict=False):
                choice["name"] = _localized(raw, "name", lang)

    def speaking(preview: Any, page: Any) -> dict[str, Any]:
        built: dict[str, Any] = original(preview, page)
        if not lang:
            return built
        commands = {
            str(c.get("id")): c for scope in preview.env.backend.commands.values() for c in scope.values()
        }
        for entry in built.get("entries", []):
            command = commands.get(str(entry.get("commandId")))
            if command is not None:
                speak(entry, command)
        return built

    catalog.build_catalog = speaking
    _COMMANDS_LOCALE["locale"] = lang
    try:
        yield
    finally:
        catalog.build_catalog = original
        _COMMANDS_LOCALE.pop("locale", None)


@contextlib.contextmanager
def members_speak(locale: str) -> Iterator[None]:
    """Every interaction of the sandbox carries ``locale`` as the member's
    Discord locale and the server's as ``guild_locale``, as Discord sends
    them (SimCord itself always says ``en-US``)."""
    import simcord.interactions as sim

    original = sim.base_payload

    def speaking(backend: Any, **kwargs: Any) -> Any:
        record, payload = original(backend, **kwargs)
        payload["locale"] = locale
        if kwargs.get("guild_id") is not None:
            payload["guild_locale"] = backend.get_guild(kwargs["guild_id"]).preferred_locale
        return record, payload

    sim.base_payload = speaking
    try:
        yield
    finally:
        sim.base_payload = original

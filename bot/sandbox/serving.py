"""What SimCord's pages show, made to show it as Discord does: a select fresh
each turn (:func:`fresh_selects`), a thread's name linking to its page
(:func:`thread_links`), a command mention in an embed (:func:`embed_commands`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from aiohttp import web

SELECTS = frozenset({3, 5, 6, 7, 8})  # Discord's select component types

log = logging.getLogger("chabudai.sandbox")


@contextlib.contextmanager
def fresh_selects() -> Iterator[None]:
    """A select offers every choice fresh each turn.

    The page keeps what was chosen in a select under the control's key, which
    SimCord makes of the message and the control's place in it; the table
    message is edited in place, so next turn's select had the same key, showed
    last turn's choice as chosen, and choosing it again sent nothing (the
    page only sends a changed choice). Here a select's key also names its
    custom id, which the bot makes new each turn (the table's version), so a
    new turn's select is a new control. Upstream report: docs/sandbox.md."""
    from simcord.preview import _action_plans as plans
    from simcord.preview import _component_projection as projection

    component_key, control_key = plans._component_key, projection._control_key

    def mark(key: str | None, component: Mapping[str, Any]) -> str | None:
        custom = component.get("custom_id")
        if key is None or component.get("type") not in SELECTS or not custom:
            return key
        if not key.startswith("message:"):
            return key
        return f"{key}~{hashlib.sha1(str(custom).encode()).hexdigest()[:10]}"

    def keyed_component(component: Mapping[str, Any], path: str, message_id: int) -> str | None:
        return mark(component_key(component, path, message_id), component)

    def keyed_control(scope: str, component: Mapping[str, Any], path: str) -> str | None:
        return mark(control_key(scope, component, path), component)

    plans._component_key = keyed_component
    projection._control_key = keyed_control
    try:
        yield
    finally:
        plans._component_key = component_key
        projection._control_key = control_key


# what SimCord's page allows as a link (Discord's own), and what it sends to
# open a page (no viewer: the first); both widened by :func:`thread_links`
_LINK_CHECK = 'if (url.protocol !== "https:" || url.hostname !== "discord.com") return;'
_LINK_LOCAL = (
    'if ((url.protocol !== "https:" || url.hostname !== "discord.com")'
    ' && (url.origin !== "http://127.0.0.1:" + url.port || !url.port)) return;'
)
_OPEN_PAGE = 'request("/api/pages", "POST", {}, null)'
_OPEN_AS = (
    'request("/api/pages", "POST", new URLSearchParams(window.location.search).has("viewer_id")'
    ' ? { viewer_id: new URLSearchParams(window.location.search).get("viewer_id") } : {}, null)'
)


@contextlib.contextmanager
def thread_links(threads: Mapping[int, str]) -> Iterator[None]:
    """A thread's line in its channel ("started a thread: Tournament #1 · Round 1 · match 1")
    links to the thread's page.

    SimCord's page links a thread's name to discord.com, which knows nothing
    of the sandbox, and allows no other link. Here the link goes to the
    thread's page (``threads``: a thread's id -> its address), which opens
    in a new tab as the member who clicked (``?viewer_id=``), and the page
    allows a link to its own loopback host; a thread without a page yet
    shows no link (the next publication, 0.1 s later, has it)."""
    from simcord.preview import _messages as messages
    from simcord.preview import _server as server

    project = messages._system_projection
    static = server.PreviewServer._static

    def projecting(preview: Any, page: Any, message: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        system: dict[str, Any] = project(preview, page, message, *args, **kwargs)
        target = system.get("channel")
        if isinstance(target, dict) and str(target.get("id", "")).isdigit():
            thread_id = int(target["id"])
            channel = preview.env.backend.channels.get(thread_id)
            if channel is not None and channel.is_thread:
                url = threads.get(thread_id)
                if url:
                    base, _, key = url.partition("#")
                    target["url"] = f"{base}?viewer_id={page.viewer.id}#{key}"
                else:
                    del system["channel"]
        return system

    async def serving(self: Any, request: Any) -> Any:
        response = await static(self, request)
        name = request.path.rsplit("/", 1)[-1]
        if name in ("messages.js", "app.js") and isinstance(getattr(response, "text", None), str):
            text = response.text
            patched = text.replace(_LINK_CHECK, _LINK_LOCAL).replace(_OPEN_PAGE, _OPEN_AS)
            if patched == text:
                log.debug("SimCord's %s changed: thread links may not open", name)
            response.text = patched
        return response

    messages._system_projection = projecting
    server.PreviewServer._static = serving  # type: ignore[method-assign]
    try:
        yield
    finally:
        messages._system_projection = project
        server.PreviewServer._static = static  # type: ignore[method-assign]


@contextlib.contextmanager
def embed_commands() -> Iterator[None]:
    """A command mention (``</play:123>``) in an embed's description or a
    field reads "/play" as on Discord: SimCord's page shows it raw there
    (``/help`` is an embed of them), and only in a message's text as a
    command."""
    from simcord.preview import _markdown as markdown

    fields = [markdown._FIELD_POLICIES.get(name) for name in ("embed_description", "embed_field_value")]
    before = [None if policy is None else policy.get("commands") for policy in fields]
    for policy in fields:
        if policy is not None:
            policy["commands"] = True
    try:
        yield
    finally:
        for policy, value in zip(fields, before, strict=True):
            if policy is not None:
                policy["commands"] = bool(value)


ACTIVITY_SCRIPT = "/activity-link.js"  # the page's script that shows the member's link
_ACTIVITY_TAG = '<script src="/activity-link.js" defer></script>'
_PAGE_END = "</body>"


def activity_script(links: Mapping[str, str], label: str) -> str:
    """The script a page loads (SimCord's pages allow only their own scripts,
    no inline one): a link "Open the Activity" in the page's toolbar, to the
    Activity as the member the page is viewing as (``links``: viewer id ->
    address; no link for a viewer without one)."""
    return f"""// chabudai's sandbox: the member's "Open the Activity" link (docs/sandbox.md)
const links = {json.dumps(dict(links))};
const link = document.createElement("a");
link.id = "activity-link";
link.className = "toolbar-button";
link.target = "_blank";
link.rel = "noopener";
link.textContent = {json.dumps(label)};
link.hidden = true;
const refresh = document.getElementById("refresh");
(refresh ? refresh.parentNode : document.body).insertBefore(link, refresh ? refresh.nextSibling : null);
function show() {{
  const picker = document.getElementById("viewer-picker");
  const url = picker ? links[picker.value] : undefined;
  link.hidden = !url;
  if (url && link.href !== url) link.href = url;
}}
document.addEventListener("change", show);
setInterval(show, 300);
show();
"""


@contextlib.contextmanager
def activity_links(links_of: Callable[[Any], Mapping[str, str]], label: str) -> Iterator[None]:
    """Each page shows an "Open the Activity" link in its toolbar, to the
    Activity on that page's channel as the member the page views as
    (``links_of(preview)``: viewer id -> address). The address carries the
    member's sandbox code in its fragment (``#code=…``), which the browser
    never sends to a server; the page that shows it is already the key to
    the session (it acts as any of its members)."""
    from simcord.preview import _server as server

    static = server.PreviewServer._static
    files = server.PreviewServer._STATIC_FILES
    added = ACTIVITY_SCRIPT not in files

    async def serving(self: Any, request: Any) -> Any:
        if request.path == ACTIVITY_SCRIPT:
            if self.port is None or request.headers.get("Host", "") not in self._allowed_hosts():
                raise web.HTTPForbidden()
            return web.Response(
                text=activity_script(links_of(self.preview), label),
                content_type="application/javascript",
                headers=self._SECURITY_HEADERS,
            )
        response = await static(self, request)
        if request.path == "/" and isinstance(getattr(response, "text", None), str):
            text = response.text
            if _PAGE_END in text:
                response.text = text.replace(_PAGE_END, _ACTIVITY_TAG + _PAGE_END, 1)
            else:
                log.debug("SimCord's index.html changed: no Activity link on the page")
        return response

    if added:
        files[ACTIVITY_SCRIPT] = "activity-link.js"
    server.PreviewServer._static = serving  # type: ignore[method-assign]
    try:
        yield
    finally:
        server.PreviewServer._static = static  # type: ignore[method-assign]
        if added:
            files.pop(ACTIVITY_SCRIPT, None)

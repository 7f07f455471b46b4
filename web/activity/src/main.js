// chabudai's Activity: the channel's table, live, inside Discord.
//
// 1. The SDK: in Discord (the page's address has `frame_id`) the Embedded App
//    SDK; in the sandbox (`?sdk=mock`) its DiscordSDKMock, whose `authorize`
//    answers with the code the sandbox minted for its member (carried in the
//    address's fragment, which no server sees).
// 2. Identity: authorize → POST api/token {code} → access token (the server
//    exchanges the code with Discord's OAuth2) → in Discord, authenticate.
// 3. The socket (api/ws): hello with the token and the channel; the server
//    answers welcome (the words), then a frame per change of the table. A
//    move is sent as its notation with the version it was chosen at.
//    The socket reconnects by itself, with back-off, and catches up (since).
// All addresses are relative: behind Discord's proxy and in the sandbox alike.

import { DiscordSDK, DiscordSDKMock } from "@discord/embedded-app-sdk";
import { skipRolls } from "./dice.js";
import { drawAsk, drawTable, serverNow, tickClocks } from "./table.js";
import { hasWords, rich, setWords, t } from "./words.js";

const root = document.getElementById("app");
const bar = document.getElementById("bar");
const query = new URLSearchParams(window.location.search);

const state = {
  sdk: null,
  token: null,
  channel: null,
  socket: null,
  frame: null, // the table frame drawn last
  version: null, // the last version seen (hello's since)
  user: null,
  attempts: 0, // reconnections since the last welcome
  connected: false,
  ask: null, // a question asked about a move ("sure?"), till answered
  none: null, // the last "none" frame (the games offered), while there is no table
};

function show(kind, key, args) {
  // the connection's line: connecting, reconnecting, errors
  bar.className = `bar ${kind}`;
  bar.replaceChildren();
  if (key) bar.append(hasWords() ? t(key, args) : "•");
}

function showError(text) {
  const note = document.getElementById("error");
  note.replaceChildren(rich(text));
  note.hidden = false;
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => { note.hidden = true; }, 6000);
}

async function config() {
  try {
    const response = await fetch("api/config");
    if (response.ok) return await response.json();
  } catch (_) {
    // no config: the public view still works
  }
  return {};
}

// The SDK and, when the viewer lets us, their access token.
async function identify() {
  const { client_id: clientId = "sandbox" } = await config();
  let sdk;
  if (query.get("sdk") === "mock" || !query.has("frame_id")) {
    // the sandbox (or a plain browser): Discord's own mock of the SDK
    const code = new URLSearchParams(window.location.hash.slice(1)).get("code");
    if (window.location.hash) history.replaceState(null, "", window.location.pathname + window.location.search);
    sdk = new DiscordSDKMock(clientId, query.get("guild"), query.get("channel"), null);
    sdk._updateCommandMocks({
      authorize: async () => {
        if (!code) throw new Error("no code");
        return { code };
      },
    });
  } else {
    sdk = new DiscordSDK(clientId);
  }
  state.sdk = sdk;
  await sdk.ready();
  state.channel = sdk.channelId;
  try {
    const { code } = await sdk.commands.authorize({
      client_id: clientId,
      response_type: "code",
      state: "",
      prompt: "none",
      scope: ["identify"],
    });
    const response = await fetch("api/token", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ code }),
    });
    if (!response.ok) throw new Error(`token: ${response.status}`);
    const { access_token: token } = await response.json();
    if (sdk instanceof DiscordSDK) await sdk.commands.authenticate({ access_token: token });
    state.token = token;
  } catch (_) {
    state.token = null; // not proven: the public table only
  }
}

function socketUrl() {
  const url = new URL("api/ws", window.location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  url.hash = "";
  url.search = "";
  return url.toString();
}

function send(message) {
  if (state.socket?.readyState === WebSocket.OPEN) state.socket.send(JSON.stringify(message));
}

// A control pressed: its move (opaque: the chat control's action) with the
// table and the version it was shown at; the controls wait for the answer.
function move(action) {
  const about = state.ask || state.frame;
  if (!about) return;
  const answering = state.ask !== null;
  state.ask = null;
  send({ op: "move", table: about.table, version: about.version, move: action });
  if (answering) {
    redraw(state.frame); // the question closes ("no" changes nothing, and no frame follows)
    return;
  }
  root.querySelectorAll("button[data-move]").forEach((b) => { b.disabled = true; });
  // a press that changes nothing anyone sees brings no frame: the controls come back
  const shown = state.frame;
  setTimeout(() => { if (state.frame === shown && !state.ask) redraw(shown); }, 4000);
}

const controls = {
  send: move,
  openLink: (event, url) => {
      // inside Discord a link opens through the SDK (an iframe may not navigate away)
      if (state.sdk instanceof DiscordSDK) {
        event.preventDefault();
        state.sdk.commands.openExternalLink({ url });
      }
    },
};

// No table here: to a proven user the server offers the games; a button
// each opens a lobby in this channel (the chat shows it too).
function drawNone(message) {
  const games = message.games || [];
  const text = t(games.length ? "activity.ui.open_game" : "activity.ui.no_table");
  const page = [Object.assign(document.createElement("p"), { className: "no-table", textContent: text })];
  if (games.length) {
    const list = document.createElement("div");
    list.className = "games";
    for (const game of games) {
      const button = Object.assign(document.createElement("button"), { className: "move game", textContent: game.label });
      button.dataset.game = game.name;
      button.addEventListener("click", () => {
        list.querySelectorAll("button").forEach((b) => { b.disabled = true; });
        send({ op: "open", game: game.name });
      });
      list.append(button);
    }
    page.push(list);
  }
  root.replaceChildren(...page);
}

function redraw(prev = state.frame) {
  if (!state.frame) return;
  drawTable(root, state.frame, prev, controls);
  drawAsk(root, state.ask, controls);
}

function receive(message) {
  switch (message.op) {
    case "welcome":
      setWords(message.words);
      document.documentElement.lang = message.locale || "en";
      state.user = message.user;
      state.attempts = 0;
      state.connected = true;
      show("ok", null);
      if (!state.frame) {
        root.replaceChildren(Object.assign(document.createElement("p"), { className: "waiting", textContent: t("activity.ui.waiting") }));
      } else redraw(state.frame);
      break;
    case "table": {
      const prev = state.frame;
      // an older frame of the same table is dropped; a game's end is final
      // whatever its version (one rebuilt from the stored result has none)
      const final = message.phase === "finished" || message.phase === "ended";
      if (prev && prev.table === message.table && prev.version > message.version && !final) return;
      if (!prev || prev.table !== message.table || prev.version !== message.version) state.ask = null;
      state.frame = message;
      state.none = null;
      state.version = message.version;
      serverNow(message.now);
      redraw(prev);
      break;
    }
    case "none":
      state.frame = null;
      state.version = null;
      state.none = message;
      drawNone(message);
      break;
    case "ask":
      state.ask = message;
      redraw(state.frame);
      break;
    case "error":
      showError(message.text || message.key);
      if (!state.frame && state.none) drawNone(state.none); // the games come back
      redraw(state.frame); // the controls come back
      break;
    default:
      break;
  }
}

function connect() {
  const socket = new WebSocket(socketUrl());
  state.socket = socket;
  socket.addEventListener("open", () => {
    socket.send(JSON.stringify({ op: "hello", token: state.token, channel: state.channel, instance: state.sdk?.instanceId ?? null, since: state.version }));
  });
  socket.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch (_) {
      return;
    }
    receive(message);
  });
  socket.addEventListener("close", () => {
    if (state.socket !== socket) return;
    state.connected = false;
    state.attempts += 1;
    show("warn", "activity.ui.reconnecting");
    // back-off: 0.5 s, 1, 2, 4, up to 10 s, with a little jitter
    const delay = Math.min(10000, 500 * 2 ** Math.min(state.attempts - 1, 5)) * (0.8 + Math.random() * 0.4);
    setTimeout(connect, delay);
  });
}

function keepAlive() {
  setInterval(() => send({ op: "ping" }), 20000);
  setInterval(() => tickClocks(root), 250);
}

// a click or a key ends the dice's roll and the cards' slide at once
for (const kind of ["pointerdown", "keydown"]) document.addEventListener(kind, () => skipRolls(root), { capture: true });

async function start() {
  show("info", "activity.ui.connecting");
  await identify();
  connect();
  keepAlive();
}

start();

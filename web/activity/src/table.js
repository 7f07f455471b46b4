// The table drawn from the server's frame (docs/activity.md "Protocol"): the
// game's board (dice or cards), whose turn, the scores, the clock, the log,
// the result with its links, and every legal move of the frame as a control.
// Nothing here decides what is legal: a control sends its move's notation and
// the server checks it as it checks a button press.

import { card, pile, suitSymbol } from "./cards.js";
import { die, diceRow } from "./dice.js";
import { rich, t } from "./words.js";

function el(tag, className, ...children) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const child of children) if (child != null && child !== "") node.append(child);
  return node;
}

function heading(key, args) {
  return el("h2", null, t(key, args));
}

// What changed since the frame before, for the animations: new dice roll,
// a new card on the trick.
function changed(prev, frame, pick) {
  if (!prev || prev.table !== frame.table || prev.version === frame.version) return false;
  return JSON.stringify(pick(prev.view || {})) !== JSON.stringify(pick(frame.view || {}));
}

// ---------------------------------------------------------------- the boards

function sixdiceBoard(frame, ctx, prev) {
  const v = frame.view;
  const box = el("div", "board sixdice");
  // a roll is new when the last roll is another (each has its number)
  const rolling = changed(prev, frame, (w) => w.last_roll);
  if (v.roll) box.append(diceRow(v.roll, { rolling }));
  else if (v.last_roll?.dice && v.last_roll.result !== "score") {
    box.append(diceRow(v.last_roll.dice, { rolling })); // the roll that ended the turn (ドボン, ブタ)
  }
  if (v.set_aside?.length) {
    const aside = el("div", "aside");
    for (const group of v.set_aside) aside.append(el("div", "group", diceRow(group.dice, { held: true }), el("span", "points", `+${group.points}`)));
    box.append(aside);
  }
  if (v.turn_player) box.append(el("p", "turn-total", t("activity.ui.turn_total", { points: v.turn_total ?? 0 })));
  return box;
}

function bluffBoard(frame, ctx, prev) {
  const v = frame.view;
  const box = el("div", "board bluff");
  const said = v.last_announcement;
  if (said) {
    const value = String(said.value);
    box.append(el("div", "announced", el("span", "who", t("activity.ui.announced", { name: ctx.name(said.player) })), diceRow([Number(value[0]), Number(value[1])])));
  }
  if (v.cup_seen) {
    box.append(el("div", "cup-seen", el("span", "who", t("activity.ui.your_dice")), diceRow(v.cup_seen, { rolling: changed(prev, frame, (w) => w.cup_seen) })));
  } else if (v.holder && !v.finished) {
    box.append(el("div", "cup-hidden", diceRow([null, null])));
  }
  if (v.last_reveal?.dice) {
    box.append(el("div", "revealed", el("span", "who", t("activity.ui.revealed")), diceRow(v.last_reveal.dice, { rolling: changed(prev, frame, (w) => w.last_reveal) })));
  }
  return box;
}

function nineBoard(frame, ctx, prev) {
  const v = frame.view;
  const box = el("div", "board nine");
  if (v.last_roll?.dice) box.append(diceRow(v.last_roll.dice, { rolling: changed(prev, frame, (w) => w.last_roll) }));
  const rows = el("div", "nine-rows");
  for (const p of v.players) {
    const tiles = el("div", "tiles");
    (v.cards?.[p] || []).forEach((up, i) => tiles.append(el("span", up ? "tile up" : "tile down", String(i + 1))));
    rows.append(el("div", p === v.turn ? "nine-row current" : "nine-row", el("span", "who", ctx.name(p)), tiles));
  }
  box.append(rows);
  return box;
}

function yahtzeeBoard(frame, ctx, prev) {
  const v = frame.view;
  const box = el("div", "board yahtzee");
  if (v.dice?.length) {
    // a die to hold is the chat table's toggle (k:<i>); held ones are marked
    const rolling = changed(prev, frame, (w) => [w.dice, w.rolls_left, w.turn, w.round]);
    const row = el("div", "dice");
    v.dice.forEach((value, i) => {
      const toggle = ctx.moves.find((m) => m.move === `k:${i}`);
      const held = Boolean(v.kept?.[i]);
      if (toggle) ctx.used([toggle]);
      const node = die(value, { rolling: rolling && !held, picked: held, onClick: toggle ? () => ctx.send(toggle.move) : null, label: toggle?.label });
      if (toggle) node.dataset.move = toggle.move;
      row.append(node);
    });
    box.append(row);
    if (v.rolls_left != null && v.turn) box.append(el("p", "rolls-left", t("activity.ui.rolls_left", { count: v.rolls_left })));
  }
  // the score sheet: a column per player, the viewer's boxes to score as buttons
  const scoring = new Map();
  for (const m of ctx.moves) {
    const found = /^m:score (\S+)(?: x(\d))?$/.exec(m.move);
    if (found) scoring.set(found[2] ? `${found[1]} x${found[2]}` : found[1], m);
  }
  ctx.used([...scoring.values()]);
  const sheet = el("table", "sheet");
  const head = el("tr", null, el("th"));
  for (const p of v.players) head.append(el("th", p === v.turn ? "current" : null, ctx.name(p)));
  sheet.append(head);
  const boxes = Object.keys(v.sheets?.[v.players[0]]?.[0]?.boxes || {});
  const columns = v.sheets?.[v.players[0]]?.length || 1;
  for (const b of boxes) {
    const row = el("tr", null, el("th", null, ctx.boxName(b)));
    for (const p of v.players) {
      const cell = el("td");
      for (let c = 0; c < columns; c++) {
        const value = v.sheets[p][c].boxes[b];
        const key = columns > 1 ? `${b} x${c + 1}` : b;
        const move = p === frame.you ? scoring.get(key) : null;
        if (move) {
          // the row names the box: the button says the points it would score
          const potential = (v.potential || []).find((q) => `m:${q.move}` === move.move);
          const button = el("button", "box-move", potential ? `+${potential.points}` : move.label);
          button.setAttribute("aria-label", move.label);
          button.title = move.label;
          button.type = "button";
          button.dataset.move = move.move;
          button.addEventListener("click", () => ctx.send(move.move));
          cell.append(button);
        } else cell.append(el("span", value == null ? "box empty" : "box", value == null ? "·" : String(value)));
      }
      row.append(cell);
    }
    sheet.append(row);
  }
  const total = el("tr", "total", el("th", null, t("activity.ui.total")));
  for (const p of v.players) total.append(el("td", null, String(v.totals?.[p] ?? "")));
  sheet.append(total);
  box.append(sheet);
  return box;
}

function sixtysixBoard(frame, ctx, prev) {
  const v = frame.view;
  const box = el("div", "board sixtysix");
  const others = v.players.filter((p) => p !== frame.you);
  for (const p of others) {
    if (!v.hand_sizes?.[p]) continue;
    const backs = el("div", "hand backs");
    for (let i = 0; i < (v.hand_sizes?.[p] ?? 0); i++) backs.append(card(null, { small: true }));
    box.append(el("div", "opponent", el("span", "who", ctx.name(p)), backs));
  }
  // the middle: talon and trump, the trick
  const middle = el("div", "middle-row");
  const stock = el("div", "stock");
  if (v.talon) stock.append(pile(v.talon, t("activity.ui.talon", { count: v.talon })));
  if (v.trump_card) stock.append(card(v.trump_card, { turned: true, label: t("activity.ui.trump_card") }));
  stock.append(el("span", "trump-line", t("activity.ui.trump", { suit: suitSymbol(v.trump) })));
  if (v.closed) stock.append(el("span", "closed", t("activity.ui.closed")));
  middle.append(stock);
  const trick = el("div", "trick");
  const before = new Set((prev?.table === frame.table ? prev?.view?.trick || [] : []).map((c) => c.card));
  const shown = v.trick?.length ? v.trick : v.last_trick?.cards || [];
  for (const c of shown) trick.append(el("div", "played", card(c.card, { sliding: v.trick?.length > 0 && !before.has(c.card) }), el("span", "who", ctx.name(c.player))));
  if (!v.trick?.length && v.last_trick) trick.classList.add("last");
  middle.append(trick);
  box.append(middle);
  // the viewer's hand: a card to play is a button
  if (v.hand?.length) {
    const plays = new Map();
    for (const m of ctx.moves) {
      const found = /^m:play (\w\w)$/.exec(m.move);
      if (found) plays.set(found[1], m);
    }
    ctx.used([...plays.values()]);
    const hand = el("div", "hand mine");
    for (const c of v.hand) {
      const move = plays.get(c);
      const node = card(c, move ? { onClick: () => ctx.send(move.move), label: move.label } : {});
      if (move) node.dataset.move = move.move;
      hand.append(node);
    }
    box.append(el("div", "own", el("span", "who", t("activity.ui.your_hand")), hand));
  }
  return box;
}

const BOARDS = { sixdice: sixdiceBoard, bluff: bluffBoard, nine: nineBoard, yahtzee: yahtzeeBoard, sixtysix: sixtysixBoard };

// ---------------------------------------------------------------- the table

function clockText(deadline, now) {
  const left = Math.max(0, Math.round((Date.parse(deadline) - now) / 1000));
  const m = Math.floor(left / 60);
  const s = String(left % 60).padStart(2, "0");
  return `${m}:${s}`;
}

// The server's clock minus the browser's, from the last frame's `now` (the
// sandbox's bot runs on a simulated clock; a player's computer may be off).
let skew = 0;

// A frame just received says the server's time.
export function serverNow(now) {
  if (now && !Number.isNaN(Date.parse(now))) skew = Date.parse(now) - Date.now();
}

// Ticks every clock on the page (each .clock holds its deadline).
export function tickClocks(root = document, now = Date.now() + skew) {
  for (const node of root.querySelectorAll(".clock[data-deadline]")) {
    const text = clockText(node.dataset.deadline, now);
    const value = node.querySelector(".value");
    if (value && value.textContent !== text) value.textContent = text;
    node.classList.toggle("low", Date.parse(node.dataset.deadline) - now < 15000);
  }
}

function moveButton(m, ctx) {
  const button = el("button", `move ${m.style || "primary"}`, m.label || m.move);
  button.type = "button";
  button.dataset.move = m.move;
  button.addEventListener("click", () => ctx.send(m.move));
  return button;
}

// The question a move is worth a second thought for (the `ask` frame):
// its text and its answers, over the table.
export function drawAsk(root, ask, ctx) {
  root.querySelector(".ask")?.remove();
  if (!ask) return;
  const box = el("div", "ask", rich(ask.text, "p"));
  box.setAttribute("role", "dialog");
  const answers = el("div", "answers");
  for (const m of ask.moves || []) answers.append(moveButton(m, ctx));
  box.append(answers);
  root.append(box);
}

// Draws `frame` into `root`. ctx: send(move), openLink(event, url). `prev`
// is the frame drawn before (for the animations).
export function drawTable(root, frame, prev, ctx) {
  const names = new Map((frame.players || []).map((p) => [p.name, p.display || p.name]));
  const name = (seat) => names.get(seat) ?? seat;
  const moves = frame.moves || [];
  const used = new Set();
  const context = {
    ...ctx,
    moves,
    name,
    boxName: (b) => frame.terms?.[b] || b,
    used: (list) => list.forEach((m) => used.add(m.move)),
  };
  const turn = frame.turn || [];
  const mine = Boolean(frame.you) && turn.includes(frame.you);
  const page = el("div", "table");
  page.dataset.game = frame.game;
  page.dataset.phase = frame.phase || "";
  page.dataset.version = String(frame.version);

  // the header: the game, whose turn, the clock
  const header = el("header", "status");
  header.append(el("h1", null, frame.game_name || frame.game));
  let line = "";
  if (frame.phase === "lobby") line = t("activity.ui.lobby");
  else if (frame.finished || frame.phase === "finished" || frame.phase === "ended") line = t("activity.ui.finished");
  else if (mine) line = t("activity.ui.your_turn");
  else if (turn.length) line = t("activity.ui.turn_of", { name: turn.map(name).join(", ") });
  header.append(el("p", mine ? "turn mine" : "turn", line));
  if (frame.deadline && !frame.finished) {
    const clock = el("p", "clock", el("span", "label", t("activity.ui.clock")), " ", el("span", "value", ""));
    clock.dataset.deadline = frame.deadline;
    header.append(clock);
  }
  if (!frame.you) header.append(el("p", "spectating", t("activity.ui.spectating")));
  page.append(header);
  // the play (board, own lines, controls, result) beside the players and the log
  const play = el("div", "play");
  const side = el("div", "side");
  page.append(play, side);

  // the players and their scores
  const scores = new Map((frame.scores || []).map((s) => [s.name, s.text]));
  const players = el("ul", "players");
  for (const p of frame.players || []) {
    const item = el("li", "player", el("span", "name", p.display || p.name));
    if (turn.includes(p.name) && !frame.finished) item.classList.add("current");
    if (p.name === frame.you) item.classList.add("you");
    if (p.out) item.classList.add("out");
    const score = scores.get(p.name);
    if (score != null && score !== "") item.append(rich(score, "span"));
    if (item.childNodes.length > 1) item.lastChild.classList.add("score");
    players.append(item);
  }
  const scoreBox = el("section", "scores", heading("activity.ui.scores"), players);
  if (frame.status) scoreBox.append(rich(frame.status, "p"));
  side.append(scoreBox);

  // the viewer's own lines (their dice, their hand: only in their frames)
  if (frame.private?.length) {
    const own = el("section", "private", heading("activity.ui.private"));
    for (const text of frame.private) own.append(rich(text, "p"));
    play.append(own);
  }

  // the board
  const board = BOARDS[frame.game];
  if (board && frame.view && frame.phase !== "lobby") play.prepend(board(frame, context, prev));

  // the controls: every legal move not drawn on the board. A move of no
  // group is a button; a group (the chat table's select, named by its
  // placeholder) is a row of buttons under that name.
  const rest = moves.filter((m) => !used.has(m.move));
  if (rest.length) {
    const controls = el("section", "moves");
    const groups = new Map();
    for (const m of rest) {
      const g = m.group || "";
      if (!groups.has(g)) {
        const group = el("div", g ? "group menu" : "group buttons");
        if (g) group.append(el("p", "menu-name", g));
        groups.set(g, group);
      }
      controls.append(groups.get(g));
      groups.get(g).append(moveButton(m, ctx));
    }
    play.append(controls);
  }

  // the result and its links
  if (frame.finished && (frame.result?.length || frame.links)) {
    const result = el("section", "result", heading("activity.ui.result"));
    for (const line of frame.result || []) result.append(rich(line, "p"));
    const links = el("p", "links");
    for (const [kind, url] of Object.entries(frame.links || {})) {
      if (!url) continue;
      const a = el("a", `link ${kind}`, t(`activity.ui.${kind}`) || kind);
      a.href = url;
      a.target = "_blank";
      a.rel = "noopener";
      a.addEventListener("click", (event) => ctx.openLink?.(event, url));
      links.append(a);
    }
    result.append(links);
    play.append(result);
  }

  // the log, newest last
  if (frame.log?.length) {
    const log = el("ol", "log");
    for (const line of frame.log) log.append(rich(line, "li"));
    side.append(el("section", "log-box", heading("activity.ui.log"), log));
  }

  root.replaceChildren(page);
  tickClocks(root);
}

// Dice drawn in the page: a face is a 3×3 grid of pip places, the pips of
// each value in their usual spots. A new roll tumbles for a moment (CSS, see
// style.css: .die.rolling), which a click or a key skips and which
// prefers-reduced-motion turns off.

const PIPS = {
  1: [4],
  2: [0, 8],
  3: [0, 4, 8],
  4: [0, 2, 6, 8],
  5: [0, 2, 4, 6, 8],
  6: [0, 2, 3, 5, 6, 8],
};

// One die showing `value` (1-6), or a hidden one (value null: under the cup).
// options: rolling (tumble in), held (kept aside), picked (chosen by the
// viewer), onClick (makes it a button), label (its accessible name).
export function die(value, { rolling = false, held = false, picked = false, onClick = null, label = "" } = {}) {
  const el = document.createElement(onClick ? "button" : "span");
  el.className = "die";
  if (value == null) el.classList.add("hidden");
  if (rolling) el.classList.add("rolling");
  if (held) el.classList.add("held");
  if (picked) el.classList.add("picked");
  el.dataset.value = value == null ? "" : String(value);
  if (onClick) {
    el.type = "button";
    el.addEventListener("click", onClick);
    el.setAttribute("aria-pressed", picked ? "true" : "false");
  }
  el.setAttribute("aria-label", label || (value == null ? "?" : String(value)));
  if (value == null) {
    const q = document.createElement("span");
    q.className = "cup";
    q.textContent = "?";
    el.append(q);
    return el;
  }
  for (let i = 0; i < 9; i++) {
    const spot = document.createElement("span");
    spot.className = PIPS[value]?.includes(i) ? "pip" : "spot";
    el.append(spot);
  }
  return el;
}

// A row of dice.
export function diceRow(values, options = {}) {
  const row = document.createElement("div");
  row.className = "dice";
  values.forEach((v, i) => row.append(die(v, typeof options === "function" ? options(v, i) : options)));
  return row;
}

// Ends every running roll at once (a click or a key while dice tumble).
export function skipRolls(root = document) {
  root.querySelectorAll(".die.rolling").forEach((el) => el.classList.remove("rolling"));
  root.querySelectorAll(".card.sliding").forEach((el) => el.classList.remove("sliding"));
}

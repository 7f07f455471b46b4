// Sixty-Six's cards drawn in the page: rank in two corners, the suit large in
// the middle, hearts and diamonds red. Cards are written as in the game's
// notation: rank 9 T J Q K A + suit S H D C ("TS" is the ten of spades).

const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANK = { 9: "9", T: "10", J: "J", Q: "Q", K: "K", A: "A" };

export function suitSymbol(suit) {
  return SUIT[suit] ?? suit;
}

export function cardName(code) {
  return `${RANK[code[0]] ?? code[0]}${SUIT[code[1]] ?? code[1]}`;
}

// A card face (code "QS"), or its back (code null). options: onClick makes
// it a button (a card the viewer may play), sliding moves it in, small,
// turned (the trump card lying across the talon), label.
export function card(code, { onClick = null, sliding = false, small = false, turned = false, label = "" } = {}) {
  const el = document.createElement(onClick ? "button" : "span");
  el.className = "card";
  if (small) el.classList.add("small");
  if (sliding) el.classList.add("sliding");
  if (turned) el.classList.add("turned");
  if (code == null) {
    el.classList.add("back");
    el.setAttribute("aria-label", label || "🂠");
    return el;
  }
  const suit = code[1];
  el.classList.add(`suit-${suit}`, suit === "H" || suit === "D" ? "red" : "black");
  el.dataset.card = code;
  el.setAttribute("aria-label", label || cardName(code));
  if (onClick) {
    el.type = "button";
    el.addEventListener("click", onClick);
  }
  for (const where of ["top", "bottom"]) {
    const corner = document.createElement("span");
    corner.className = `corner ${where}`;
    corner.textContent = `${RANK[code[0]] ?? code[0]}\n${SUIT[suit] ?? suit}`;
    el.append(corner);
  }
  const middle = document.createElement("span");
  middle.className = "middle";
  middle.textContent = SUIT[suit] ?? suit;
  el.append(middle);
  return el;
}

// A pile: the talon's back with its count.
export function pile(count, label) {
  const el = document.createElement("span");
  el.className = "pile";
  el.append(card(null, { small: true, label }));
  const n = document.createElement("span");
  n.className = "count";
  n.textContent = String(count);
  el.append(n);
  return el;
}

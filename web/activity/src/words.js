// Every word the page shows comes from the server: the `activity.*` entries
// of the viewer's catalogue (bot/i18n/en.json, ja.json), sent in `welcome`.
// A key with a number's noun comes as `<key>.one` / `<key>.other` (docs/i18n.md).

let words = {};

export function setWords(next) {
  words = next || {};
}

export function hasWords() {
  return Object.keys(words).length > 0;
}

// The entry `key` with its `{placeholders}` filled; `count` picks a plural
// variant. A missing key shows nothing rather than an English fallback.
export function t(key, args = {}) {
  let text = words[key];
  if (text === undefined && "count" in args) {
    text = (args.count === 1 && words[`${key}.one`]) || words[`${key}.other`];
  }
  if (text === undefined) return "";
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in args ? String(args[name]) : whole));
}

// A line of the catalogue's Markdown as DOM: **bold**, *italic*, __underline__,
// `code`, and backslash escapes; anything else is text (never innerHTML).
export function rich(text, tag = "span") {
  const el = document.createElement(tag);
  const pattern = /\\([\\*_`.~-])|\*\*(.+?)\*\*|__(.+?)__|\*(.+?)\*|`(.+?)`/g;
  let last = 0;
  for (const m of String(text ?? "").matchAll(pattern)) {
    if (m.index > last) el.append(text.slice(last, m.index));
    if (m[1] !== undefined) el.append(m[1]);
    else {
      const [name, inner] = m[2] !== undefined ? ["strong", m[2]] : m[3] !== undefined ? ["u", m[3]] : m[4] !== undefined ? ["em", m[4]] : ["code", m[5]];
      const part = document.createElement(name);
      part.textContent = inner;
      el.append(part);
    }
    last = m.index + m[0].length;
  }
  if (last < String(text ?? "").length) el.append(text.slice(last));
  return el;
}

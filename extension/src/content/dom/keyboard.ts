// Pure key and chord parsing: no DOM here, so it is unit-tested in node.

export const MODIFIERS = ["Alt", "Control", "Meta", "Shift"] as const;
export type Modifier = (typeof MODIFIERS)[number];

export interface KeyDef {
  /** KeyboardEvent.key */
  key: string;
  /** KeyboardEvent.code */
  code: string;
  /** legacy keyCode, still read by many sites */
  keyCode: number;
  /** the text this key inserts when no Control/Meta/Alt is held, if any */
  text?: string;
}

export interface Chord {
  modifiers: Modifier[];
  key: KeyDef;
}

export class KeyParseError extends Error {}

const NAMED: Record<string, Omit<KeyDef, "key">> = {
  Enter: { code: "Enter", keyCode: 13, text: "\r" },
  Tab: { code: "Tab", keyCode: 9 },
  Backspace: { code: "Backspace", keyCode: 8 },
  Delete: { code: "Delete", keyCode: 46 },
  Escape: { code: "Escape", keyCode: 27 },
  " ": { code: "Space", keyCode: 32, text: " " },
  ArrowUp: { code: "ArrowUp", keyCode: 38 },
  ArrowDown: { code: "ArrowDown", keyCode: 40 },
  ArrowLeft: { code: "ArrowLeft", keyCode: 37 },
  ArrowRight: { code: "ArrowRight", keyCode: 39 },
  Home: { code: "Home", keyCode: 36 },
  End: { code: "End", keyCode: 35 },
  PageUp: { code: "PageUp", keyCode: 33 },
  PageDown: { code: "PageDown", keyCode: 34 },
  Insert: { code: "Insert", keyCode: 45 },
  Shift: { code: "ShiftLeft", keyCode: 16 },
  Control: { code: "ControlLeft", keyCode: 17 },
  Alt: { code: "AltLeft", keyCode: 18 },
  Meta: { code: "MetaLeft", keyCode: 91 },
  CapsLock: { code: "CapsLock", keyCode: 20 },
};
for (let i = 1; i <= 12; i++) NAMED[`F${i}`] = { code: `F${i}`, keyCode: 111 + i };

const ALIASES: Record<string, string> = {
  ctrl: "Control",
  control: "Control",
  controlormeta: "Control",
  cmd: "Meta",
  command: "Meta",
  meta: "Meta",
  win: "Meta",
  option: "Alt",
  alt: "Alt",
  shift: "Shift",
  esc: "Escape",
  escape: "Escape",
  return: "Enter",
  enter: "Enter",
  del: "Delete",
  delete: "Delete",
  backspace: "Backspace",
  tab: "Tab",
  space: " ",
  spacebar: " ",
  up: "ArrowUp",
  down: "ArrowDown",
  left: "ArrowLeft",
  right: "ArrowRight",
  arrowup: "ArrowUp",
  arrowdown: "ArrowDown",
  arrowleft: "ArrowLeft",
  arrowright: "ArrowRight",
  home: "Home",
  end: "End",
  pageup: "PageUp",
  pagedown: "PageDown",
  insert: "Insert",
  capslock: "CapsLock",
};

const PUNCTUATION_CODES: Record<string, [string, number]> = {
  "-": ["Minus", 189], "=": ["Equal", 187], "[": ["BracketLeft", 219], "]": ["BracketRight", 221],
  "\\": ["Backslash", 220], ";": ["Semicolon", 186], "'": ["Quote", 222], ",": ["Comma", 188],
  ".": ["Period", 190], "/": ["Slash", 191], "`": ["Backquote", 192],
};

/** The definition of one key name (`Enter`, `a`, `ArrowLeft`, `Esc`) or one character of text. */
export function keyDef(name: string): KeyDef {
  const canonical = NAMED[name] ? name : ALIASES[name.toLowerCase()];
  if (canonical !== undefined) {
    const def = NAMED[canonical];
    if (def) return { key: canonical, ...def };
  }
  if (/^F\d{1,2}$/i.test(name)) {
    const def = NAMED[name.toUpperCase()];
    if (def) return { key: name.toUpperCase(), ...def };
  }
  if ([...name].length !== 1) throw new KeyParseError(`unknown key "${name}"`);
  return charDef(name);
}

/** A key for one printable character, as typed on a US layout. */
export function charDef(ch: string): KeyDef {
  if (ch === "\n" || ch === "\r") return { key: "Enter", ...NAMED.Enter! };
  if (ch === "\t") return { key: "Tab", ...NAMED.Tab! };
  if (ch === " ") return { key: " ", ...NAMED[" "]! };
  if (/^[a-z]$/i.test(ch)) return { key: ch, code: `Key${ch.toUpperCase()}`, keyCode: ch.toUpperCase().charCodeAt(0), text: ch };
  if (/^[0-9]$/.test(ch)) return { key: ch, code: `Digit${ch}`, keyCode: ch.charCodeAt(0), text: ch };
  const punct = PUNCTUATION_CODES[ch];
  if (punct) return { key: ch, code: punct[0], keyCode: punct[1], text: ch };
  // Any other character (accents, emoji, CJK) arrives as text without a physical key, like an IME commit.
  return { key: ch, code: "", keyCode: 0, text: ch };
}

/**
 * Parse `Enter`, `Control+A`, `Shift+Tab`, `Control+Shift+ArrowLeft`, `Shift++` into modifiers and a key.
 * Modifier names are case-insensitive and accept the usual aliases (Ctrl, Cmd, Option).
 */
export function parseChord(input: string): Chord {
  if (input.length === 0) throw new KeyParseError("empty key");
  // A trailing "+" is the plus key itself ("+", "Shift++"); every other "+" separates parts.
  const plusKey = input === "+" || input.endsWith("++");
  const body = plusKey ? input.slice(0, -1) : input;
  const parts = body.split("+");
  if (plusKey) parts[parts.length - 1] = "+";
  if (parts.some((p) => p.length === 0)) throw new KeyParseError(`"${input}" has an empty part`);
  const keyName = parts.pop()!;
  const modifiers: Modifier[] = [];
  for (const part of parts) {
    const name = ALIASES[part.toLowerCase()];
    if (!name || !(MODIFIERS as readonly string[]).includes(name)) {
      throw new KeyParseError(`"${part}" in "${input}" is not a modifier (use Control, Shift, Alt or Meta)`);
    }
    if (!modifiers.includes(name as Modifier)) modifiers.push(name as Modifier);
  }
  let key = keyDef(keyName);
  // Shift+a types "A": the key value follows the shifted character, as a real keyboard reports it.
  if (modifiers.includes("Shift") && key.text && /^[a-z]$/.test(key.key)) {
    key = { ...key, key: key.key.toUpperCase(), text: key.key.toUpperCase() };
  }
  return { modifiers, key };
}

/** True when the chord inserts text (no Control/Meta/Alt held and the key has a character). */
export function chordText(chord: Chord): string | undefined {
  if (chord.modifiers.some((m) => m !== "Shift")) return undefined;
  if (!chord.key.text || chord.key.key === "Enter") return undefined;
  return chord.key.text;
}

// The player's preferences, remembered in localStorage: language, colour-blind mode, text view,
// sound, the beginners' marks, the last game against the computer, and the seat tokens of the
// games this browser plays (one entry per game code).

const PREFIX = "hisss.";

function read(key, fallback) {
  try {
    const value = localStorage.getItem(PREFIX + key);
    return value === null ? fallback : JSON.parse(value);
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(PREFIX + key);
    else localStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    // Private browsing or a full storage: the preference lasts for this page only.
  }
}

export const prefs = {
  get language() {
    return read("language", null);
  },
  set language(value) {
    write("language", value);
  },
  get colourBlind() {
    return read("colourBlind", false) === true;
  },
  set colourBlind(value) {
    write("colourBlind", Boolean(value));
  },
  get textView() {
    return read("textView", false) === true;
  },
  set textView(value) {
    write("textView", Boolean(value));
  },
  get sound() {
    return read("sound", true) !== false;
  },
  set sound(value) {
    write("sound", Boolean(value));
  },
  get marks() {
    return read("marks", false) === true;
  },
  set marks(value) {
    write("marks", Boolean(value));
  },
  /** The last game against the computer: {opponents, level, pace}. */
  get quick() {
    const value = read("quick", null);
    const fine = value && typeof value === "object";
    return {
      opponents: fine && Number.isInteger(value.opponents) ? value.opponents : 1,
      level: fine && typeof value.level === "string" ? value.level : "medium",
      pace: fine && typeof value.pace === "string" ? value.pace : "normal",
    };
  },
  set quick(value) {
    write("quick", { opponents: value.opponents, level: value.level, pace: value.pace });
  },
  /** The names of the last game on this device. */
  get deviceNames() {
    const value = read("deviceNames", []);
    return Array.isArray(value) ? value.filter((x) => typeof x === "string").slice(0, 5) : [];
  },
  set deviceNames(value) {
    write("deviceNames", value.map((x) => String(x).slice(0, 40)).slice(0, 5));
  },
  get playerName() {
    return read("playerName", "");
  },
  set playerName(value) {
    write("playerName", String(value).slice(0, 40));
  },
};

/** The seat this browser holds in game `code`: {seat, token} or null. */
export function seatFor(code) {
  const entry = read(`seat.${code.toUpperCase()}`, null);
  if (entry && Number.isInteger(entry.seat) && typeof entry.token === "string") return entry;
  return null;
}

/** Remember (or with null, forget) the seat this browser holds in game `code`. */
export function rememberSeat(code, entry) {
  write(`seat.${code.toUpperCase()}`, entry ? { seat: entry.seat, token: entry.token } : null);
}

// Translations: every word, colour name, letter, symbol and card name of the page comes from the
// server's catalogs (GET /api/i18n/{lang}), made from the package's hisss.i18n: the same text as
// the terminal game's. t("some.key", {name: "Ala"}) fills {name}; tn("some.key", n) picks the
// language's plural form for n and fills {count}; colourName, colourLetter, colourSide,
// colourSymbol and cardText read the catalog's colours, symbols and cards.

let english = null;
let catalog = null;
let language = "en";
let plurals = new Intl.PluralRules("en");

async function load(code) {
  const response = await fetch(`/api/i18n/${encodeURIComponent(code)}`);
  if (!response.ok) throw new Error(`the ${code} catalog is missing`);
  return response.json();
}

async function englishCatalog() {
  if (!english) english = await load("en");
  return english;
}

/** The languages the server has: {code: the language's own name}. */
export function languages() {
  return english ? english.languages : {};
}

/** The language to start in: the remembered one, else the browser's if we have it, else English. */
export async function defaultLanguage(remembered) {
  const codes = Object.keys((await englishCatalog()).languages);
  if (codes.includes(remembered)) return remembered;
  for (const wanted of navigator.languages || [navigator.language || "en"]) {
    const code = String(wanted).toLowerCase().split("-")[0];
    if (codes.includes(code)) return code;
  }
  return "en";
}

/** Switch to `code`: loads its catalog and updates <html lang>. */
export async function setLanguage(code) {
  const first = await englishCatalog();
  if (!(code in first.languages)) code = "en";
  catalog = code === "en" ? first : await load(code);
  language = code;
  plurals = new Intl.PluralRules(code);
  document.documentElement.lang = code;
}

/** Use catalogs already at hand (`englishData`, and `data` for `code`): the unit tests'
 * way in, without a server. */
export function useCatalogs(englishData, data = englishData, code = "en") {
  english = englishData;
  catalog = data;
  language = code;
  plurals = new Intl.PluralRules(code);
}

export function currentLanguage() {
  return language;
}

function message(key) {
  return catalog.messages[key] ?? english.messages[key];
}

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    name in params ? String(params[name]) : whole,
  );
}

/** The text of `key` with {placeholders} filled from `params`. */
export function t(key, params = {}) {
  const text = message(key);
  return typeof text === "string" ? fill(text, params) : key;
}

/** True when the catalogs have `key`. */
export function has(key) {
  return message(key) !== undefined;
}

/** The counted message `key` in the plural form for the number `n` ({count} is filled too). */
export function tn(key, n, params = {}) {
  const forms = message(key);
  const text = forms && (forms[plurals.select(n)] ?? forms.other ?? forms.many);
  return typeof text === "string" ? fill(text, { count: n, ...params }) : key;
}

/** The text of an error from the server: ours for its code, else the server's own message. */
export function errorText(error) {
  return has(`error.${error.code}`)
    ? t(`error.${error.code}`)
    : error.message || t("error.server_error");
}

function colourEntry(colour) {
  return catalog.colours[colour] ?? english.colours[colour];
}

/** A colour's name; `colour` is a colour of the wheel or "wild" (the rainbow cards). */
export function colourName(colour) {
  return colourEntry(colour).name;
}

/** The letter that stands for a colour in this language (colour-blind mode). */
export function colourLetter(colour) {
  return colourEntry(colour).letter;
}

/** A colour as it names the side of a mid-section ("the red side"). */
export function colourSide(colour) {
  return colourEntry(colour).side;
}

/** A colour's symbol, the same in every language: {glyph, path} (SVG path data, 12 by 12). */
export function colourSymbol(colour) {
  return catalog.symbols[colour];
}

/** The name of a card by its notation ("H:red", "M:red-orange"); undefined for no such card. */
export function cardText(notation, accusative = false) {
  if (accusative) {
    const named = catalog.cards_accusative?.[notation] ?? english.cards_accusative?.[notation];
    if (named) return named;
  }
  return catalog.cards[notation] ?? english.cards[notation];
}

/** Names joined as a sentence lists them: "Ala", "Ala and Olek", "Ala, Olek and Ewa". */
export function joinNames(names) {
  if (names.length <= 1) return names.join("");
  if (names.length === 2) return t("names.two", { first: names[0], second: names[1] });
  const rest = names.slice(0, -1).join(t("names.separator"));
  return t("names.many", { rest, last: names[names.length - 1] });
}

/**
 * The pattern of an English default seat name (the catalog's `key`, as the server names an
 * unnamed seat), with its {number} and {level} as groups.
 */
function defaultNamePattern(key) {
  const escaped = english.messages[key].replace(/[.*+?^$()|[\]\\]/g, "\\$&");
  const groups = escaped
    .replace("{number}", "(?<number>[0-9]+)")
    .replace("{level}", "(?<level>[a-z]+)");
  return new RegExp(`^${groups}$`);
}

/**
 * A seat's name in this language: the names the server gives unnamed seats ("Bot 2 (medium)",
 * "Player 3", the English seat.bot_numbered and seat.player_numbered) are translated.
 */
export function seatName(name) {
  const bot = defaultNamePattern("seat.bot_numbered").exec(name);
  if (bot && has(`level.${bot.groups.level}`)) {
    return t("seat.bot_numbered", {
      number: bot.groups.number,
      level: t(`level.${bot.groups.level}`),
    });
  }
  const person = defaultNamePattern("seat.player_numbered").exec(name);
  if (person) return t("seat.player_numbered", { number: person.groups.number });
  return name;
}

/**
 * Fill the static texts under `root`: data-i18n="key" sets the text, and
 * data-i18n-attr="aria-label:key;title:key2" sets attributes.
 */
export function applyTexts(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of node.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":");
      node.setAttribute(attr.trim(), t(key.trim()));
    }
  }
}

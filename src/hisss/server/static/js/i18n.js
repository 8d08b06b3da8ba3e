// Translations: every text of the page comes from a catalog in /static/i18n/ (en.json, pl.json).
// t('some.key', {name: 'Ala'}) fills {name}; tn('some.key', n) picks the plural form for n
// (key.one, key.few, key.many, key.other, as Intl.PluralRules names them).

export const LANGUAGES = ["en", "pl"];

let language = "en";
let catalog = {};
let fallback = {};
let plurals = new Intl.PluralRules("en");

async function load(code) {
  const response = await fetch(`/static/i18n/${code}.json`);
  if (!response.ok) throw new Error(`the ${code} catalog is missing`);
  return response.json();
}

/** The language to start in: the remembered one, else the browser's if we have it, else English. */
export function defaultLanguage(remembered) {
  if (LANGUAGES.includes(remembered)) return remembered;
  for (const wanted of navigator.languages || [navigator.language || "en"]) {
    const code = String(wanted).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(code)) return code;
  }
  return "en";
}

/** Switch to `code`: loads its catalog and updates <html lang>. */
export async function setLanguage(code) {
  if (!LANGUAGES.includes(code)) code = "en";
  if (!Object.keys(fallback).length) fallback = await load("en");
  catalog = code === "en" ? fallback : await load(code);
  language = code;
  plurals = new Intl.PluralRules(code);
  document.documentElement.lang = code;
}

export function currentLanguage() {
  return language;
}

/** The text of `key` with {placeholders} filled from `params`. */
export function t(key, params = {}) {
  const text = catalog[key] ?? fallback[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    name in params ? String(params[name]) : whole,
  );
}

/** True when the catalogs have `key`. */
export function has(key) {
  return key in catalog || key in fallback;
}

/** The text of an error from the server: ours for its code, else the server's own message. */
export function errorText(error) {
  const key = `error.${error.code}`;
  return has(key) ? t(key) : error.message || t("error.server_error");
}

/** The plural form of `key` for the number `n` ({n} is filled too). */
export function tn(key, n, params = {}) {
  return t(`${key}.${plurals.select(n)}`, { n, ...params });
}

/** A list of names joined the language's way ("Ala, Olek and Ewa"). */
export function joinNames(names) {
  return new Intl.ListFormat(language, { style: "long", type: "conjunction" }).format(names);
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

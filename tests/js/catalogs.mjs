// The package's catalogs, as the server sends them, for the unit tests of the front end.

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { useCatalogs } from "../../src/hisss/server/static/js/i18n.js";

const folder = fileURLToPath(new URL("../../src/hisss/i18n/", import.meta.url));

/** The catalog of `code` as read from the package. */
export function catalog(code) {
  return JSON.parse(readFileSync(`${folder}${code}.json`, "utf8"));
}

/** Speak `code` (English behind it, as on the page). */
export function speak(code = "en") {
  useCatalogs(catalog("en"), catalog(code), code);
}

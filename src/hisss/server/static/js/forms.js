// Small parts of the first screen's forms: a labelled field, unique element ids, the most seats.

import { h } from "./dom.js";

/** The most seats a game has (the rules allow six only as an option the forms do not offer). */
export const MAX_SEATS = 5;

let uid = 0;

/** A new element id starting with `prefix`. */
export const nextId = (prefix) => `${prefix}-${++uid}`;

/** A field: the label, the control (with an id) and help under it. */
export function field(label, control, help = null) {
  return h(
    "div",
    { class: "field" },
    h("label", { for: control.id }, label),
    control,
    help ? h("p", { class: "help" }, help) : null,
  );
}

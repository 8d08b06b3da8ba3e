// The hand variant on the page: the lobby's options (hands, their size, face up for teaching),
// and a seat's hand as the server sends it: sorted by colour, the cards that can be played marked
// (the server's legal plays say which), one chosen to place. On one device the hand of the seat
// to move stays face down until its player says they hold the device.

import { cardName, cardSvg, COLOURS, parseCard } from "./cards.js";
import { h } from "./dom.js";
import { t, tn } from "./i18n.js";

const SIZES = [1, 2, 3, 4, 5];
const SUGGESTED = 3;

/**
 * The lobby's hand options: a checkbox for the variant, then (shown once it is ticked) the hand
 * size (3 when it is chosen) and hands face up. `nextId` makes element ids; `rules()` is the `set` options chosen.
 */
export function handOptions(nextId, onToggle = () => {}) {
  const useId = nextId("hands");
  const sizeId = nextId("hand-size");
  const openId = nextId("hands-open");
  const use = h("input", { type: "checkbox", id: useId, class: "hands-use" });
  const size = h(
    "select",
    { id: sizeId, class: "hand-size", disabled: true },
    SIZES.map((n) =>
      h(
        "option",
        { value: n, selected: n === SUGGESTED },
        n === SUGGESTED ? t("handRules.suggested", { n }) : String(n),
      ),
    ),
  );
  const open = h("input", { type: "checkbox", id: openId, class: "hands-open", disabled: true });
  use.addEventListener("change", () => {
    size.disabled = !use.checked;
    open.disabled = !use.checked;
    more.hidden = !use.checked;
    if (use.checked) size.value = String(SUGGESTED);
    onToggle(use.checked);
  });
  // The size and face-up choices show once hands are chosen.
  const more = h(
    "div",
    { class: "hand-more", hidden: true },
    h(
      "div",
      { class: "field-row" },
      h("div", { class: "field" }, h("label", { for: sizeId }, t("handRules.size")), size),
    ),
    h("div", { class: "check" }, open, h("label", { for: openId }, t("handRules.open"))),
  );
  const node = h(
    "fieldset",
    { class: "hand-options" },
    h("legend", { class: "visually-hidden" }, t("handRules.use")),
    h("div", { class: "check" }, use, h("label", { for: useId }, t("handRules.use"))),
    more,
  );
  const rules = () =>
    use.checked ? { hand_size: Number(size.value), hands_seen_by_all: open.checked } : {};
  return { node, rules };
}

/** Whether a state is of a game with hands. */
export function hasHands(st) {
  return Boolean(st && st.hand_size);
}

/** The card a play names ("M:red-orange@1L:red" gives "M:red-orange") and where it goes. */
export function splitPlay(text) {
  const at = text.indexOf("@");
  return { card: text.slice(0, at), where: text.slice(at + 1) };
}

function colourRank(card) {
  const c = parseCard(card);
  const first = COLOURS.indexOf(c.a);
  const second = c.b ? COLOURS.indexOf(c.b) : -1;
  const kind = { H: 0, M: 1, T: 2 }[c.kind];
  return [first < 0 ? COLOURS.length : first, second, kind];
}

/** A hand sorted by colour (rainbow cards last), then heads, mid-sections and tails. */
export function sortedHand(cards) {
  return [...cards].sort((x, y) => {
    const a = colourRank(x);
    const b = colourRank(y);
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
    return 0;
  });
}

/**
 * A hand as a row of cards. With `legal` and `onChoose`, each card is a button, marked when one
 * of the legal plays names it; `chosen` is the card chosen to place.
 */
export function renderHandCards(cards, { legal = null, chosen = null, onChoose = null } = {}) {
  if (!cards.length) return h("p", { class: "hand-empty" }, t("hand.empty"));
  const playable = new Set((legal || []).map((text) => splitPlay(text).card));
  const row = h("ul", { class: "hand-cards" });
  const seen = new Set();
  for (const card of sortedHand(cards)) {
    const first = !seen.has(card);
    seen.add(card);
    const can = playable.has(card);
    const face = cardSvg(parseCard(card), { extraClass: "hand-card" });
    let item;
    if (onChoose) {
      item = h(
        "button",
        {
          type: "button",
          class: `hand-choice${can ? " playable" : ""}${chosen === card && first ? " chosen" : ""}`,
          dataset: { card },
          disabled: !can,
          "aria-pressed": String(chosen === card && first),
          "aria-label": t(can ? "hand.playable" : "hand.notPlayable", { card: cardName(card) }),
          onclick: () => onChoose(card),
        },
        face,
      );
    } else {
      item = h("span", { class: "hand-shown", dataset: { card }, title: cardName(card) }, face);
    }
    row.append(h("li", {}, item));
  }
  return row;
}

/** A hand face down on one device, with the button its player presses to see it. */
export function renderHiddenHand(name, onReveal) {
  return h(
    "div",
    { class: "hand-hidden" },
    h("p", {}, t("hand.hidden", { name })),
    h(
      "button",
      { type: "button", class: "primary hand-reveal", onclick: onReveal },
      t("hand.reveal", { name }),
    ),
  );
}

/** How many cards a seat holds, in words. */
export function handSizeText(n) {
  return tn("hand.size", n);
}

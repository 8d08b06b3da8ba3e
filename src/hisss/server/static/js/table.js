// The table: the snakes under construction, the placements of the drawn card on their open
// ends (with the beginners' mark on those that complete a snake), the deck of face-down cards,
// and the pits. Pure rendering: callers pass the data and the
// handlers, and get elements back.

import { arrowKeys, h } from "./dom.js";
import { COLUMN_GAP, ROW_EXTRA, smallestCard, tableLayout, widestRow } from "./layout.js";
import { t, tn } from "./i18n.js";
import {
  actionText,
  backSvg,
  cardAt,
  cardName,
  cardSvg,
  parseAction,
  parseCard,
  parseSnake,
  pitSnakeText,
  snakeText,
} from "./cards.js";

/** Where the card of a `play` event lies now: {snake, index} (index null: the whole snake). */
export function placedSpot(event, table) {
  if (!event || event.kind !== "play" || event.claimed) return null;
  const action = parseAction(event.action);
  if (action.kind === "new") return { snake: table.length, index: 0 };
  if (action.kind === "join") {
    return { snake: Math.min(action.touches[0].snake, action.touches[1].snake), index: null };
  }
  const touch = action.touches[0];
  const card = parseCard(event.card);
  const snake = parseSnake(table[touch.snake - 1] || "");
  if (!snake.length) return null;
  let first = touch.end === "L";
  if (card.kind === "H") first = true;
  if (card.kind === "T") first = false;
  return { snake: touch.snake, index: first ? 0 : snake.length - 1 };
}

function claimBadge(claims, action) {
  const n = claims ? claims[action.text] : 0;
  return n ? h("span", { class: "claim-badge", "aria-hidden": "true" }, `+${n}`) : null;
}

function ghostButton(drawn, action, touch, pair, onPlay, claims) {
  const { card, flip } = cardAt(drawn, touch);
  const n = claims ? claims[action.text] : 0;
  const label = n
    ? `${actionText(action, drawn)} ${tn("marks.takes", n)}`
    : actionText(action, drawn);
  return h(
    "button",
    {
      type: "button",
      class: `ghost ghost-${touch.end}${pair ? " ghost-join" : ""}${n ? " ghost-claims" : ""}`,
      dataset: { action: action.text },
      "aria-label": label,
      title: label,
      onclick: () => onPlay(action.text),
    },
    cardSvg(card, { flip }),
    pair ? h("span", { class: "join-badge", "aria-hidden": "true" }, `⇄ ${pair}`) : null,
    claimBadge(claims, action),
  );
}

/**
 * The snakes as an <ol>. With `drawn` and `legal` (and `onPlay`), each legal placement is a
 * button on the open end(s) it touches, showing the card in the turn it would lie. `claims`
 * (optional, the beginners' marks) maps the placements that complete a snake to the cards taken.
 */
export function renderSnakes({
  table,
  drawn = null,
  legal = [],
  onPlay = null,
  spot = null,
  claims = null,
}) {
  const ghosts = new Map();
  let newGhost = null;
  if (drawn && onPlay) {
    for (const text of legal) {
      const action = parseAction(text);
      if (action.kind === "new") {
        newGhost = h(
          "button",
          {
            type: "button",
            class: "ghost ghost-new",
            dataset: { action: action.text },
            "aria-label": actionText(action, drawn),
            title: actionText(action, drawn),
            onclick: () => onPlay(action.text),
          },
          cardSvg(drawn),
          claimBadge(claims, action),
        );
        continue;
      }
      for (const touch of action.touches) {
        const other = action.touches.find((x) => x !== touch);
        const key = `${touch.snake}${touch.end}`;
        if (!ghosts.has(key)) ghosts.set(key, []);
        ghosts
          .get(key)
          .push(ghostButton(drawn, action, touch, other ? other.snake : null, onPlay, claims));
      }
    }
  }
  const list = h("ol", { class: "snakes" });
  table.forEach((text, i) => {
    const number = i + 1;
    const cards = parseSnake(text);
    const whole = spot && spot.snake === number && spot.index === null;
    const row = h("div", { class: `snake-row${whole ? " placed-snake" : ""}` });
    row.append(...(ghosts.get(`${number}L`) || []));
    cards.forEach((card, index) => {
      const fresh = spot && spot.snake === number && spot.index === index;
      row.append(cardSvg(card, { extraClass: fresh ? "placed" : "" }));
    });
    row.append(...(ghosts.get(`${number}R`) || []));
    list.append(
      h(
        "li",
        { class: "snake", dataset: { snake: number, cards: text } },
        h("span", { class: "snake-no", "aria-hidden": "true" }, number),
        h("span", { class: "visually-hidden" }, snakeText(number, text)),
        row,
      ),
    );
  });
  if (newGhost) {
    list.append(
      h(
        "li",
        { class: "snake snake-new" },
        h("span", { class: "snake-no", "aria-hidden": "true" }, "+"),
        h(
          "div",
          { class: "snake-row" },
          newGhost,
          h("span", { class: "new-label" }, t("table.newSnake")),
        ),
      ),
    );
  }
  if (!table.length && !newGhost) {
    list.append(h("li", { class: "snake snake-empty" }, t("table.empty")));
  }
  // Hovering or focusing one end of a join lights up its other end too.
  const pairUp = (event, on) => {
    const button = event.target.closest(".ghost");
    if (!button) return;
    for (const twin of list.querySelectorAll(".ghost")) {
      if (twin.dataset.action === button.dataset.action) twin.classList.toggle("paired", on);
    }
  };
  list.addEventListener("pointerover", (e) => pairUp(e, true));
  list.addEventListener("pointerout", (e) => pairUp(e, false));
  list.addEventListener("focusin", (e) => pairUp(e, true));
  list.addEventListener("focusout", (e) => pairUp(e, false));
  arrowKeys(list, ".ghost");
  return list;
}

/** The table panel's heading (with the cards left) and its scrolling area around `snakes`. */
export function renderTablePanel(cardsLeft, snakes) {
  return [
    h(
      "h2",
      { id: "table-title", class: "panel-title" },
      t("table.title"),
      " ",
      h("span", { class: "cards-left" }, tn("table.cardsLeft", cardsLeft)),
    ),
    h("div", { class: "table-scroll", "aria-labelledby": "table-title", role: "group" }, snakes),
    h("p", { class: "table-more", "aria-hidden": "true" }, t("table.scrollHint")),
  ];
}

/** A snake as a row of small cards (pits, replays' claimed snakes). */
export function miniSnake(text) {
  return h(
    "li",
    { class: "mini-snake", dataset: { cards: text }, title: pitSnakeText(text) },
    h("span", { class: "visually-hidden" }, pitSnakeText(text)),
    h(
      "span",
      { class: "mini-row", "aria-hidden": "true" },
      parseSnake(text).map((c) => cardSvg(c)),
    ),
  );
}

/**
 * The deck: a compact pile of face-down cards whose height shows how many are left, with the
 * number on it. Active, it is one button that draws the next card (RULES §3.2: any card of the
 * face-down pile is the same draw).
 */
export function renderDeck(count, { active = false, onDraw = null, touch = false } = {}) {
  const layers = count ? Math.min(5, Math.ceil(count / 10)) : 0;
  const pile = h(
    "span",
    { class: "deck-pile", "aria-hidden": "true", style: `--layers:${layers}` },
    Array.from({ length: layers }, (_, i) =>
      h("span", { class: "deck-card", style: `--k:${i}` }, backSvg()),
    ),
    h("span", { class: "deck-count" }, String(count)),
  );
  if (!active) {
    return h(
      "div",
      { class: "deck", role: "img", "aria-label": tn("fan.label", count) },
      pile,
    );
  }
  // The words seen come first in the name heard, then the number of cards left.
  return h(
    "button",
    { type: "button", class: "deck deck-active", onclick: () => onDraw() },
    pile,
    h("span", { class: "deck-word" }, t(touch ? "deck.tap" : "deck.draw")),
    h("span", { class: "visually-hidden" }, ` (${tn("fan.label", count)})`),
  );
}

/**
 * Size the cards of a table to the room it has: every snake on one line, the largest size (up
 * to `max`) at which the longest fits the table's width and all of them its height; never below
 * `min`, where the table scrolls sideways inside itself and says so. The game page and the
 * replay page size their tables the same way; the size changes smoothly (a CSS transition).
 */
export function fitCards(area, { min, max = 170 } = {}) {
  const list = area.querySelector(".snakes");
  const scroller = area.querySelector(".table-scroll");
  if (!list || !scroller) return;
  const floor = min ?? smallestCard(window.innerWidth, document.documentElement.classList.contains("cb"));
  const rows = [...list.querySelectorAll(".snake-row")].map((row) => ({
    cards: row.querySelectorAll(":scope > .card").length,
    ghosts: row.querySelectorAll(":scope > .ghost").length,
    extra: ROW_EXTRA + (row.querySelector(".new-label") ? 110 : 0),
  }));
  const width = scroller.clientWidth - 8;
  // In the game's frame the table has a height of its own, which the rows share; a replay's
  // table grows with the page and shares the window's height below its top.
  const framed = !area.closest(".replay");
  const height = framed
    ? Math.max(scroller.clientHeight - 8, 60)
    : Math.max(window.innerHeight - area.getBoundingClientRect().top - 60, 200);
  const { size, columns } = tableLayout(rows, width, height, { min: floor, max: Math.max(max, floor) });
  area.style.setProperty("--card-w", `${size}px`);
  area.style.setProperty("--snake-columns", String(columns));
  // Whether the rows will be wider than the table at that size (known now, while the cards
  // still grow or shrink to it): the table then says that more lies to the side.
  const across = (width - (columns - 1) * COLUMN_GAP) / columns;
  const wide = widestRow(rows, size) > across + 1;
  area.classList.toggle("table-wide", wide);
  // A table that scrolls can be scrolled from the keyboard too.
  if (wide || list.scrollHeight > scroller.clientHeight + 1) scroller.tabIndex = 0;
  else scroller.removeAttribute("tabindex");
}

/** A drawn card shown face up, with its name under it. */
export function renderDrawn(card) {
  return h(
    "figure",
    { class: "drawn" },
    cardSvg(card, { extraClass: "drawn-card" }),
    h("figcaption", {}, cardName(card)),
  );
}

// The table: the snakes under construction, the placements of the drawn card on their open
// ends, the fan of face-down cards, and the pits. Pure rendering: callers pass the data and the
// handlers, and get elements back.

import { arrowKeys, h } from "./dom.js";
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

function ghostButton(drawn, action, touch, pair, onPlay) {
  const { card, flip } = cardAt(drawn, touch);
  const label = actionText(action, drawn);
  return h(
    "button",
    {
      type: "button",
      class: `ghost ghost-${touch.end}${pair ? " ghost-join" : ""}`,
      dataset: { action: action.text },
      "aria-label": label,
      title: label,
      onclick: () => onPlay(action.text),
    },
    cardSvg(card, { flip }),
    pair ? h("span", { class: "join-badge", "aria-hidden": "true" }, `⇄ ${pair}`) : null,
  );
}

/**
 * The snakes as an <ol>. With `drawn` and `legal` (and `onPlay`), each legal placement is a
 * button on the open end(s) it touches, showing the card in the turn it would lie.
 */
export function renderSnakes({ table, drawn = null, legal = [], onPlay = null, spot = null }) {
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
        );
        continue;
      }
      for (const touch of action.touches) {
        const other = action.touches.find((x) => x !== touch);
        const key = `${touch.snake}${touch.end}`;
        if (!ghosts.has(key)) ghosts.set(key, []);
        ghosts.get(key).push(ghostButton(drawn, action, touch, other ? other.snake : null, onPlay));
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
    h("div", { class: "table-scroll" }, snakes),
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
 * The fan of face-down cards. Active: each card is a button (one Tab stop, arrows move, Enter
 * draws); which one is picked does not change which card comes (RULES §3.2).
 */
export function renderFan(count, { active = false, onPick = null } = {}) {
  const spread = count > 1 ? Math.min(3, 70 / count) : 0;
  const fan = h("div", {
    class: `fan${active ? " fan-active" : ""}`,
    role: "group",
    "aria-label": tn("fan.label", count),
    style: `--n:${Math.max(count - 1, 1)};--mid:${(count - 1) / 2};--spread:${spread}deg`,
  });
  for (let i = 0; i < count; i++) {
    const style = `--i:${i}`;
    if (active) {
      fan.append(
        h(
          "button",
          {
            type: "button",
            class: "fan-card",
            style,
            tabindex: i === Math.floor(count / 2) ? 0 : -1,
            "aria-label": t("fan.card", { n: i + 1, count }),
            onclick: () => onPick(i),
          },
          backSvg(),
        ),
      );
    } else {
      fan.append(h("span", { class: "fan-card", style }, backSvg()));
    }
  }
  if (active) arrowKeys(fan, ".fan-card", { roving: true });
  return fan;
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

// Cards, snakes and actions in the project's notation (docs/notation.md), how they are said in
// words, and how they are drawn (SVG). A card as it lies: {kind: "H"|"T"|"M", a, b}; a mid-section
// has its left colour in `a` and its right colour in `b`; a head or tail has its colour in `a`
// ("wild" for the rainbow cards). Heads lie at the left end of a snake, tails at the right.

import { s } from "./dom.js";
import { cardText, colourLetter, colourName, colourSide, colourSymbol, t } from "./i18n.js";

export const COLOURS = ["red", "orange", "yellow", "green", "blue", "purple"];

/** A card from its notation ("H:red", "M:orange-red" as it lies, "T:wild"). */
export function parseCard(text) {
  const match = /^([HTM]):([a-z]+)(?:-([a-z]+))?$/i.exec(String(text).trim());
  if (!match) throw new Error(`bad card ${text}`);
  const kind = match[1].toUpperCase();
  const a = match[2].toLowerCase();
  const b = match[3] ? match[3].toLowerCase() : null;
  return { kind, a, b, text: String(text).trim() };
}

/** The cards of a snake, left to right. */
export function parseSnake(text) {
  return String(text).trim().split(/\s+/).filter(Boolean).map(parseCard);
}

/** The open ends of a snake: {left, right}, each a colour, "wild" or null (closed). */
export function snakeEnds(cards) {
  const first = cards[0];
  const last = cards[cards.length - 1];
  const left = first.kind === "H" ? null : first.a;
  const right = last.kind === "T" ? null : last.kind === "H" ? last.a : last.b;
  return { left, right };
}

/**
 * An action from its notation: {kind: "new"|"cap"|"extend"|"join", text, touches} (`text` the
 * placement alone, also for a play of the hand variant that names its card), where each
 * touch is {snake (from 1), end ("L"|"R"), side (colour or null)}.
 */
export function parseAction(text) {
  // A play of the hand variant names its card first ("M:red-orange@1L:red"): the placement is
  // what follows the "@" (the card is the event's own).
  const named = String(text).trim();
  const clean = named.includes("@") ? named.slice(named.indexOf("@") + 1) : named;
  if (clean.toLowerCase() === "new") return { kind: "new", text: clean, touches: [] };
  const touches = clean.split("+").map((part) => {
    const match = /^(\d+)([LR])(?::([a-z]+))?$/i.exec(part);
    if (!match) throw new Error(`bad action ${text}`);
    const side = match[3] ? match[3].toLowerCase() : null;
    return { snake: Number(match[1]), end: match[2].toUpperCase(), side };
  });
  const kind = touches.length === 2 ? "join" : touches[0].side ? "extend" : "cap";
  return { kind, text: clean, touches };
}

/**
 * How the drawn card lies when it touches `touch`: the card with its colours in that turn, and
 * `flip` for a head placed on a right end (facing right) or a tail on a left end.
 */
export function cardAt(drawn, touch) {
  const card = parseCard(drawn);
  if (card.kind === "M") {
    const other = touch.side === card.a ? card.b : card.a;
    return touch.end === "R"
      ? { card: { ...card, a: touch.side, b: other }, flip: false }
      : { card: { ...card, a: other, b: touch.side }, flip: false };
  }
  const flip = (card.kind === "H" && touch.end === "R") || (card.kind === "T" && touch.end === "L");
  return { card, flip };
}

// ------------------------------------------------------------------------------------ words

/** A card in words, as the catalog names it: "red head", "red-orange mid-section"; with
 * ``accusative``, as the object of a verb ("Dobierasz czerwoną głowę"). */
export function cardName(card, accusative = false) {
  const c = typeof card === "string" ? parseCard(card) : card;
  if (c.kind !== "M") return cardText(`${c.kind}:${c.a}`, accusative);
  return cardText(`M:${c.a}-${c.b}`, accusative) ?? cardText(`M:${c.b}-${c.a}`, accusative);
}

/** The open ends of a snake in words. */
export function endsText(cards) {
  const { left, right } = snakeEnds(cards);
  if (left && right) {
    return t("snake.ends.both", { left: colourName(left), right: colourName(right) });
  }
  if (left) return t("snake.ends.left", { colour: colourName(left) });
  if (right) return t("snake.ends.right", { colour: colourName(right) });
  return t("snake.ends.none");
}

/** A snake on the table in words: "snake 2: red head, red–orange; open end orange on the right".
 */
export function snakeText(number, text) {
  const cards = parseSnake(text);
  return t("snake.text", {
    n: number,
    cards: cards.map(cardName).join(", "),
    ends: endsText(cards),
  });
}

/** A snake in a pit in words (no open ends). */
export function pitSnakeText(text) {
  return parseSnake(text).map(cardName).join(", ");
}

function endParams(touch, suffix = "") {
  return { [`s${suffix}`]: touch.snake, [`e${suffix}`]: t(`end.${touch.end}`) };
}

/** What an action does with the drawn card, in words. */
export function actionText(action, drawn) {
  const a = typeof action === "string" ? parseAction(action) : action;
  const card = cardName(drawn);
  if (a.kind === "new") return t("placement.new", { card });
  if (a.kind === "cap") return t("placement.cap", { card, ...endParams(a.touches[0]) });
  if (a.kind === "extend") {
    return t("placement.extend", {
      card,
      ...endParams(a.touches[0]),
      side: colourSide(a.touches[0].side),
    });
  }
  return t("placement.join", {
    card,
    ...endParams(a.touches[0], "1"),
    ...endParams(a.touches[1], "2"),
  });
}

// ------------------------------------------------------------------------------------ drawing

let uid = 0;

function paint(colour) {
  return `var(--c-${colour})`;
}

/** A colour-blind mark (the colour's symbol and letter) centred at x on the snake's body. */
function mark(colour, x) {
  return s(
    "g",
    { class: "cb-mark", transform: `translate(${x - 21} 25)`, dataset: { colour } },
    s("rect", { width: 42, height: 30, rx: 7, class: "cb-badge" }),
    s(
      "g",
      { transform: "translate(3.5 6) scale(1.5)" },
      s("path", { d: colourSymbol(colour).path, class: "cb-symbol" }),
    ),
    s("text", { x: 31, y: 23, "text-anchor": "middle", class: "cb-letter" }, colourLetter(colour)),
  );
}

function rainbow(id, vertical) {
  const stops = COLOURS.map((colour, i) =>
    s("stop", { offset: `${(i / 5) * 100}%`, style: `stop-color:${paint(colour)}` }),
  );
  return s(
    "linearGradient",
    vertical ? { id, x1: 0, y1: 0, x2: 0, y2: 1 } : { id, x1: 0, y1: 0, x2: 1, y2: 0 },
    stops,
  );
}

const HEAD = "M58 22H120V58H58Z";
const HEAD_SHAPE =
  "M14 40C14 20 32 12 52 12C70 12 84 22 84 40C84 58 70 68 52 68C32 68 14 60 14 40Z";
const TAIL_SHAPE = "M0 22C40 22 80 26 104 34Q118 40 104 46C80 54 40 58 0 58Z";

/**
 * A face-up card as an SVG element. `flip` mirrors a head or tail (a head facing right, a tail
 * pointing left). The element is decorative (aria-hidden): its text is given by its container.
 */
export function cardSvg(card, { flip = false, extraClass = "" } = {}) {
  const c = typeof card === "string" ? parseCard(card) : card;
  const id = `g${++uid}`;
  const wild = c.a === "wild";
  const defs = s("defs");
  const body = s("g", flip ? { transform: "translate(120 0) scale(-1 1)" } : {});
  const marks = [];
  const svg = s(
    "svg",
    {
      viewBox: "0 0 120 80",
      class: `card card-${c.kind}${wild ? " card-wild" : ""} ${extraClass}`.trim(),
      "aria-hidden": "true",
      focusable: "false",
      dataset: { card: c.text },
    },
    defs,
    s("rect", { x: 1, y: 1, width: 118, height: 78, rx: 9, class: "card-face" }),
    body,
  );
  if (c.kind === "M") {
    defs.append(
      s(
        "linearGradient",
        { id, x1: 0, y1: 0, x2: 1, y2: 0 },
        s("stop", { offset: "12%", style: `stop-color:${paint(c.a)}` }),
        s("stop", { offset: "88%", style: `stop-color:${paint(c.b)}` }),
      ),
    );
    body.append(
      s("rect", { x: 0, y: 22, width: 120, height: 36, fill: `url(#${id})`, class: "body" }),
      s("path", {
        d: "M30 30l10 10l-10 10M56 30l10 10l-10 10M82 30l10 10l-10 10",
        class: "scales",
      }),
    );
    marks.push(mark(c.a, 24), mark(c.b, 96));
  } else if (c.kind === "H") {
    const fill = wild ? `url(#${id})` : paint(c.a);
    if (wild) defs.append(rainbow(id, true));
    body.append(
      s("path", { d: HEAD, fill, class: "body" }),
      s("path", { d: HEAD_SHAPE, fill, class: "body" }),
      s("path", { d: "M15 44H4M7 44L1 39M7 44L1 49", class: "tongue" }),
      s("circle", { cx: 38, cy: 30, r: 8, class: "eye" }),
      s("circle", { cx: 35, cy: 30, r: 4, class: "pupil" }),
      s("path", { d: "M18 48Q34 56 52 50", class: "mouth" }),
    );
    marks.push(mark(wild ? "wild" : c.a, flip ? 24 : 96));
  } else {
    const fill = wild ? `url(#${id})` : paint(c.a);
    if (wild) defs.append(rainbow(id, true));
    body.append(
      s("path", { d: TAIL_SHAPE, fill, class: "body" }),
      s("path", { d: "M40 28v24M60 30v20M78 33v14", class: "scales" }),
    );
    marks.push(mark(wild ? "wild" : c.a, flip ? 96 : 24));
  }
  svg.append(...marks);
  return svg;
}

/** A face-down card (the back of every card is the same). */
export function backSvg() {
  return s(
    "svg",
    { viewBox: "0 0 80 120", class: "card-back", "aria-hidden": "true", focusable: "false" },
    s("rect", { x: 1, y: 1, width: 78, height: 118, rx: 9, class: "back-face" }),
    s("rect", { x: 7, y: 7, width: 66, height: 106, rx: 6, class: "back-frame" }),
    s("path", {
      d: "M40 20C20 20 20 45 40 45S60 70 40 70S20 95 40 100",
      class: "back-snake",
    }),
    s("circle", { cx: 40, cy: 20, r: 6, class: "back-head" }),
  );
}

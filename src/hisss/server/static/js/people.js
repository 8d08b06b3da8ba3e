// The seats: names as players see them, the seat panels with scores and pits, and the result
// of a game as the server tells it in the reader's language.

import { h, replace } from "./dom.js";
import { currentLanguage, joinNames, seatName, t, tn } from "./i18n.js";
import { handSizeText, renderHandCards } from "./hand.js";
import { miniSnake } from "./table.js";

/** A seat's name: the server's default names ("Bot 2 (medium)", "Player 3") are translated. */
export function displayName(seat) {
  return seatName(typeof seat === "string" ? seat : seat.name);
}

/** The scores of one seat in words. */
export function scoreText(score) {
  return [
    tn("score.cards", score.cards),
    tn("score.snakes", score.snakes),
    t("score.longest", { n: score.longest }),
  ].join(" · ");
}

/** Seconds a person seat has been away now, from the state's figure and when it came. */
export function awayNow(seat, receivedAt) {
  if (seat.kind !== "person" || seat.connected || seat.away_seconds === null) return null;
  return seat.away_seconds + (performance.now() - receivedAt) / 1000;
}

/** The seconds a seat must be away before it may go to a bot: longer if never connected. */
function awayLimit(seat, handOver) {
  return seat.arrived === false ? handOver.unseen : handOver.limit;
}

/**
 * A seat's pit as a small stack of cards with their number; a button that shows the snakes
 * taken when `onPit` is given (a plain stack otherwise).
 */
function pitStack(name, score, pit, onPit) {
  const layers = Math.min(3, pit.length);
  const stack = h(
    "span",
    { class: "pit-pile", "aria-hidden": "true", style: `--layers:${layers}` },
    Array.from({ length: layers }, (_, k) => h("span", { class: "pit-card", style: `--k:${k}` })),
  );
  const count = [
    h("span", { class: "pit-count", "aria-hidden": "true" }, String(score.cards)),
    h("strong", { class: "seat-cards" }, tn("score.cards", score.cards)),
  ];
  if (!onPit || !pit.length) return h("span", { class: "pit-stack" }, stack, count);
  return h(
    "button",
    {
      type: "button",
      class: "pit-stack pit-button",
      "aria-label": `${tn("score.cards", score.cards)}: ${t("pit.show", { name })}`,
      "aria-haspopup": "dialog",
      onclick: () => onPit(),
    },
    stack,
    count,
  );
}

/** The snakes a seat took, as rows of small cards, for the pit's dialog and the replays. */
export function renderPit(name, pit) {
  return h(
    "ul",
    { class: "pit", "aria-label": t("pit.label", { name }) },
    pit.map(miniSnake),
  );
}

let pitDialog = null;

/** The snakes a seat took, in a dialog over the page (one for the page, made when first used);
 * closing it gives the focus back to the stack that opened it. */
export function showPit(name, pit) {
  if (!pitDialog || !pitDialog.isConnected) {
    pitDialog = h("dialog", { class: "pit-dialog", "aria-labelledby": "pit-title" });
    document.body.append(pitDialog);
  }
  replace(
    pitDialog,
    h("h2", { id: "pit-title" }, t("pit.label", { name })),
    renderPit(name, pit),
    h(
      "div",
      { class: "buttons" },
      h("button", { type: "button", class: "primary", onclick: () => pitDialog.close() }, t("pit.close")),
    ),
  );
  pitDialog.showModal();
}

/**
 * The seat panels: name, kind, presence, scores and pit of each seat, each in its seat's colour.
 * `mine`: the seats this page plays (several on one device). `handOver` (optional):
 * {limit, unseen, levels, receivedAt, onHand(seat, level)} offers to hand away seats to a bot.
 * `hands` (the hand variant) is {sizes, shown}: how many cards each seat holds, and the cards of
 * each hand shown to this reader (null where hidden). A seat's pit is a small stack of cards with
 * their count; a click shows the snakes it took (`onPit(name, pit)`, by default in a dialog).
 */
export function renderSeats({
  seats,
  scores,
  pits,
  toMove = null,
  mine = [],
  winners = [],
  handOver = null,
  hands = null,
  onPit = null,
}) {
  const list = h("ol", { class: "seat-list", style: `--players:${seats.length}` });
  const alone = mine.length === 1;
  seats.forEach((seat, i) => {
    const number = i + 1;
    const info = typeof seat === "string" ? { name: seat, kind: "person", connected: true } : seat;
    const tags = [];
    if (alone && mine.includes(number)) tags.push(t("seat.you"));
    if (info.kind === "bot" && info.level)
      tags.push(t("seat.botTag", { level: t(`level.${info.level}`) }));
    if (info.open) tags.push(t("seat.open"));
    else if (info.kind === "person" && info.arrived === false) tags.push(t("seat.notYet"));
    else if (info.kind === "person" && info.connected === false) tags.push(t("seat.away"));
    const score = scores[i];
    const classes = ["seat", `seat-colour-${number}`];
    if (number === toMove) classes.push("to-move");
    if (mine.includes(number)) classes.push("mine");
    if (winners.includes(number)) classes.push("winner");
    const away = handOver ? awayNow(info, handOver.receivedAt) : null;
    let offer = null;
    if (handOver && !mine.includes(number) && away !== null) {
      const limit = awayLimit(info, handOver);
      if (away >= limit) {
        const select = h(
          "select",
          { "aria-label": t("handOver.level", { name: displayName(info) }) },
          handOver.levels.map((level) =>
            h("option", { value: level, selected: level === "medium" }, t(`level.${level}`)),
          ),
        );
        offer = h(
          "div",
          { class: "hand-over" },
          select,
          h(
            "button",
            {
              type: "button",
              class: "small",
              onclick: () => handOver.onHand(number, select.value),
            },
            t("handOver.button"),
          ),
        );
      } else {
        offer = h(
          "p",
          { class: "hand-over-wait" },
          info.arrived === false
            ? t(info.open ? "handOver.waitOpen" : "handOver.waitUnseen", {
                n: Math.ceil((limit - away) / 60),
              })
            : t("handOver.wait", { n: Math.ceil(limit - away) }),
        );
      }
    }
    const name = displayName(info);
    list.append(
      h(
        "li",
        { class: classes.join(" "), dataset: { seat: number } },
        h(
          "div",
          { class: "seat-head", dataset: { full: name } },
          h("span", {
            class: `presence ${info.connected === false ? "off" : "on"}`,
            "aria-hidden": "true",
          }),
          h("span", { class: "seat-dot", "aria-hidden": "true" }, number),
          h("span", { class: "seat-name", title: name }, name),
          number === toMove ? h("span", { class: "turn-mark" }, t("seat.toMove")) : null,
          winners.includes(number) ? h("span", { class: "win-mark" }, t("seat.winner")) : null,
        ),
        tags.length ? h("div", { class: "seat-tags" }, tags.join(" · ")) : null,
        h(
          "div",
          { class: "seat-score" },
          pitStack(name, score, pits[i], () => (onPit || showPit)(name, pits[i])),
          h(
            "span",
            { class: "seat-rest" },
            ` · ${tn("score.snakes", score.snakes)} · ${t("score.longest", { n: score.longest })}`,
          ),
        ),
        hands
          ? h(
              "div",
              { class: "seat-hand", dataset: { size: hands.sizes[i] } },
              h("span", { class: "seat-hand-size" }, handSizeText(hands.sizes[i])),
              hands.shown[i] ? renderHandCards(hands.shown[i]) : null,
            )
          : null,
        offer,
      ),
    );
  });
  return list;
}

/**
 * The result in words: {headline, how, tieBreak}. `names` are the seats' display names; `how`
 * is the server's sentence in the reader's language, `tieBreak` the server's flag. `mine` (the
 * seats this page plays) and `device` (several people on this device) choose the headline's
 * words: "You win!" for one player at the table, a win on one device congratulated by name.
 */
export function describeResult(result, names, { mine = [], device = false, seats = [] } = {}) {
  return {
    headline: resultHeadline(result.winners, names, { mine, device, seats }),
    parts: headlineParts(result.winners, names, { mine, device, seats }),
    how: result.explanations[currentLanguage()] ?? result.explanation,
    tieBreak: result.tie_break,
  };
}

/** The headline of a result as its words and its names apart (`{ name }`), so that a page can
 * set each name in a box of its own, cut to one line. */
export function headlineParts(winnerSeats, names, options = {}) {
  const marked = resultHeadline(winnerSeats, names.map((_, i) => `\u0001${i}\u0001`), options);
  return marked
    .split("\u0001")
    .map((part, i) => (i % 2 ? { name: names[Number(part)] } : part))
    .filter((part) => part !== "");
}

/** The headline of a result (the seats from 1 that won, the names of every seat), in words. */
export function resultHeadline(winnerSeats, names, { mine = [], device = false, seats = [] } = {}) {
  const winners = winnerSeats.map((w) => names[w - 1]);
  const one = winners.length === 1;
  if (mine.length === 1 && !device) {
    const others = winnerSeats.filter((w) => w !== mine[0]).map((w) => names[w - 1]);
    if (winnerSeats.includes(mine[0])) {
      return one ? t("result.you") : t("result.youShare", { names: joinNames(others) });
    }
    return one ? t("result.youLose", { name: winners[0] }) : t("result.youLoseShared", { names: joinNames(winners) });
  }
  const people = (w) => mine.includes(w) && (!seats[w - 1] || seats[w - 1].kind !== "bot");
  if (device && winnerSeats.some(people)) {
    return one
      ? t("result.deviceWinner", { name: winners[0] })
      : t("result.deviceShared", { names: joinNames(winners) });
  }
  return one ? t("result.winner", { name: winners[0] }) : t("result.shared", { names: joinNames(winners) });
}

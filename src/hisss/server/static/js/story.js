// What the game page tells besides the table: the log of moves and claims with who made them,
// the rules on demand, the end screen with the scores, and the rematch.

import { api } from "./api.js";
import { actionText, cardName, pitSnakeText } from "./cards.js";
import { h, replace } from "./dom.js";
import { joinNames, t, tn } from "./i18n.js";
import { describeResult, displayName } from "./people.js";

/** One step of the log in words, naming who made it. */
export function logLine(entry, names) {
  const who = entry.seat ? names[entry.seat - 1] : "";
  switch (entry.kind) {
    case "starter":
      return t("news.starter", { card: cardName(entry.card) });
    case "play":
      return t("news.play", { name: who, what: actionText(entry.action, entry.card) });
    case "bot":
      return t("news.bot", { name: who, level: t(`level.${entry.level || "medium"}`) });
    case "person":
      return t("news.person", { name: who });
    case "rematch":
      return entry.seat ? t("log.rematchAsked", { name: who }) : t("log.rematchMade");
    default:
      return "";
  }
}

/** The log of moves and claims, the newest first; a claim stands out with the snake taken. */
export function renderLog(log, names) {
  const items = log
    .slice()
    .reverse()
    .map((entry) =>
      h(
        "li",
        { class: `log-entry log-${entry.kind}${entry.hisss ? " log-claim" : ""}` },
        entry.seat
          ? h("span", { class: `log-seat seat-colour-${entry.seat}`, "aria-hidden": "true" }, entry.seat)
          : null,
        h(
          "span",
          {},
          logLine(entry, names),
          entry.hisss
            ? h(
                "strong",
                { class: "log-hisss" },
                " ",
                t("news.hisss", {
                  name: names[entry.seat - 1],
                  snake: pitSnakeText(entry.claimed),
                }),
              )
            : null,
        ),
      ),
    );
  return items.length
    ? h("ol", { class: "log-list", tabindex: 0, "aria-label": t("log.title") }, items)
    : h("p", { class: "log-empty" }, t("log.empty"));
}

/** The rules in a few lines, in a dialog. */
/** The rules dialog; `handSize` is the size of the hands in the hand variant, or 0. */
export function renderRules(dialog, handSize = 0) {
  replace(
    dialog,
    h("h2", { id: "rules-title" }, t("rules.title")),
    h(
      "ol",
      { class: "rules-list" },
      [t("lobby.rule1"), t("lobby.rule2"), t("lobby.rule3"), t("lobby.rule4"), t("lobby.rule5")].map(
        (rule) => h("li", {}, rule),
      ),
    ),
    h("p", {}, handSize ? tn("rules.hands_more", handSize) : t("rules.more")),
    h(
      "div",
      { class: "buttons" },
      h(
        "button",
        { type: "button", class: "primary", onclick: () => dialog.close() },
        t("end.close"),
      ),
    ),
  );
}

/**
 * What the rematch needs now: a button for a player who has not asked, who is still awaited
 * once asked, and the new game once made. `mine`: the seats this page plays; `onAsk()` asks.
 */
export function renderRematch(st, mine, onAsk) {
  const rematch = st.rematch;
  if (!rematch) return null;
  if (rematch.code) {
    return h(
      "a",
      { class: "button primary rematch-go", href: `/g/${rematch.code}` },
      mine.length ? t("rematch.go") : t("rematch.watch"),
    );
  }
  const needed = rematch.needed.filter((seat) => !rematch.asked.includes(seat));
  const mineLeft = needed.filter((seat) => mine.includes(seat));
  const parts = [];
  if (mineLeft.length) {
    parts.push(
      h(
        "button",
        { type: "button", class: "primary rematch-button", onclick: () => onAsk() },
        t("rematch.button"),
      ),
    );
  }
  const others = needed.filter((seat) => !mine.includes(seat));
  if (rematch.asked.length && others.length) {
    const names = others.map((seat) => displayName(st.seats[seat - 1]));
    parts.push(h("p", { class: "rematch-wait" }, t("rematch.waiting", { names: joinNames(names) })));
  }
  return parts.length ? h("div", { class: "rematch" }, parts) : null;
}

/** The end screen's contents: the winner, how it was decided, the scores, and what next. */
export function renderEnd(dialog, { st, code, mine, device = false, onRematch, onClose }) {
  const names = st.seats.map(displayName);
  const result = describeResult(st.result, names, { mine, device, seats: st.seats });
  const rows = st.seats.map((seat, i) =>
    h(
      "tr",
      { class: st.result.winners.includes(i + 1) ? "winner" : "" },
      h("th", { scope: "row" }, h("span", { class: `seat-dot seat-colour-${i + 1}` }, i + 1), names[i]),
      h("td", {}, st.result.cards[i]),
      h("td", {}, st.result.snakes[i]),
      h("td", {}, st.result.longest[i]),
    ),
  );
  replace(
    dialog,
    h("div", { class: "end-confetti", "aria-hidden": "true" }),
    h(
      "h2",
      { id: "end-title", title: result.headline, "aria-label": result.headline },
      ...result.parts.map((part) =>
        typeof part === "string" ? part : h("span", { class: "end-name", dir: "auto" }, part.name),
      ),
    ),

    h("p", { class: "end-how", dataset: { tieBreak: result.tieBreak ? "yes" : "no" } }, result.how),
    h(
      "table",
      { class: "end-scores" },
      h("caption", { class: "visually-hidden" }, t("end.scores")),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col" }, t("end.player")),
          h("th", { scope: "col" }, t("measure.cards")),
          h("th", { scope: "col" }, t("measure.snakes")),
          h("th", { scope: "col" }, t("measure.longest")),
        ),
      ),
      h("tbody", {}, rows),
    ),
    renderRematch(st, mine, onRematch),
    h(
      "div",
      { class: "buttons" },
      h("a", { class: "button", href: `/g/${code}?view=replay` }, t("end.replay")),
      h(
        "a",
        { class: "button", href: api.gameRecordUrl(code), download: `hisss-${code}.json` },
        t("end.download"),
      ),
      h("a", { class: "button", href: "/" }, t("end.newGame")),
      h(
        "button",
        {
          type: "button",
          class: "end-close",
          onclick: () => (onClose ? onClose() : dialog.close()),
        },
        t("end.close"),
      ),
    ),
  );
}

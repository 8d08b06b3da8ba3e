// The table in words, for screen readers and for anyone who switches the text view on: the
// status, every snake with its cards and open ends, every pit, the result, and (on the player's
// turn, when the view is shown) labelled buttons that draw and place.

import { actionText, pitSnakeText, snakeText } from "./cards.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { describeResult, displayName, scoreText } from "./people.js";
import { prefs } from "./prefs.js";

function button(cls, label, onclick, dataset = {}) {
  return h("button", { type: "button", class: cls, dataset, onclick }, label);
}

/**
 * Fill `section` with the text view of a position: {status, table, seats, scores, pits,
 * result}. `controls` (optional): {onDraw} on the player's turn to draw, or
 * {legal, drawn, onPlay} on the turn to place; they are shown only with the text view on.
 */
export function renderTextView(section, view, controls = null) {
  const visible = prefs.textView;
  section.classList.toggle("visually-hidden", !visible);
  const parts = [
    h("h2", { id: "text-title" }, t("text.title")),
    h("p", { class: "tv-status" }, view.status),
    h("h3", {}, t("text.snakes")),
    view.table.length
      ? h(
          "ol",
          { class: "tv-snakes" },
          view.table.map((snake, i) => h("li", {}, snakeText(i + 1, snake))),
        )
      : h("p", {}, t("table.empty")),
    h("h3", {}, t("text.pits")),
    h(
      "ul",
      { class: "tv-pits" },
      view.seats.map((seat, i) => {
        const pit = view.pits[i].length ? `: ${view.pits[i].map(pitSnakeText).join("; ")}` : "";
        return h("li", {}, `${displayName(seat)}: ${scoreText(view.scores[i])}${pit}`);
      }),
    ),
  ];
  if (visible && controls && controls.onDraw) {
    parts.push(button("primary tv-draw", t("text.draw"), controls.onDraw));
  }
  if (visible && controls && controls.onPlay) {
    const moves = controls.legal.map((action) =>
      h(
        "li",
        {},
        button("tv-move", actionText(action, controls.drawn), () => controls.onPlay(action), {
          action,
        }),
      ),
    );
    parts.push(h("h3", {}, t("text.moves")), h("ul", { class: "tv-moves" }, moves));
  }
  if (view.result) {
    const result = describeResult(view.result, view.seats.map(displayName), view.reader || {});
    parts.push(h("p", { class: "tv-result" }, `${result.headline} ${result.how}`));
  }
  replace(section, ...parts);
}

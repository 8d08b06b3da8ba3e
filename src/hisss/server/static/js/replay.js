// Replays: a finished game (/g/CODE?view=replay) or an uploaded record (/replay/ID), stepped
// through turn by turn with buttons, a slider or the keyboard, and downloadable as a record.

import { api } from "./api.js";
import { actionText, cardName, pitSnakeText } from "./cards.js";
import { h, replace, s, touchScreen } from "./dom.js";
import { errorText, t } from "./i18n.js";
import { describeResult, displayName, renderSeats } from "./people.js";
import { fitCards, placedSpot, renderDrawn, renderSnakes, renderTablePanel } from "./table.js";
import { renderTextView } from "./textview.js";

/** A small step icon (16x16 path). */
function stepIcon(path) {
  return s(
    "svg",
    {
      viewBox: "0 0 16 16",
      width: 16,
      height: 16,
      "aria-hidden": "true",
      focusable: "false",
      class: "icon",
    },
    s("path", { d: path, fill: "currentColor" }),
  );
}

export class ReplayPage {
  /** `source`: {kind: "game", key} or {kind: "replay", key}. */
  constructor(main, source, { announce, toast }) {
    this.main = main;
    this.source = source;
    this.announce = announce;
    this.toast = toast;
    this.cache = new Map();
    this.step = 0;
    this.steps = 0;
    this.view = null;
    this.summary = null;
    this.wanted = 0;
    this.onKey = (event) => this.key(event);
  }

  async start() {
    replace(this.main, h("p", { class: "loading" }, t("replay.loading")));
    try {
      this.summary =
        this.source.kind === "game"
          ? await api.game(this.source.key)
          : await api.replay(this.source.key);
    } catch (error) {
      this.fail(errorText(error));
      return;
    }
    if (this.source.kind === "game" && this.summary.status !== "finished") {
      this.fail(t("replay.notOver"), `/g/${this.summary.code}`);
      return;
    }
    const first = await this.fetchStep(0);
    if (!first) return;
    this.steps = first.steps;
    const wanted = Number(new URLSearchParams(location.search).get("step"));
    this.build();
    document.addEventListener("keydown", this.onKey);
    window.addEventListener("resize", () => fitCards(this.tableEl));
    await this.go(
      Number.isInteger(wanted) && wanted >= 0 ? Math.min(wanted, this.steps) : 0,
      false,
    );
  }

  fail(text, back = null) {
    replace(
      this.main,
      h(
        "section",
        { class: "panel" },
        h("h1", {}, t("replay.title")),
        h("p", { class: "form-error" }, text),
        h("a", { class: "button", href: back || "/" }, back ? t("replay.toGame") : t("nav.lobby")),
      ),
    );
  }

  async fetchStep(n) {
    if (this.cache.has(n)) return this.cache.get(n);
    try {
      const data =
        this.source.kind === "game"
          ? await api.gameStep(this.source.key, n)
          : await api.replayStep(this.source.key, n);
      this.cache.set(n, data);
      return data;
    } catch (error) {
      this.toast(errorText(error));
      return null;
    }
  }

  get recordUrl() {
    return this.source.kind === "game"
      ? api.gameRecordUrl(this.source.key)
      : api.replayRecordUrl(this.source.key);
  }

  build() {
    const title =
      this.source.kind === "game"
        ? t("replay.gameTitle", { code: this.summary.code })
        : t("replay.uploadTitle");
    this.counter = h("p", { class: "turn-status replay-counter", "aria-live": "off" });
    this.slider = h("input", {
      type: "range",
      min: 0,
      max: this.steps,
      value: 0,
      class: "replay-slider",
      "aria-label": t("replay.slider"),
      oninput: () => this.go(Number(this.slider.value)),
    });
    const button = (cls, label, icon, go) =>
      h(
        "button",
        { type: "button", class: `replay-${cls}`, title: label, onclick: go },
        stepIcon(icon),
        h("span", { class: "btn-text" }, label),
      );
    this.eventEl = h("p", { class: "replay-event" });
    this.seatsEl = h("aside", { class: "seats", "aria-labelledby": "seats-title" });
    this.tableEl = h("section", { class: "table-area", "aria-labelledby": "table-title" });
    this.handEl = h("section", { class: "hand", "aria-labelledby": "hand-title" });
    this.textEl = h("section", { class: "text-view", "aria-labelledby": "text-title" });
    this.root = h(
      "section",
      { class: "game replay" },
      h(
        "div",
        { class: "game-bar" },
        h("h1", { class: "game-title" }, title),
        this.counter,
        h(
          "div",
          { class: "bar-tools" },
          h(
            "a",
            { class: "button small replay-download", href: this.recordUrl, download: "" },
            t("replay.download"),
          ),
          this.source.kind === "game"
            ? h("a", { class: "button small", href: `/g/${this.summary.code}` }, t("replay.toGame"))
            : null,
        ),
      ),
      h(
        "div",
        { class: "replay-controls", role: "group", "aria-label": t("replay.controls") },
        button("first", t("replay.first"), "M4 3h2v10H4zM13 3v10L7 8z", () => this.go(0)),
        button("prev", t("replay.prev"), "M12 3v10L5 8z", () => this.go(this.step - 1)),
        this.slider,
        button("next", t("replay.next"), "M4 3v10l7-5z", () => this.go(this.step + 1)),
        button("last", t("replay.last"), "M3 3v10l6-5zM10 3h2v10h-2z", () => this.go(this.steps)),
      ),
      touchScreen() ? null : h("p", { class: "hint keys-hint" }, t("replay.keys")),
      this.eventEl,
      h("div", { class: "game-grid" }, this.seatsEl, this.tableEl, this.handEl),
      this.textEl,
    );
    replace(this.main, this.root);
  }

  rerender() {
    if (!this.root) return this.start();
    this.build();
    this.render(this.view, null);
  }

  key(event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const tag = event.target.tagName;
    if (["INPUT", "SELECT", "TEXTAREA"].includes(tag)) return;
    const moves = { ArrowRight: 1, ArrowLeft: -1, PageDown: 10, PageUp: -10 };
    let n = null;
    if (event.key in moves) n = this.step + moves[event.key];
    else if (event.key === "Home") n = 0;
    else if (event.key === "End") n = this.steps;
    if (n === null) return;
    event.preventDefault();
    this.go(n);
  }

  async go(n, tell = true) {
    n = Math.max(0, Math.min(this.steps, n));
    this.wanted = n;
    const data = await this.fetchStep(n);
    if (!data || this.wanted !== n) return;
    const before = this.view;
    this.step = n;
    this.view = data;
    const url = new URL(location.href);
    url.searchParams.set("step", n);
    history.replaceState(null, "", url);
    this.render(data, before && before.step === n - 1 ? before : null);
    if (tell) this.announce(`${this.counterText()}. ${this.eventText(data)}`);
  }

  counterText() {
    return t("replay.step", { n: this.step, steps: this.steps });
  }

  eventText(view) {
    const event = view.last_event;
    if (!event) return "";
    if (event.kind === "starter") return t("news.starter", { card: cardName(event.card) });
    const name = displayName(view.seats[event.seat - 1]);
    let text = t("news.play", { name, what: actionText(event.action, event.card) });
    if (event.hisss) text += ` ${t("news.hisss", { name, snake: pitSnakeText(event.claimed) })}`;
    return text;
  }

  render(view, before) {
    this.root.dataset.step = view.step;
    this.counter.textContent = this.counterText();
    this.slider.value = view.step;
    this.eventEl.textContent = this.eventText(view);
    for (const [cls, off] of [
      ["first", view.step === 0],
      ["prev", view.step === 0],
      ["next", view.step === this.steps],
      ["last", view.step === this.steps],
    ]) {
      const control = this.root.querySelector(`.replay-${cls}`);
      control.setAttribute("aria-disabled", off ? "true" : "false");
    }
    const spot = before ? placedSpot(view.last_event, view.table) : null;
    replace(
      this.seatsEl,
      h("h2", { id: "seats-title", class: "panel-title" }, t("seats.title")),
      renderSeats({
        seats: view.seats,
        scores: view.scores,
        pits: view.pits,
        toMove: view.to_move,
        winners: view.result ? view.result.winners : [],
        // A record of the hand variant holds every hand: the replay shows them all.
        hands: view.hands ? { sizes: view.hand_sizes, shown: view.hands } : null,
      }),
    );
    replace(
      this.tableEl,
      ...renderTablePanel(view.cards_left, renderSnakes({ table: view.table, spot })),
    );
    fitCards(this.tableEl);
    const hand = [h("h2", { id: "hand-title", class: "panel-title" }, t("replay.lastCard"))];
    const event = view.last_event;
    if (event && event.card) hand.push(renderDrawn(event.card));
    if (view.result) {
      const result = describeResult(view.result, view.seats.map(displayName));
      hand.push(
        h(
          "div",
          { class: "replay-result" },
          h("p", { class: "result-line" }, result.headline),
          h(
            "p",
            { class: "end-how", dataset: { tieBreak: result.tieBreak ? "yes" : "no" } },
            result.how,
          ),
        ),
      );
    }
    replace(this.handEl, ...hand);
    const status = `${this.counterText()} · ${this.eventText(view)}`;
    renderTextView(this.textEl, { ...view, status });
  }
}

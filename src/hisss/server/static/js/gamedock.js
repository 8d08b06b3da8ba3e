// The dock along the bottom of the game page: the deck and the drawn card, or a seat's hand (face
// down on one device until its player holds it), the help and Hint, the links to share while
// seats are open, the result once it is over; and the text view.

import { cardName } from "./cards.js";
import { copyText, h, replace, touchScreen } from "./dom.js";
import { hasHands, renderHandCards, renderHiddenHand } from "./hand.js";
import { t, tn } from "./i18n.js";
import { describeResult, displayName } from "./people.js";
import { renderRematch } from "./story.js";
import { renderDeck, renderDrawn } from "./table.js";
import { renderTextView } from "./textview.js";

/** Methods of the game page (mixed into GamePage). */
export const dockMethods = {
  renderHandOf(st, parts) {
    const seat = this.handSeat();
    if (seat === null) return;
    const name = this.nameOf(seat);
    const hand = st.hands[seat - 1] || [];
    parts.push(
      h(
        "h3",
        { class: "hand-title" },
        this.device ? t("hand.of", { name }) : t("hand.yours"),
      ),
    );
    if (!this.handVisible()) {
      parts.push(
        renderHiddenHand(name, () => {
          this.revealed = seat;
          this.render(null);
          const first = this.handEl.querySelector(".hand-choice.playable");
          if (first) first.focus();
        }),
      );
      return;
    }
    const toPlay = this.myTurn("place");
    parts.push(
      renderHandCards(hand, {
        legal: toPlay ? st.legal : null,
        chosen: this.chosen,
        onChoose: toPlay
          ? (card) => {
              this.chosen = card;
              this.hinted = null;
              this.renderHand();
              this.renderTable(null);
              this.renderText();
              const ghost = this.tableEl.querySelector(".ghost");
              if (ghost) ghost.focus({ preventScroll: false });
            }
          : null,
      }),
    );
    if (toPlay) {
      parts.push(
        h(
          "p",
          { class: "hint hand-step" },
          this.chosen ? t("hand.chosen", { card: cardName(this.chosen) }) : t("hand.chooseCard"),
        ),
        h(
          "button",
          { type: "button", class: "small hint-button", onclick: () => this.askHint() },
          t("hint.button"),
        ),
      );
    }
  },

  renderHand() {
    const st = this.state;
    const parts = [];
    const mine = this.mine;
    const touch = touchScreen();
    let heading = this.statusText(st);
    if (mine !== null && !this.device && st.seats[mine - 1].kind === "bot" && st.status !== "finished") {
      parts.push(
        h(
          "div",
          { class: "notice inline" },
          h("p", {}, t("game.botPlaysYou")),
          h(
            "button",
            {
              type: "button",
              class: "primary",
              onclick: () => this.socket.send({ type: "take_seat" }),
            },
            t("game.takeBack"),
          ),
        ),
      );
    }
    if (st.phase === "waiting") {
      heading = t("hand.waiting");
      const open = st.seats.filter((x) => x.open);
      parts.push(
        h("p", {}, t("hand.shareOpen")),
        h(
          "ul",
          { class: "share-list" },
          open.map((seat) => {
            const link = `${location.origin}/g/${this.code}#join=${seat.seat}`;
            return h(
              "li",
              {},
              h("span", { class: "share-seat" }, t("lobby.seatN", { n: seat.seat })),
              h("code", { class: "share-link" }, link),
              h(
                "button",
                {
                  type: "button",
                  class: "small",
                  onclick: async () => (await copyText(link)) && this.toast(t("copy.done")),
                },
                t("copy.button"),
              ),
            );
          }),
        ),
      );
    } else if (st.phase === "over") {
      heading = t("status.over");
      if (st.result) {
        const result = describeResult(st.result, st.seats.map(displayName), this.whoReads());
        parts.push(h("p", { class: "result-line" }, result.headline));
      }
      parts.push(
        renderRematch(st, this.mineSeats, () => this.askRematch()),
        h(
          "div",
          { class: "buttons" },
          h(
            "button",
            { type: "button", class: "end-show", onclick: () => this.showEnd() },
            t("end.show"),
          ),
          h("a", { class: "button", href: `/g/${this.code}?view=replay` }, t("end.replay")),
        ),
      );
    } else if (hasHands(st)) {
      parts.push(h("div", { class: "dock" }, renderDeck(st.cards_left)));
      this.renderHandOf(st, parts);
    } else {
      const active = this.myTurn("draw");
      const dock = h(
        "div",
        { class: "dock" },
        renderDeck(st.cards_left, { active, onDraw: () => this.draw(), touch }),
        st.drawn ? renderDrawn(st.drawn) : h("div", { class: "drawn drawn-empty" }),
      );
      parts.push(dock);
      if (this.myTurn("place")) {
        parts.push(
          h(
            "p",
            { class: "hint" },
            tn(touch ? "hand.choices.touch" : "hand.choices", st.legal.length),
          ),
          h(
            "button",
            { type: "button", class: "small hint-button", onclick: () => this.askHint() },
            t("hint.button"),
          ),
        );
      }
      if (active && !touch) parts.push(h("p", { class: "hint keys-hint" }, t("hand.pick")));
    }
    replace(this.handEl, h("h2", { id: "hand-title", class: "panel-title" }, heading), ...parts);
  },

  renderText() {
    const st = this.state;
    let controls = null;
    if (this.myTurn("draw")) controls = { onDraw: () => this.draw() };
    const choice = this.placing();
    if (choice) {
      controls = {
        legal: choice.legal,
        drawn: choice.card,
        onPlay: (action) => this.play(choice.play(action)),
      };
    }
    const status = [
      t("text.turn", { n: st.turn + 1 }),
      tn("table.cardsLeft", st.cards_left),
      this.statusText(st),
    ].join(" · ");
    renderTextView(this.textEl, { ...st, status, reader: this.whoReads() }, controls);
  },
};

// Drawing the game page: the turn line, the seats, the table with the placements of the card to
// place, and which card that is (in the hand variant, the one chosen from the hand).

import { h, replace } from "./dom.js";
import { isFresh } from "./gamestate.js";
import { hasHands, splitPlay } from "./hand.js";
import { t } from "./i18n.js";
import { displayName, renderSeats } from "./people.js";
import { prefs } from "./prefs.js";
import { renderLog } from "./story.js";
import { fitCards, placedSpot, renderSnakes, renderTablePanel } from "./table.js";

/** Methods of the game page (mixed into GamePage). */
export const viewMethods = {
  /** The turn banner on one line: a long name gives way first (cut with an ellipsis), then
   * the rest of the sentence; the whole sentence is its title. */
  renderStatus(st) {
    const text = this.statusText(st);
    const who = st.to_move ? this.nameOf(st.to_move) : "";
    const at = who ? text.indexOf(who) : -1;
    const parts =
      at < 0
        ? [h("span", { class: "status-rest" }, text)]
        : [
            at ? h("span", { class: "status-lead" }, text.slice(0, at)) : null,
            // A long name shrinks first, never below a few letters (nor wider than itself).
            h(
              "span",
              { class: "status-who", style: `min-width:${Math.min([...who].length, 5) * 0.5}em` },
              who,
            ),
            h("span", { class: "status-rest" }, text.slice(at + who.length)),
          ];
    replace(this.statusEl, ...parts);
    this.statusEl.title = text;
  },

  render(before) {
    const st = this.state;
    const focus = this.focusKey();
    this.root.dataset.version = st.version;
    this.root.dataset.phase = st.phase;
    this.renderStatus(st);
    this.statusEl.className = `turn-status${st.to_move ? ` seat-colour-${st.to_move}` : ""}`;
    const mine = this.myTurn("draw") || this.myTurn("place");
    this.root.classList.toggle("my-turn", mine);
    this.root.classList.toggle("device", this.device);
    const title = `${t("game.title", { code: this.code })} · ${t("app.name")}`;
    document.title =
      mine && !this.device ? `${t("title.yourTurn")} · ${title}` : title;
    this.renderSeatsPanel();
    this.renderTable(before);
    this.renderHand();
    this.renderText();
    replace(this.logEl, renderLog(st.log || [], st.seats.map(displayName)));
    if (this.endEl.open) this.showEnd();
    this.restoreFocus(focus);
    clearInterval(this.awayTimer);
    const someoneAway =
      st.status !== "finished" && st.seats.some((x) => x.kind === "person" && !x.connected);
    if (someoneAway && this.mine !== null) {
      this.awayTimer = setInterval(() => {
        // Counting down to "hand the seat to a bot"; never while the player is choosing a level.
        if (!this.seatsEl.contains(document.activeElement)) this.renderSeatsPanel();
      }, 1000);
    }
  },

  renderSeatsPanel() {
    const st = this.state;
    const focus = this.focusKey();
    const handOver =
      this.mine !== null && st.status !== "finished" && this.welcome
        ? {
            limit: this.welcome.away_seconds,
            unseen: this.welcome.unseen_seconds ?? this.welcome.away_seconds,
            levels: this.welcome.levels,
            receivedAt: this.receivedAt,
            onHand: (seat, level) => {
              if (
                this.socket.send({ type: "replace_with_bot", seat, level, version: st.version })
              ) {
                this.toast(t("handOver.sent"));
              }
            },
          }
        : null;
    replace(
      this.seatsEl,
      h("h2", { id: "seats-title", class: "panel-title" }, t("seats.title")),
      renderSeats({
        seats: st.seats,
        scores: st.scores,
        pits: st.pits,
        toMove: st.to_move,
        mine: this.mineSeats,
        winners: st.result ? st.result.winners : [],
        handOver,
        hands: hasHands(st)
          ? {
              sizes: st.hand_sizes,
              // Only hands seen by all are shown by the seats: a player's own hand is in the
              // hand panel (on one device, once its player holds the device).
              shown: st.hands.map((hand) => (st.hands_seen_by_all ? hand : null)),
            }
          : null,
      }),
    );
    this.restoreFocus(focus);
  },

  renderTable(before) {
    const st = this.state;
    const fresh = isFresh(before, st);
    const spot = fresh ? placedSpot(st.last_event, st.table) : null;
    const mineToPlace = this.myTurn("place");
    const choice = this.placing();
    const snakes = renderSnakes({
      table: st.table,
      drawn: choice ? choice.card : null,
      legal: choice ? choice.legal : [],
      onPlay: choice ? (action) => this.play(choice.play(action)) : null,
      spot,
      claims: mineToPlace && prefs.marks && choice ? choice.claims : null,
    });
    replace(this.tableEl, ...renderTablePanel(st.cards_left, snakes));
    if (this.hinted) {
      for (const ghost of this.tableEl.querySelectorAll(`.ghost[data-action="${this.hinted}"]`))
        ghost.classList.add("hinted");
    }
    fitCards(this.tableEl);
  },

  /** What the player to place may place now: {card, legal, claims, play(where)} with the legal
   * placements of that card (in the hand variant, of the card chosen from the hand); null when
   * nothing is to be placed from this page. */
  placing() {
    const st = this.state;
    if (!this.myTurn("place")) return null;
    if (!hasHands(st)) {
      return { card: st.drawn, legal: st.legal, claims: st.claims, play: (action) => action };
    }
    if (!this.chosen || !this.handVisible()) return null;
    const card = this.chosen;
    const legal = [];
    const claims = {};
    for (const text of st.legal) {
      const part = splitPlay(text);
      if (part.card !== card) continue;
      legal.push(part.where);
      if (st.claims[text]) claims[part.where] = st.claims[text];
    }
    return { card, legal, claims, play: (where) => `${card}@${where}` };
  },

  /** The seat whose hand the hand panel shows: this page's seat, or on one device the seat of
   * the person to play; null when none. */
  handSeat() {
    const st = this.state;
    if (!hasHands(st) || !this.mineSeats.length) return null;
    if (!this.device) return this.mine;
    const mover = st.to_move;
    return mover !== null && this.mineSeats.includes(mover) && st.phase === "place" ? mover : null;
  },

  /** Whether the hand panel's hand may be face up (on one device, once its player says they
   * hold the device, unless hands are seen by all). */
  handVisible() {
    const st = this.state;
    return !this.device || st.hands_seen_by_all || this.revealed === this.handSeat();
  },
};

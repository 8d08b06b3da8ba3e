// The game page (/g/CODE): the seats, the table in the middle, the deck and the drawn card, the
// placements, the log of moves, the rules, the beginners' help, the text view, the end screen
// and the rematch, with motion and sound, and the websocket that keeps it all in step with the
// server. On one device (pass-and-play) the page plays every person seat in turn.

import { actionText, parseAction } from "./cards.js";
import { h, replace } from "./dom.js";
import { dockMethods } from "./gamedock.js";
import { focusMethods } from "./gamefocus.js";
import { frameMethods } from "./gameframe.js";
import { HISSS_MS, newsMethods } from "./gamenews.js";
import { followLog, isFresh } from "./gamestate.js";
import { viewMethods } from "./gameview.js";
import { hasHands, splitPlay } from "./hand.js";
import { errorText, t } from "./i18n.js";
import { liftSnakes, placeOf } from "./motion.js";
import { rememberSeat, seatFor } from "./prefs.js";
import { play as sound } from "./sound.js";
import { fitCards } from "./table.js";
import { GameSocket } from "./ws.js";

const PENDING_MS = 5000;

function hashParams() {
  return new URLSearchParams(location.hash.slice(1));
}

export class GamePage {
  constructor(main, code, { announce, toast }) {
    this.main = main;
    this.code = code.toUpperCase();
    this.announce = announce;
    this.toast = toast;
    this.socket = null;
    this.welcome = null;
    this.state = null;
    this.receivedAt = 0;
    this.pending = null;
    this.pendingTimer = null;
    this.endShown = false;
    this.awayTimer = null;
    this.notice = "";
    this.hinted = null;
    this.leaving = false;
    // The hand variant: the card of the hand chosen to place, and the seat whose player has
    // said they hold the device (on one device).
    this.chosen = null;
    this.revealed = null;
  }

  /** Read the link's fragment, then join, play or watch. */
  async start() {
    const params = hashParams();
    const token = params.get("token");
    const seat = Number(params.get("seat"));
    if (token && Number.isInteger(seat) && seat > 0) {
      rememberSeat(this.code, { seat, token });
      if (seatFor(this.code)) history.replaceState(null, "", `/g/${this.code}`);
    }
    const join = Number(params.get("join"));
    if (!seatFor(this.code) && Number.isInteger(join) && join > 0) {
      this.renderJoin(join);
      return;
    }
    this.connect();
  }

  helloMessage() {
    const held = seatFor(this.code);
    return held ? { token: held.token } : { role: "spectator" };
  }

  connect() {
    this.buildSkeleton();
    this.socket = new GameSocket(this.code, this.helloMessage());
    this.socket.addEventListener("status", (e) => this.onStatus(e.detail));
    this.socket.addEventListener("welcome", (e) => this.onWelcome(e.detail));
    this.socket.addEventListener("state", (e) => this.onState(e.detail));
    this.socket.addEventListener("error", (e) => this.onError(e.detail));
    this.socket.addEventListener("hint", (e) => this.onHint(e.detail));
    this.socket.connect();
    window.addEventListener("resize", () => this.tableEl && fitCards(this.tableEl));
  }

  // ------------------------------------------------------------------------------ joining

  // ------------------------------------------------------------------------------ the page

  /** Draw everything again (after a change of language or of a display setting). */
  rerender() {
    if (!this.root) {
      const params = hashParams();
      if (params.get("join")) this.renderJoin(Number(params.get("join")));
      return;
    }
    const endOpen = this.endEl.open;
    this.buildSkeleton();
    if (this.state) this.render(null);
    if (endOpen) this.showEnd();
  }

  /** The seat this page plays, or the first of them on one device; null for a spectator. */
  get mine() {
    return this.welcome && this.welcome.role === "seat" ? this.welcome.seat : null;
  }

  /** Every seat this page plays: one, several on one device, none for a spectator. */
  get mineSeats() {
    if (!this.welcome || this.welcome.role !== "seat") return [];
    return this.welcome.seats && this.welcome.seats.length ? this.welcome.seats : [this.welcome.seat];
  }

  /** Whether several people play on this one device. */
  get device() {
    return this.mineSeats.length > 1;
  }

  renderTitle() {
    const title = this.welcome && this.welcome.title;
    this.titleEl.textContent = title
      ? `${title} · ${this.code}`
      : t("game.title", { code: this.code });
  }

  onStatus(status) {
    if (!this.root) return;
    this.root.dataset.ws = status;
    replace(
      this.connEl,
      h("span", { class: "conn-dot", "aria-hidden": "true" }),
      h("span", { class: "conn-text" }, t(`conn.${status}`)),
    );
    this.connEl.className = `conn conn-${status}`;
    if (status === "failed" && !this.state) {
      this.showNotice(t("game.unknown", { code: this.code }), true);
    }
  }

  showNotice(text, withHome = false) {
    this.notice = text;
    replace(
      this.noticeEl,
      h("p", {}, text),
      withHome ? h("a", { href: "/", class: "button" }, t("nav.lobby")) : null,
    );
    this.noticeEl.hidden = !text;
  }

  onWelcome(message) {
    this.welcome = message;
    // A rematch moves every holder one seat round: the token kept here now holds this seat.
    const held = seatFor(this.code);
    if (held && message.role === "seat" && held.seat !== message.seat)
      rememberSeat(this.code, { ...held, seat: message.seat });
    this.renderTitle();
    this.copyEl.hidden = this.device;
    if (message.role === "spectator") this.showNotice(this.notice || t("game.watching"));
    else if (this.notice === t("game.watching")) this.showNotice("");
  }

  onError(message) {
    const code = message.code;
    if (code === "bad_token") {
      rememberSeat(this.code, null);
      this.showNotice(t("game.badToken"));
      this.socket.restart({ role: "spectator" });
      return;
    }
    if (code === "unknown_game") {
      this.showNotice(t("game.unknown", { code: this.code }), true);
      return;
    }
    this.clearPending();
    if (["stale_version", "not_your_turn", "wrong_phase", "conflict"].includes(code)) {
      this.toast(t("error.stale_version"));
      return; // the fresh state follows
    }
    this.toast(errorText(message));
    this.socket.send({ type: "sync" });
  }

  onState(message) {
    if (this.state && message.version < this.state.version) return;
    const before = this.state;
    if (!("log" in message)) message.log = followLog(before, message);
    const event = message.last_event;
    const fresh = isFresh(before, message);
    // Where things are before the page is drawn again: the card in the hand slides from there,
    // and a claimed snake's cards fly from there.
    const from = fresh && event.kind === "play" ? placeOf(this.handEl.querySelector(".drawn-card")) : null;
    const lifted =
      fresh && event.kind === "play" && event.hisss
        ? liftSnakes(this.tableEl, parseAction(event.action).touches.map((x) => x.snake))
        : [];
    this.state = message;
    this.receivedAt = performance.now();
    if (this.pending !== null && message.version > this.pending) this.clearPending();
    if (fresh) this.hinted = null;
    if (!before || before.version !== message.version || !this.myTurn("place")) this.chosen = null;
    if (this.revealed !== null && (message.to_move !== this.revealed || message.phase !== "place"))
      this.revealed = null;
    this.tellNews(before, message);
    this.render(before);
    if (fresh) this.move(event, from, lifted);
    if (message.phase === "over" && !this.endShown) {
      this.endShown = true;
      this.root.dataset.overAt = String(Math.round(performance.now()));
      // The end waits for the last placement: its slide, and its Hisss! with the cards flying.
      const banner = Math.max(0, (this.bannerUntil || 0) - performance.now() + 200);
      const wait = before && fresh ? Math.max(this.settleTime(event), banner) : 0;
      clearTimeout(this.endTimer);
      this.endTimer = setTimeout(() => {
        if (before) sound("end");
        this.showEnd();
      }, wait);
    }
    this.followRematch(before, message);
  }

  /** Milliseconds the motion of a step takes to play out: a placement's slide, or a claim's
   * Hisss! banner and the cards flying to the pit (the banner shows with reduced motion too).
   * The end also waits for a banner still showing from the step before. */
  settleTime(event) {
    if (event.kind !== "play") return 0;
    if (event.hisss) return HISSS_MS + 300;
    return 700;
  }

  /** Who reads the page, for the words of a result: its seats, and whether they share it. */
  whoReads() {
    return { mine: this.mineSeats, device: this.device, seats: this.state ? this.state.seats : [] };
  }

  /** When the rematch is made, the players on the page go to it with their seats (a page opened
   * later, on a game whose rematch was made long ago, offers a link instead). */
  followRematch(before, st) {
    const code = st.rematch && st.rematch.code;
    const held = seatFor(this.code);
    const news = before && before.rematch && !before.rematch.code;
    if (!code || !news || !held || this.leaving || !this.mineSeats.length) return;
    this.leaving = true;
    rememberSeat(code, held);
    location.href = `/g/${code}`;
  }

  onHint(message) {
    const st = this.state;
    // A quick hint: careful's placement, while the expert's compiled code gets ready.
    const says = (what) => (message.quick ? t("hint.saysQuick", { what }) : t("hint.says", { what }));
    if (hasHands(st)) {
      const { card, where } = splitPlay(message.action);
      this.chosen = card;
      this.hinted = where;
      this.renderHand();
      this.renderTable(null);
      const ghost = this.tableEl.querySelector(`.ghost[data-action="${where}"]`);
      if (ghost) ghost.focus({ preventScroll: false });
      this.announce(says(actionText(where, card)));
      return;
    }
    this.hinted = message.action;
    this.renderTable(null);
    const button = this.tableEl.querySelector(`.ghost[data-action="${message.action}"]`);
    if (button) button.focus({ preventScroll: false });
    if (st && st.drawn) this.announce(says(actionText(message.action, st.drawn)));
  }

  // ------------------------------------------------------------------------------ acting

  act(message) {
    if (this.pending !== null || !this.state) return;
    if (!this.socket.send({ ...message, version: this.state.version })) {
      this.toast(t("conn.closed"));
      return;
    }
    this.pending = this.state.version;
    this.root.classList.add("pending");
    clearTimeout(this.pendingTimer);
    this.pendingTimer = setTimeout(() => {
      // No answer in time: ask for the state rather than wait on a stuck page.
      this.clearPending();
      this.socket.send({ type: "sync" });
    }, PENDING_MS);
  }

  clearPending() {
    this.pending = null;
    clearTimeout(this.pendingTimer);
    if (this.root) this.root.classList.remove("pending");
  }

  myTurn(phase) {
    const st = this.state;
    return Boolean(
      st &&
        st.phase === phase &&
        // In the hand variant the server deals and fills the hands: nobody draws.
        !(phase === "draw" && hasHands(st)) &&
        this.mineSeats.includes(st.to_move) &&
        st.seats[st.to_move - 1].kind === "person",
    );
  }

  draw() {
    if (this.myTurn("draw")) this.act({ type: "draw", seat: this.state.to_move });
  }

  play(action) {
    if (this.myTurn("place") && this.state.legal.includes(action))
      this.act({ type: "play", action, seat: this.state.to_move });
  }

  askHint() {
    if (this.myTurn("place")) this.socket.send({ type: "hint", seat: this.state.to_move });
  }

  askRematch() {
    if (this.socket.send({ type: "rematch" })) this.toast(t("rematch.sent"));
  }

  // ------------------------------------------------------------------------------ news

  // ------------------------------------------------------------------------------ drawing

  // ------------------------------------------------------------------------------ the end

}

// The page's other jobs, each in a module of its own (see each module's first lines).
Object.assign(GamePage.prototype, frameMethods, viewMethods, dockMethods, newsMethods, focusMethods);

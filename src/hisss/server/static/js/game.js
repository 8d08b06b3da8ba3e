// The game page (/g/CODE): the seats, the table in the middle, the deck and the drawn card, the
// placements, the log of moves, the rules, the beginners' help, the text view, the end screen
// and the rematch, with motion and sound, and the websocket that keeps it all in step with the
// server. On one device (pass-and-play) the page plays every person seat in turn.

import { api } from "./api.js";
import { actionText, cardName, parseAction, pitSnakeText } from "./cards.js";
import { copyText, h, replace, touchScreen } from "./dom.js";
import { hasHands, renderHandCards, renderHiddenHand, splitPlay } from "./hand.js";
import { currentLanguage, errorText, t, tn } from "./i18n.js";
import { setBarPart, setMenuOpen, setMenuPart } from "./menu.js";
import { flyTo, liftSnakes, placeOf, slideFrom, turnOver } from "./motion.js";
import { describeResult, displayName, renderSeats } from "./people.js";
import { prefs, rememberSeat, seatFor } from "./prefs.js";
import { play as sound } from "./sound.js";
import { renderEnd, renderLog, renderRematch, renderRules } from "./story.js";
import {
  fitCards,
  placedSpot,
  renderDeck,
  renderDrawn,
  renderSnakes,
  renderTablePanel,
} from "./table.js";
import { renderTextView } from "./textview.js";
import { GameSocket } from "./ws.js";

const PENDING_MS = 5000;
const HISSS_MS = 1800;

function hashParams() {
  return new URLSearchParams(location.hash.slice(1));
}

/**
 * The log of a state sent without one: it follows the state before (the same version again, or
 * the next one), so the log is the one before with the new step added (draws are not in it).
 */
function followLog(before, message) {
  const log = before ? before.log : [];
  const event = message.last_event;
  const next = before && message.version === before.version + 1;
  return next && event && event.kind !== "draw" ? [...log, event] : log;
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

  renderJoin(seat) {
    const name = h("input", {
      id: "join-name",
      name: "name",
      maxlength: 40,
      autocomplete: "nickname",
      value: prefs.playerName,
    });
    const message = h("p", { class: "form-error", role: "alert" });
    const form = h(
      "form",
      {
        class: "panel join-form",
        onsubmit: async (event) => {
          event.preventDefault();
          prefs.playerName = name.value.trim();
          try {
            const joined = await api.join(this.code, name.value.trim() || null, seat);
            rememberSeat(this.code, { seat: joined.seat, token: joined.token });
            history.replaceState(null, "", `/g/${this.code}`);
            this.connect();
          } catch (error) {
            message.textContent = errorText(error);
          }
        },
      },
      h("h1", {}, t("join.title", { code: this.code, n: seat })),
      h("label", { for: "join-name" }, t("join.name")),
      name,
      h(
        "div",
        { class: "buttons" },
        h("button", { type: "submit", class: "primary" }, t("join.button")),
        h(
          "button",
          {
            type: "button",
            onclick: () => {
              history.replaceState(null, "", `/g/${this.code}`);
              this.connect();
            },
          },
          t("join.watch"),
        ),
      ),
      message,
    );
    replace(this.main, form);
    name.focus();
  }

  // ------------------------------------------------------------------------------ the page

  buildSkeleton() {
    this.root = h("section", { class: "game", dataset: { ws: "connecting", code: this.code } });
    this.titleEl = h("h1", { class: "game-title" });
    this.statusEl = h("p", { class: "turn-status", id: "turn-status" });
    this.connEl = h("span", { class: "conn", role: "status" });
    this.noticeEl = h("div", { class: "notice", hidden: true });
    this.seatsEl = h("aside", { class: "seats", "aria-labelledby": "seats-title" });
    this.tableEl = h("section", { class: "table-area", "aria-labelledby": "table-title" });
    this.handEl = h("section", { class: "hand", "aria-labelledby": "hand-title" });
    this.logEl = h("div", { class: "log-body" });
    this.textEl = h("section", { class: "text-view", "aria-labelledby": "text-title" });
    this.bannerEl = h("div", { class: "hisss-banner", "aria-hidden": "true" });
    this.endEl = h("dialog", { class: "end-screen", "aria-labelledby": "end-title" });
    this.rulesEl = h("dialog", { class: "rules-dialog", "aria-labelledby": "rules-title" });
    const watchLink = () => `${location.origin}/g/${this.code}`;
    this.marksEl = h(
      "button",
      {
        type: "button",
        class: "small toggle marks-toggle",
        "aria-pressed": String(prefs.marks),
        onclick: () => {
          prefs.marks = !prefs.marks;
          this.marksEl.setAttribute("aria-pressed", String(prefs.marks));
          if (this.state) this.renderTable(null);
        },
      },
      t("marks.toggle"),
    );
    this.copyEl = h(
      "button",
      {
        type: "button",
        class: "small copy-watch",
        onclick: async () => {
          if (await copyText(watchLink())) this.toast(t("copy.done"));
        },
      },
      t("game.copyWatch"),
    );
    const rulesButton = h(
      "button",
      {
        type: "button",
        class: "small rules-button",
        onclick: () => {
          setMenuOpen(false);
          renderRules(this.rulesEl, (this.state && this.state.hand_size) || 0);
          this.rulesEl.showModal();
        },
      },
      t("rules.button"),
    );
    setBarPart(h("div", { class: "game-bar" }, this.titleEl, this.connEl));
    setMenuPart(
      h("p", { class: "menu-code" }, t("game.title", { code: this.code })),
      rulesButton,
      this.marksEl,
      this.copyEl,
    );
    this.root.append(
      this.statusEl,
      this.noticeEl,
      h(
        "div",
        { class: "game-grid" },
        this.seatsEl,
        this.tableEl,
        h(
          "details",
          { class: "move-log", open: window.innerWidth >= 900 && window.innerHeight >= 600 },
          h("summary", {}, t("log.title")),
          this.logEl,
        ),
        this.handEl,
      ),
      this.textEl,
      this.bannerEl,
      this.endEl,
      this.rulesEl,
    );
    // Closed (its button, or Escape), the end screen leaves the focus on the button that opens
    // it again, beside the final table.
    this.endEl.addEventListener("close", () => {
      const again = this.handEl.querySelector(".end-show");
      if (again) again.focus({ preventScroll: true });
    });
    replace(this.main, this.root);
    this.renderTitle();
    this.onStatus(this.socket ? this.socket.status : "connecting");
  }

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
    const fresh = event && before && (!before.last_event || event.seq > before.last_event.seq);
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
      const wait = before && fresh ? this.settleTime(event) : 0;
      clearTimeout(this.endTimer);
      this.endTimer = setTimeout(() => {
        if (before) sound("end");
        this.showEnd();
      }, wait);
    }
    this.followRematch(before, message);
  }

  /** Milliseconds the motion of a step takes to play out: a placement's slide, or a claim's
   * Hisss! banner and the cards flying to the pit (the banner shows with reduced motion too). */
  settleTime(event) {
    if (event.kind !== "play") return 0;
    if (event.hisss) return HISSS_MS + 300;
    return 700;
  }

  /** Who reads the page, for the words of a result: its seats, and whether they share it. */
  whoReads() {
    return { mine: this.mineSeats, device: this.device, seats: this.state ? this.state.seats : [] };
  }

  /** Motion and sound for a new step. */
  move(event, from, lifted) {
    if (event.kind === "draw") {
      turnOver(this.handEl.querySelector(".drawn-card"));
      sound("draw");
    } else if (event.kind === "play") {
      if (event.hisss) {
        const seat = this.seatsEl.querySelector(`.seat[data-seat="${event.seat}"]`);
        if (from) lifted.push({ node: this.placedClone(event.card), rect: from });
        flyTo(lifted, seat);
        sound("hisss");
      } else {
        slideFrom(this.tableEl.querySelector(".card.placed"), from);
        sound("place");
      }
    }
  }

  placedClone(card) {
    const figure = renderDrawn(card);
    return figure.querySelector(".card");
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
    if (hasHands(st)) {
      const { card, where } = splitPlay(message.action);
      this.chosen = card;
      this.hinted = where;
      this.renderHand();
      this.renderTable(null);
      const ghost = this.tableEl.querySelector(`.ghost[data-action="${where}"]`);
      if (ghost) ghost.focus({ preventScroll: false });
      this.announce(t("hint.says", { what: actionText(where, card) }));
      return;
    }
    this.hinted = message.action;
    this.renderTable(null);
    const button = this.tableEl.querySelector(`.ghost[data-action="${message.action}"]`);
    if (button) button.focus({ preventScroll: false });
    if (st && st.drawn) this.announce(t("hint.says", { what: actionText(message.action, st.drawn) }));
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

  nameOf(seat) {
    return displayName(this.state.seats[seat - 1]);
  }

  tellNews(before, now) {
    const event = now.last_event;
    const fresh = event && before && (!before.last_event || event.seq > before.last_event.seq);
    if (!before) {
      this.announce(this.statusText(now));
      return;
    }
    if (fresh) {
      const who = event.seat ? this.nameOf(event.seat) : "";
      if (event.kind === "starter")
        this.announce(t("news.starter", { card: cardName(event.card) }));
      else if (event.kind === "draw" && hasHands(now)) {
        if (now.phase !== "deal") this.announce(t("news.handDraw", { name: who }));
      } else if (event.kind === "draw") {
        this.announce(
          event.seat === this.mine
            ? t("news.youDraw", { card: cardName(event.card) })
            : t("news.draw", { name: who, card: cardName(event.card) }),
        );
      } else if (event.kind === "play") {
        this.announce(t("news.play", { name: who, what: actionText(event.action, event.card) }));
        if (event.hisss) {
          this.announce(t("news.hisss", { name: who, snake: pitSnakeText(event.claimed) }));
          this.hisss(who);
        }
      } else if (event.kind === "bot") {
        this.announce(t("news.bot", { name: who, level: t(`level.${event.level || "medium"}`) }));
      } else if (event.kind === "person") {
        this.announce(t("news.person", { name: who }));
      }
    }
    if (now.phase === "over" && before.phase !== "over" && now.result) {
      const result = describeResult(now.result, now.seats.map(displayName), this.whoReads());
      this.announce(`${result.headline} ${result.how}`);
    } else if (fresh && hasHands(now) && this.myTurn("place") && before.to_move !== now.to_move) {
      this.announce(this.statusText(now));
      if (document.hidden) sound("turn");
    } else if (fresh && this.myTurn("draw")) {
      this.announce(this.device ? this.statusText(now) : t("news.yourTurn"));
      // A player in another tab (or away from the screen) hears that it is their turn.
      if (document.hidden) sound("turn");
    }
  }

  hisss(name) {
    replace(
      this.bannerEl,
      h("span", { class: "hisss-word" }, t("hisss.word")),
      h("span", { class: "hisss-name" }, name),
    );
    this.bannerEl.classList.remove("show");
    void this.bannerEl.offsetWidth; // restart the animation
    this.bannerEl.classList.add("show");
    clearTimeout(this.bannerTimer);
    this.bannerTimer = setTimeout(() => this.bannerEl.classList.remove("show"), HISSS_MS);
  }

  statusText(st) {
    const who = st.to_move ? this.nameOf(st.to_move) : "";
    const mine = st.to_move !== null && this.mineSeats.includes(st.to_move);
    const me = mine && !this.device;
    const here = mine && this.device;
    const touch = touchScreen();
    if (hasHands(st) && st.phase === "deal") return t("status.dealing");
    if (hasHands(st) && st.phase === "draw") return t("status.fillHand", { name: who });
    if (hasHands(st) && st.phase === "place") {
      if (here) return t("status.seatPlayHand", { name: who });
      return me ? t("status.youPlayHand") : t("status.playHand", { name: who });
    }
    switch (st.phase) {
      case "waiting":
        return tn("status.waiting", st.seats.filter((x) => x.open).length);
      case "starting":
        return t("status.starting");
      case "draw":
        if (here) return t(touch ? "status.seatDraw.touch" : "status.seatDraw", { name: who });
        return me ? t(touch ? "status.youDraw.touch" : "status.youDraw") : t("status.draw", { name: who });
      case "place":
        if (here) return t("status.seatPlace", { name: who, card: cardName(st.drawn) });
        return me
          ? t("status.youPlace", { card: cardName(st.drawn) })
          : t("status.place", { name: who, card: cardName(st.drawn) });
      default:
        return t("status.over");
    }
  }

  // ------------------------------------------------------------------------------ drawing

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
            h("span", { class: "status-who" }, who),
            h("span", { class: "status-rest" }, text.slice(at + who.length)),
          ];
    replace(this.statusEl, ...parts);
    this.statusEl.title = text;
  }

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
  }

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
  }

  renderTable(before) {
    const st = this.state;
    const fresh =
      before && st.last_event && (!before.last_event || st.last_event.seq > before.last_event.seq);
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
  }

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
  }

  /** The seat whose hand the hand panel shows: this page's seat, or on one device the seat of
   * the person to play; null when none. */
  handSeat() {
    const st = this.state;
    if (!hasHands(st) || !this.mineSeats.length) return null;
    if (!this.device) return this.mine;
    const mover = st.to_move;
    return mover !== null && this.mineSeats.includes(mover) && st.phase === "place" ? mover : null;
  }

  /** Whether the hand panel's hand may be face up (on one device, once its player says they
   * hold the device, unless hands are seen by all). */
  handVisible() {
    const st = this.state;
    return !this.device || st.hands_seen_by_all || this.revealed === this.handSeat();
  }

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
  }

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
  }

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
    renderTextView(this.textEl, { ...st, status }, controls);
  }

  /** Something that names the focused control, to find it again after drawing. */
  focusKey() {
    const active = document.activeElement;
    if (!active || active === document.body) return { lost: true };
    if (!this.root.contains(active)) return null;
    if (active.classList.contains("deck")) return { selector: ".deck-active" };
    if (active.dataset.action)
      return { selector: `.${active.classList[0]}[data-action="${active.dataset.action}"]` };
    if (active.dataset.card) return { selector: `.hand-choice[data-card="${active.dataset.card}"]` };
    return { lost: true };
  }

  restoreFocus(key) {
    if (!key) return;
    const active = document.activeElement;
    if (active && active !== document.body && this.root.contains(active)) return;
    let target = key.selector ? this.root.querySelector(key.selector) : null;
    if (!target && this.myTurn("draw")) target = this.handEl.querySelector(".deck-active");
    if (!target && this.myTurn("place")) target = this.tableEl.querySelector(".ghost");
    if (!target && this.myTurn("place")) target = this.handEl.querySelector(".hand-choice.playable");
    if (target && !this.endEl.open) target.focus({ preventScroll: false });
  }

  // ------------------------------------------------------------------------------ the end

  showEnd() {
    const st = this.state;
    if (!st || !st.result) return;
    // Rebuild only when what the dialog shows has changed: a presence update arriving while a
    // player clicks a link must not swap the link under the pointer.
    const key = JSON.stringify([
      currentLanguage(),
      st.seats.map(displayName),
      st.result,
      st.rematch ?? null,
      this.mineSeats,
    ]);
    if (this.endEl.open && key === this.endKey) return;
    this.endKey = key;
    renderEnd(this.endEl, {
      st,
      code: this.code,
      mine: this.mineSeats,
      device: this.device,
      onRematch: () => this.askRematch(),
      onClose: () => this.endEl.close(),
    });
    if (!this.endEl.open) {
      this.endEl.showModal();
      this.root.dataset.endAt = String(Math.round(performance.now()));
    }
  }
}

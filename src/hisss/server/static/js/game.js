// The game page (/g/CODE): the table, the fan, the placements, the seats, the text view, the
// end screen, and the websocket that keeps it all in step with the server.

import { api } from "./api.js";
import { actionText, cardName, pitSnakeText } from "./cards.js";
import { copyText, h, replace } from "./dom.js";
import { errorText, t, tn } from "./i18n.js";
import { describeResult, displayName, renderSeats } from "./people.js";
import { prefs, rememberSeat, seatFor } from "./prefs.js";
import { placedSpot, renderDrawn, renderFan, renderSnakes, renderTablePanel } from "./table.js";
import { renderTextView } from "./textview.js";
import { GameSocket } from "./ws.js";

const PENDING_MS = 5000;
const HISSS_MS = 1800;

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
    this.socket.connect();
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
    this.textEl = h("section", { class: "text-view", "aria-labelledby": "text-title" });
    this.bannerEl = h("div", { class: "hisss-banner", "aria-hidden": "true" });
    this.endEl = h("dialog", { class: "end-screen", "aria-labelledby": "end-title" });
    const watchLink = () => `${location.origin}/g/${this.code}`;
    this.root.append(
      h(
        "div",
        { class: "game-bar" },
        this.titleEl,
        this.statusEl,
        h(
          "div",
          { class: "bar-tools" },
          this.connEl,
          h(
            "button",
            {
              type: "button",
              class: "small",
              onclick: async () => {
                if (await copyText(watchLink())) this.toast(t("copy.done"));
              },
            },
            t("game.copyWatch"),
          ),
        ),
      ),
      this.noticeEl,
      h("div", { class: "game-grid" }, this.seatsEl, this.tableEl, this.handEl),
      this.textEl,
      this.bannerEl,
      this.endEl,
    );
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

  get mine() {
    return this.welcome && this.welcome.role === "seat" ? this.welcome.seat : null;
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
    this.connEl.textContent = t(`conn.${status}`);
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
    this.renderTitle();
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
    this.state = message;
    this.receivedAt = performance.now();
    if (this.pending !== null && message.version > this.pending) this.clearPending();
    this.tellNews(before, message);
    this.render(before);
    if (message.phase === "over" && !this.endShown) {
      this.endShown = true;
      this.showEnd();
    }
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
    return (
      st &&
      this.mine !== null &&
      st.phase === phase &&
      st.to_move === this.mine &&
      st.seats[this.mine - 1].kind === "person"
    );
  }

  draw(pick) {
    if (this.myTurn("draw")) this.act({ type: "draw", pick });
  }

  play(action) {
    if (this.myTurn("place") && this.state.legal.includes(action))
      this.act({ type: "play", action });
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
      else if (event.kind === "draw") {
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
      const result = describeResult(now.result, now.seats.map(displayName));
      this.announce(`${result.headline} ${result.how}`);
    } else if (fresh && this.myTurn("draw")) {
      this.announce(t("news.yourTurn"));
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
    const me = st.to_move !== null && st.to_move === this.mine;
    switch (st.phase) {
      case "waiting":
        return tn("status.waiting", st.seats.filter((x) => x.open).length);
      case "starting":
        return t("status.starting");
      case "draw":
        return me ? t("status.youDraw") : t("status.draw", { name: who });
      case "place":
        return me
          ? t("status.youPlace", { card: cardName(st.drawn) })
          : t("status.place", { name: who, card: cardName(st.drawn) });
      default:
        return t("status.over");
    }
  }

  // ------------------------------------------------------------------------------ drawing

  render(before) {
    const st = this.state;
    const focus = this.focusKey();
    this.root.dataset.version = st.version;
    this.root.dataset.phase = st.phase;
    this.statusEl.textContent = this.statusText(st);
    const mine = this.myTurn("draw") || this.myTurn("place");
    this.root.classList.toggle("my-turn", mine);
    const title = `${t("game.title", { code: this.code })} · ${t("app.name")}`;
    document.title = mine ? `${t("title.yourTurn")} · ${title}` : title;
    this.renderSeatsPanel();
    this.renderTable(before);
    this.renderHand();
    this.renderText();
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
        mine: this.mine,
        winners: st.result ? st.result.winners : [],
        handOver,
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
    const snakes = renderSnakes({
      table: st.table,
      drawn: mineToPlace ? st.drawn : null,
      legal: mineToPlace ? st.legal : [],
      onPlay: mineToPlace ? (action) => this.play(action) : null,
      spot,
    });
    replace(this.tableEl, ...renderTablePanel(st.cards_left, snakes));
  }

  renderHand() {
    const st = this.state;
    const parts = [];
    const mine = this.mine;
    let heading = this.statusText(st);
    if (mine !== null && st.seats[mine - 1].kind === "bot" && st.status !== "finished") {
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
        const result = describeResult(st.result, st.seats.map(displayName));
        parts.push(h("p", { class: "result-line" }, result.headline));
      }
      parts.push(
        h(
          "div",
          { class: "buttons" },
          h(
            "button",
            { type: "button", class: "primary", onclick: () => this.showEnd() },
            t("end.show"),
          ),
          h("a", { class: "button", href: `/g/${this.code}?view=replay` }, t("end.replay")),
        ),
      );
    } else {
      if (st.drawn) parts.push(renderDrawn(st.drawn));
      if (this.myTurn("place")) {
        parts.push(h("p", { class: "hint" }, tn("hand.choices", st.legal.length)));
      }
      const active = this.myTurn("draw");
      if (active) parts.push(h("p", { class: "hint" }, t("hand.pick")));
      parts.push(renderFan(st.cards_left, { active, onPick: (i) => this.draw(i) }));
    }
    replace(this.handEl, h("h2", { id: "hand-title", class: "panel-title" }, heading), ...parts);
  }

  renderText() {
    const st = this.state;
    let controls = null;
    if (this.myTurn("draw")) controls = { onDraw: () => this.draw(0) };
    if (this.myTurn("place")) {
      controls = { legal: st.legal, drawn: st.drawn, onPlay: (action) => this.play(action) };
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
    if (active.classList.contains("fan-card")) return { selector: ".fan-card[tabindex='0']" };
    if (active.dataset.action)
      return { selector: `.${active.classList[0]}[data-action="${active.dataset.action}"]` };
    return { lost: true };
  }

  restoreFocus(key) {
    if (!key) return;
    const active = document.activeElement;
    if (active && active !== document.body && this.root.contains(active)) return;
    let target = key.selector ? this.root.querySelector(key.selector) : null;
    if (!target && this.myTurn("draw"))
      target = this.handEl.querySelector(".fan-card[tabindex='0']");
    if (!target && this.myTurn("place")) target = this.tableEl.querySelector(".ghost");
    if (target && !this.endEl.open) target.focus({ preventScroll: false });
  }

  // ------------------------------------------------------------------------------ the end

  showEnd() {
    const st = this.state;
    if (!st || !st.result) return;
    const names = st.seats.map(displayName);
    const result = describeResult(st.result, names);
    const rows = st.seats.map((seat, i) =>
      h(
        "tr",
        { class: st.result.winners.includes(i + 1) ? "winner" : "" },
        h("th", { scope: "row" }, names[i]),
        h("td", {}, st.result.cards[i]),
        h("td", {}, st.result.snakes[i]),
        h("td", {}, st.result.longest[i]),
      ),
    );
    replace(
      this.endEl,
      h("div", { class: "end-confetti", "aria-hidden": "true" }),
      h("h2", { id: "end-title" }, result.headline),
      h(
        "p",
        { class: "end-how", dataset: { tieBreak: result.tieBreak ? "yes" : "no" } },
        result.how,
      ),
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
      h(
        "div",
        { class: "buttons" },
        h("a", { class: "button primary", href: `/g/${this.code}?view=replay` }, t("end.replay")),
        h(
          "a",
          {
            class: "button",
            href: api.gameRecordUrl(this.code),
            download: `hisss-${this.code}.json`,
          },
          t("end.download"),
        ),
        h("a", { class: "button", href: "/" }, t("end.newGame")),
        h(
          "button",
          { type: "button", class: "end-close", onclick: () => this.endEl.close() },
          t("end.close"),
        ),
      ),
    );
    if (!this.endEl.open) this.endEl.showModal();
  }
}

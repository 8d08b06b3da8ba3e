// What the game page says of each step: the words for screen readers, the turn line's sentence,
// the Hisss! banner, and each step's motion and sound.

import { actionText, cardName, pitSnakeText } from "./cards.js";
import { h, replace, touchScreen } from "./dom.js";
import { isFresh } from "./gamestate.js";
import { hasHands } from "./hand.js";
import { t, tn } from "./i18n.js";
import { flyTo, slideFrom, turnOver } from "./motion.js";
import { describeResult, displayName } from "./people.js";
import { play as sound } from "./sound.js";
import { renderDrawn } from "./table.js";

/** How long the Hisss! banner shows, in milliseconds. */
export const HISSS_MS = 1800;

/** Methods of the game page (mixed into GamePage). */
export const newsMethods = {
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
  },

  placedClone(card) {
    const figure = renderDrawn(card);
    return figure.querySelector(".card");
  },

  nameOf(seat) {
    return displayName(this.state.seats[seat - 1]);
  },

  tellNews(before, now) {
    const event = now.last_event;
    const fresh = isFresh(before, now);
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
            ? t("news.youDraw", { card: cardName(event.card, true) })
            : t("news.draw", { name: who, card: cardName(event.card, true) }),
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
  },

  hisss(name) {
    replace(
      this.bannerEl,
      h("span", { class: "hisss-word" }, t("hisss.word")),
      h("span", { class: "hisss-name" }, name),
    );
    this.bannerEl.classList.remove("show");
    void this.bannerEl.offsetWidth; // restart the animation
    this.bannerEl.classList.add("show");
    this.bannerUntil = performance.now() + HISSS_MS;
    clearTimeout(this.bannerTimer);
    this.bannerTimer = setTimeout(() => this.bannerEl.classList.remove("show"), HISSS_MS);
  },

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
  },
};

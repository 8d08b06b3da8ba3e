// The first screen (/): one click to play against the computer (its choices remembered), a game
// for several people on this device, a game with friends online (its seats' links to share),
// joining by link or code, watching, uploading a record to replay, and the lobby's lists of
// public games.

import { api } from "./api.js";
import { cardSvg, parseCard } from "./cards.js";
import { h, replace } from "./dom.js";
import { errorText, t } from "./i18n.js";
import { createMethods } from "./lobbycreate.js";
import { joinMethods } from "./lobbyjoin.js";
import { listMethods } from "./lobbylists.js";
import { playMethods } from "./lobbyplay.js";
import { prefs, rememberSeat } from "./prefs.js";

const REFRESH_MS = 5000;
/** The snake of cards at the top of the first screen. */
const HERO = ["H:green", "M:green-blue", "M:blue-purple", "M:purple-red", "T:red"];
const PACES = ["fast", "normal", "slow"];

export class LobbyPage {
  constructor(main, { announce, toast }) {
    this.main = main;
    this.announce = announce;
    this.toast = toast;
    this.options = null;
    this.seats = [
      { kind: "person", name: prefs.playerName, level: "medium", open: false },
      { kind: "bot", name: "", level: "medium", open: false },
    ];
    this.created = null;
    this.openWays = new Set();
    this.lists = null;
    this.timer = null;
  }

  async start() {
    try {
      this.options = await api.options();
    } catch (error) {
      this.options = null;
      this.toast(errorText(error));
    }
    this.render();
    this.refresh();
    this.timer = setInterval(() => {
      if (document.visibilityState === "visible") this.refresh();
    }, REFRESH_MS);
  }

  /**
   * One of the other ways to play, closed until chosen: its title (the form's heading) is the
   * summary that opens it in place. Open ways stay open when the screen is drawn again.
   */
  way(name, form, open = false) {
    const heading = form.querySelector("h2");
    const details = h(
      "details",
      {
        class: "way",
        dataset: { way: name },
        open: open || this.openWays.has(name),
        ontoggle: () => {
          if (details.open) this.openWays.add(name);
          else this.openWays.delete(name);
        },
      },
      h("summary", { class: "way-summary" }, heading),
      form,
    );
    return details;
  }

  rerender() {
    this.render();
    if (this.lists) this.renderLists();
  }

  render() {
    this.listsEl = h("section", { class: "panel lists", "aria-labelledby": "lists-title" });
    replace(
      this.main,
      h(
        "div",
        { class: "lobby" },
        h(
          "section",
          { class: "hero" },
          h("div", { class: "hero-art", "aria-hidden": "true" }, HERO.map((card) => cardSvg(parseCard(card)))),
          h("h1", {}, t("app.name")),
          h("p", { class: "tagline" }, t("lobby.tagline")),
          h(
            "details",
            { class: "how-to" },
            h("summary", {}, t("lobby.howTo")),
            h(
              "ol",
              {},
              [
                t("lobby.rule1"),
                t("lobby.rule2"),
                t("lobby.rule3"),
                t("lobby.rule4"),
                t("lobby.rule5"),
              ].map((rule) => h("li", {}, rule)),
            ),
          ),
        ),
        this.renderQuick(),
        h(
          "section",
          { class: "ways", "aria-labelledby": "ways-title" },
          h("h2", { id: "ways-title", class: "ways-title" }, t("lobby.otherWays")),
          this.way("device", this.renderDevice()),
          this.way("create", this.created ? this.renderCreated() : this.renderCreate(), Boolean(this.created)),
          this.way("join", this.renderJoin()),
          this.way("upload", this.renderUpload()),
        ),
        this.listsEl,
      ),
    );
    if (this.lists) this.renderLists();
  }

  // ------------------------------------------------------------------------ playing at once

  levels() {
    const opts = this.options;
    return opts && opts.levels.length
      ? opts.levels.map((l) => l.name)
      : ["easy", "medium", "hard", "expert", "gentle"];
  }

  /** The levels whose bots play the hand variant (a game with hands refuses the others). */
  handLevels() {
    const opts = this.options;
    return opts && opts.levels.length
      ? opts.levels.filter((l) => l.hands).map((l) => l.name)
      : ["easy", "medium", "hard", "expert"];
  }

  /** `level`, or with hands (`withHands`) the first level that plays them if it does not. */
  fitLevel(level, withHands) {
    const allowed = this.handLevels();
    return !withHands || allowed.includes(level) ? level : allowed[0];
  }

  /** Disable a level select's levels that do not play hands while they are chosen, and move
   * its choice to one that does (telling its `change` listeners). */
  fitLevelSelect(select, withHands) {
    const allowed = this.handLevels();
    for (const option of select.options) {
      option.disabled = withHands && !allowed.includes(option.value);
    }
    const fitted = this.fitLevel(select.value, withHands);
    if (fitted !== select.value) {
      select.value = fitted;
      select.dispatchEvent(new Event("change"));
    }
  }

  paceSelect(id, value, onchange) {
    return h(
      "select",
      { id, class: "pace-select", onchange: (e) => onchange(e.target.value) },
      PACES.map((pace) => h("option", { value: pace, selected: pace === value }, t(`pace.${pace}`))),
    );
  }

  /** Create a game and go to it with its seat (all the people's seats on one device). */
  async launch(spec, error) {
    error.textContent = "";
    try {
      const game = await api.create(spec);
      const seat = game.seats.find((x) => x.token);
      rememberSeat(game.code, { seat: seat.seat, token: seat.token });
      location.href = `/g/${game.code}`;
    } catch (failure) {
      error.textContent = errorText(failure);
    }
  }

  // ------------------------------------------------------------------------ creating

  // ------------------------------------------------------------------------ joining

  // ------------------------------------------------------------------------ replays

  // ------------------------------------------------------------------------ lists

}

// The screen's other parts, each in a module of its own.
Object.assign(LobbyPage.prototype, playMethods, createMethods, joinMethods, listMethods);

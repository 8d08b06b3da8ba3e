// The first screen's ways to play at once: against the computer (its choices remembered), and
// several people on this device.

import { h, replace } from "./dom.js";
import { field, nextId, MAX_SEATS } from "./forms.js";
import { handOptions } from "./hand.js";
import { t, tn } from "./i18n.js";
import { prefs } from "./prefs.js";

/** Methods of the first screen (mixed into LobbyPage). */
export const playMethods = {
  renderQuick() {
    const quick = prefs.quick;
    const save = () => (prefs.quick = quick);
    const opponentsId = nextId("opponents");
    const levelId = nextId("quick-level");
    const paceId = nextId("quick-pace");
    const opponents = h(
      "select",
      {
        id: opponentsId,
        class: "quick-opponents",
        onchange: (e) => {
          quick.opponents = Number(e.target.value);
          save();
        },
      },
      [1, 2, 3, 4].map((n) =>
        h("option", { value: n, selected: n === quick.opponents }, tn("quick.opponents", n)),
      ),
    );
    const level = h(
      "select",
      {
        id: levelId,
        class: "quick-level",
        "aria-describedby": `${levelId}-help`,
        onchange: (e) => {
          quick.level = e.target.value;
          save();
          levelHelp.textContent = t(`levelHelp.${quick.level}`);
        },
      },
      this.levels().map((name) =>
        h("option", { value: name, selected: name === quick.level }, t(`level.${name}`)),
      ),
    );
    // The level's words under it, whole (an option's text is cut on a phone).
    const levelHelp = h(
      "p",
      { class: "help level-help", id: `${levelId}-help` },
      t(`levelHelp.${this.levels().includes(quick.level) ? quick.level : "medium"}`),
    );
    const pace = this.paceSelect(paceId, quick.pace, (value) => {
      quick.pace = value;
      save();
    });
    const error = h("p", { class: "form-error", role: "alert" });
    const hands = handOptions(nextId, (on) => this.fitLevelSelect(level, on));
    return h(
      "form",
      {
        class: "panel quick",
        "aria-labelledby": "quick-title",
        onsubmit: (event) => {
          event.preventDefault();
          const bots = Array.from({ length: quick.opponents }, () => ({
            kind: "bot",
            level: quick.level,
          }));
          this.launch(
            {
              pace: quick.pace,
              set: hands.rules(),
              seats: [{ kind: "person", name: prefs.playerName || null }, ...bots],
            },
            error,
          );
        },
      },
      h("h2", { id: "quick-title" }, t("quick.title")),
      h(
        "div",
        { class: "field-row" },
        field(t("quick.against"), opponents),
        h(
          "div",
          { class: "field" },
          h("label", { for: levelId }, t("quick.level")),
          level,
          levelHelp,
        ),
        field(t("pace.label"), pace),
      ),
      hands.node,
      h("button", { type: "submit", class: "primary big play-button" }, t("quick.play")),
      error,
    );
  },

  renderDevice() {
    const names = prefs.deviceNames;
    const people = Array.from({ length: Math.max(2, names.length) }, (_, i) => names[i] || "");
    let bots = 0;
    let pace = prefs.quick.pace;
    const list = h("ol", { class: "device-names" });
    const error = h("p", { class: "form-error", role: "alert" });
    const botsId = nextId("device-bots");
    const botsSelect = h("select", { id: botsId, class: "device-bots" });
    const drawBots = () => {
      const most = MAX_SEATS - people.length;
      bots = Math.min(bots, most);
      replace(
        botsSelect,
        Array.from({ length: most + 1 }, (_, n) =>
          h("option", { value: n, selected: n === bots }, tn("device.bots", n)),
        ),
      );
    };
    botsSelect.addEventListener("change", () => (bots = Number(botsSelect.value)));
    const draw = () => {
      replace(
        list,
        people.map((name, i) => {
          const id = nextId("device-name");
          return h(
            "li",
            { class: "device-row" },
            h("label", { for: id }, t("device.name", { n: i + 1 })),
            h("input", {
              id,
              class: "device-name",
              maxlength: 40,
              autocomplete: "off",
              value: name,
              placeholder: t("seat.player_numbered", { number: i + 1 }),
              oninput: (e) => (people[i] = e.target.value),
            }),
          );
        }),
      );
      add.disabled = people.length >= MAX_SEATS;
      remove.disabled = people.length <= 2;
      drawBots();
    };
    const add = h(
      "button",
      {
        type: "button",
        class: "small device-add",
        onclick: () => {
          if (people.length < MAX_SEATS) people.push("");
          draw();
        },
      },
      t("device.add"),
    );
    const remove = h(
      "button",
      {
        type: "button",
        class: "small device-remove",
        onclick: () => {
          if (people.length > 2) people.pop();
          draw();
        },
      },
      t("device.remove"),
    );
    draw();
    const paceId = nextId("device-pace");
    const hands = handOptions(nextId);
    return h(
      "form",
      {
        class: "panel device-form",
        "aria-labelledby": "device-title",
        onsubmit: (event) => {
          event.preventDefault();
          const clean = people.map((x) => x.trim());
          prefs.deviceNames = clean;
          this.launch(
            {
              device: true,
              pace,
              set: hands.rules(),
              seats: [
                ...clean.map((name) => ({ kind: "person", name: name || null })),
                ...Array.from({ length: bots }, () => ({
                  kind: "bot",
                  level: this.fitLevel(prefs.quick.level, Boolean(hands.rules().hand_size)),
                })),
              ],
            },
            error,
          );
        },
      },
      h("h2", { id: "device-title" }, t("device.title")),
      h("p", { class: "help" }, t("device.help")),
      list,
      h("div", { class: "buttons" }, add, remove),
      h(
        "div",
        { class: "field-row" },
        field(t("device.botsLabel"), botsSelect),
        field(t("pace.label"), this.paceSelect(paceId, pace, (value) => (pace = value))),
      ),
      hands.node,
      h("button", { type: "submit", class: "primary device-play" }, t("device.play")),
      error,
    );
  },
};

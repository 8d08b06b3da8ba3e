// A game for friends online: its options and seats, then its links to share once it is made.

import { api } from "./api.js";
import { copyText, h, replace } from "./dom.js";
import { field, nextId, MAX_SEATS } from "./forms.js";
import { handOptions } from "./hand.js";
import { errorText, has, t, tn } from "./i18n.js";
import { displayName } from "./people.js";
import { prefs, rememberSeat } from "./prefs.js";

/** Methods of the first screen (mixed into LobbyPage). */
export const createMethods = {
  renderCreate() {
    const opts = this.options || {
      presets: { classic: {}, pl: {} },
      decks: { rainbow: { size: 50 } },
      levels: [],
    };
    const levels = this.levels();
    const title = h("input", {
      id: nextId("title"),
      name: "title",
      maxlength: 80,
      autocomplete: "off",
    });
    const preset = h(
      "select",
      { id: nextId("preset"), name: "rules" },
      Object.keys(opts.presets).map((name) =>
        h("option", { value: name }, has(`preset.${name}`) ? t(`preset.${name}`) : name),
      ),
    );
    const deck = h(
      "select",
      { id: nextId("deck"), name: "deck" },
      Object.entries(opts.decks).map(([name, info]) =>
        h(
          "option",
          { value: name },
          `${has(`deck.${name}`) ? t(`deck.${name}`) : name} (${tn("deck.cards", info.size)})`,
        ),
      ),
    );
    const forcedId = nextId("forced");
    const forced = h("input", { type: "checkbox", id: forcedId, name: "forced", checked: true });
    const publicId = nextId("public");
    const listed = h("input", { type: "checkbox", id: publicId, name: "public", class: "public" });
    let pace = "normal";
    const paceField = field(
      t("pace.label"),
      this.paceSelect(nextId("pace"), pace, (value) => (pace = value)),
    );
    let withHands = false;
    const hands = handOptions(nextId, (on) => {
      withHands = on;
      drawSeats();
    });
    const seatList = h("ol", { class: "seat-setup" });
    const drawSeats = () => {
      const handLevels = this.handLevels();
      replace(
        seatList,
        this.seats.map((seat, i) => {
          const kindId = nextId("kind");
          const kind = h(
            "select",
            {
              id: kindId,
              class: "seat-kind",
              onchange: () => {
                seat.kind = kind.value;
                drawSeats();
              },
            },
            h("option", { value: "person", selected: seat.kind === "person" }, t("lobby.person")),
            h("option", { value: "bot", selected: seat.kind === "bot" }, t("lobby.bot")),
          );
          let detail;
          if (seat.kind === "person") {
            const nameId = nextId("name");
            const openId = nextId("open");
            detail = [
              h(
                "label",
                { for: nameId, class: "visually-hidden" },
                t("lobby.seatName", { n: i + 1 }),
              ),
              h("input", {
                id: nameId,
                class: "seat-name-input",
                maxlength: 40,
                placeholder: t("seat.player_numbered", { number: i + 1 }),
                value: seat.name,
                oninput: (e) => {
                  seat.name = e.target.value;
                  if (i === 0) prefs.playerName = seat.name.trim();
                },
              }),
              h(
                "span",
                { class: "check" },
                h("input", {
                  type: "checkbox",
                  id: openId,
                  class: "seat-open",
                  checked: seat.open,
                  onchange: (e) => (seat.open = e.target.checked),
                }),
                h("label", { for: openId }, t("lobby.openSeat")),
              ),
            ];
          } else {
            const levelId = nextId("level");
            seat.level = this.fitLevel(seat.level, withHands);
            detail = [
              h(
                "label",
                { for: levelId, class: "visually-hidden" },
                t("lobby.seatLevel", { n: i + 1 }),
              ),
              h(
                "select",
                {
                  id: levelId,
                  class: "seat-level",
                  onchange: (e) => (seat.level = e.target.value),
                },
                levels.map((level) =>
                  h(
                    "option",
                    {
                      value: level,
                      selected: seat.level === level,
                      disabled: withHands && !handLevels.includes(level),
                    },
                    `${t(`level.${level}`)} – ${t(`levelHelp.${level}`)}`,
                  ),
                ),
              ),
            ];
          }
          return h(
            "li",
            { class: "seat-row" },
            h("label", { for: kindId, class: "seat-label" }, t("lobby.seatN", { n: i + 1 })),
            kind,
            detail,
            this.seats.length > 2
              ? h(
                  "button",
                  {
                    type: "button",
                    class: "small remove-seat",
                    "aria-label": t("lobby.removeSeat", { n: i + 1 }),
                    onclick: () => {
                      this.seats.splice(i, 1);
                      drawSeats();
                    },
                  },
                  "✕",
                )
              : null,
          );
        }),
      );
      addSeat.disabled = this.seats.length >= MAX_SEATS;
    };
    const addSeat = h(
      "button",
      {
        type: "button",
        class: "small add-seat",
        onclick: () => {
          if (this.seats.length < MAX_SEATS)
            this.seats.push({ kind: "bot", name: "", level: "medium", open: false });
          drawSeats();
        },
      },
      t("lobby.addSeat"),
    );
    drawSeats();
    const error = h("p", { class: "form-error", role: "alert" });
    const form = h(
      "form",
      {
        class: "panel create",
        "aria-labelledby": "create-title",
        onsubmit: async (event) => {
          event.preventDefault();
          error.textContent = "";
          const spec = {
            rules: preset.value,
            deck: deck.value,
            seats: this.seats.map((seat) =>
              seat.kind === "bot"
                ? { kind: "bot", level: seat.level }
                : { kind: "person", name: seat.name.trim() || null, open: seat.open },
            ),
          };
          if (title.value.trim()) spec.title = title.value.trim();
          spec.set = hands.rules();
          if (!forced.checked) spec.set.forced_placement = false;
          spec.public = listed.checked;
          spec.pace = pace;
          try {
            this.created = await api.create(spec);
            this.render();
            this.refresh();
            this.main.querySelector("#created-title").focus();
            this.announce(t("lobby.createdTitle", { code: this.created.code }));
          } catch (failure) {
            error.textContent = errorText(failure);
          }
        },
      },
      h("h2", { id: "create-title" }, t("lobby.create")),
      field(t("lobby.gameTitle"), title),
      h(
        "div",
        { class: "field-row" },
        field(t("lobby.rules"), preset),
        field(t("lobby.deck"), deck),
      ),
      h("div", { class: "check" }, forced, h("label", { for: forcedId }, t("lobby.forced"))),
      hands.node,
      h("div", { class: "check" }, listed, h("label", { for: publicId }, t("lobby.public"))),
      paceField,
      h("fieldset", {}, h("legend", {}, t("lobby.seats")), seatList, addSeat),
      h("button", { type: "submit", class: "primary create-button" }, t("lobby.createButton")),
      error,
    );
    return form;
  },

  renderCreated() {
    const game = this.created;
    const url = (path) => `${location.origin}${path}`;
    const copy = (text) =>
      h(
        "button",
        {
          type: "button",
          class: "small copy",
          onclick: async () => (await copyText(text)) && this.toast(t("copy.done")),
        },
        t("copy.button"),
      );
    const rows = game.seats.map((seat) => {
      const name = displayName(seat);
      if (seat.kind === "bot") {
        return h(
          "li",
          { class: "share-row" },
          h("span", { class: "share-seat" }, t("lobby.seatN", { n: seat.seat })),
          h("span", {}, name),
        );
      }
      const link = url(seat.link);
      return h(
        "li",
        { class: "share-row", dataset: { seat: seat.seat } },
        h("span", { class: "share-seat" }, t("lobby.seatN", { n: seat.seat })),
        h("span", {}, seat.open ? t("lobby.openFor") : name),
        h("code", { class: "share-link" }, link),
        copy(link),
        seat.token
          ? h(
              "a",
              {
                class: "button small primary play-here",
                href: seat.link,
                onclick: () => rememberSeat(game.code, { seat: seat.seat, token: seat.token }),
              },
              t("lobby.playHere"),
            )
          : null,
      );
    });
    return h(
      "section",
      { class: "panel created", "aria-labelledby": "created-title" },
      h("h2", { id: "created-title", tabindex: -1 }, t("lobby.createdTitle", { code: game.code })),
      h("p", {}, t("lobby.createdHelp")),
      h(
        "p",
        { class: "code-line" },
        t("lobby.code"),
        " ",
        h("strong", { class: "game-code" }, game.code),
        " ",
        copy(game.code),
      ),
      h("ul", { class: "share-list" }, rows),
      h(
        "p",
        {},
        t("lobby.watchLink"),
        " ",
        h("code", { class: "share-link" }, url(game.watch)),
        " ",
        copy(url(game.watch)),
      ),
      h(
        "button",
        {
          type: "button",
          onclick: () => {
            this.created = null;
            this.render();
          },
        },
        t("lobby.another"),
      ),
    );
  },
};

// The first screen (/): one click to play against the computer (its choices remembered), a game
// for several people on this device, a game with friends online (its seats' links to share),
// joining by link or code, watching, uploading a record to replay, and the lobby's lists of
// public games.

import { api } from "./api.js";
import { copyText, h, replace } from "./dom.js";
import { handOptions } from "./hand.js";
import { errorText, has, joinNames, t, tn } from "./i18n.js";
import { displayName } from "./people.js";
import { prefs, rememberSeat } from "./prefs.js";

const REFRESH_MS = 5000;
const MAX_SEATS = 5;
const PACES = ["fast", "normal", "slow"];

function field(label, control, help = null) {
  return h(
    "div",
    { class: "field" },
    h("label", { for: control.id }, label),
    control,
    help ? h("p", { class: "help" }, help) : null,
  );
}

/** Why an uploaded record was refused, in the reader's words: which turn, or which line. */
function uploadProblem(failure) {
  if (failure.code !== "bad_record") return errorText(failure);
  const { turn, line } = failure.details;
  if (Number.isInteger(turn) && turn > 0) return t("upload.badTurn", { turn });
  if (turn === 0) return t("upload.badSetup");
  if (Number.isInteger(line)) return t("upload.badLine", { line });
  return t("upload.notRecord");
}

let uid = 0;
const nextId = (prefix) => `${prefix}-${++uid}`;

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
        this.renderDevice(),
        this.created ? this.renderCreated() : this.renderCreate(),
        this.renderJoin(),
        this.renderUpload(),
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
        onchange: (e) => {
          quick.level = e.target.value;
          save();
        },
      },
      this.levels().map((name) =>
        h(
          "option",
          { value: name, selected: name === quick.level },
          `${t(`level.${name}`)} – ${t(`levelHelp.${name}`)}`,
        ),
      ),
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
        field(t("quick.level"), level),
        field(t("pace.label"), pace),
      ),
      hands.node,
      h("button", { type: "submit", class: "primary big play-button" }, t("quick.play")),
      error,
    );
  }

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
  }

  // ------------------------------------------------------------------------ creating

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
            this.main.querySelector(".created h2").focus();
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
  }

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
  }

  // ------------------------------------------------------------------------ joining

  renderJoin() {
    const codeId = nextId("code");
    const nameId = nextId("jname");
    const code = h("input", {
      id: codeId,
      name: "code",
      autocomplete: "off",
      spellcheck: "false",
      placeholder: "QB9H4D",
    });
    const name = h("input", {
      id: nameId,
      name: "name",
      maxlength: 40,
      value: prefs.playerName,
      autocomplete: "nickname",
    });
    const error = h("p", { class: "form-error", role: "alert" });
    this.joinName = name;
    const watch = h(
      "button",
      { type: "button", class: "watch-button", onclick: () => this.watch(code.value, error) },
      t("lobby.watch"),
    );
    return h(
      "form",
      {
        class: "panel join",
        "aria-labelledby": "join-title",
        onsubmit: (event) => {
          event.preventDefault();
          this.join(code.value, name.value, error);
        },
      },
      h("h2", { id: "join-title" }, t("lobby.join")),
      field(t("lobby.codeOrLink"), code, t("lobby.codeHelp")),
      field(t("join.name"), name),
      h(
        "div",
        { class: "buttons" },
        h("button", { type: "submit", class: "primary join-button" }, t("join.button")),
        watch,
      ),
      error,
    );
  }

  /** {code, seat, token, join} from a code or any of the game's links. */
  parseTarget(text) {
    const raw = String(text).trim();
    let code = raw;
    let hash = "";
    const match = /\/g\/([A-Za-z0-9]+)(#.*)?/.exec(raw);
    if (match) {
      code = match[1];
      hash = match[2] || "";
    }
    code = code.replace(/[^A-Za-z0-9]/g, "").toUpperCase();
    const params = new URLSearchParams(hash.slice(1));
    return {
      code,
      seat: Number(params.get("seat")) || null,
      token: params.get("token"),
      join: Number(params.get("join")) || null,
    };
  }

  async join(text, name, error, seat = null) {
    const target = this.parseTarget(text);
    if (!target.code) {
      error.textContent = t("lobby.needCode");
      return;
    }
    if (target.token && target.seat) {
      rememberSeat(target.code, { seat: target.seat, token: target.token });
      location.href = `/g/${target.code}`;
      return;
    }
    prefs.playerName = name.trim();
    try {
      const joined = await api.join(target.code, name.trim() || null, seat || target.join);
      rememberSeat(joined.code, { seat: joined.seat, token: joined.token });
      location.href = `/g/${joined.code}`;
    } catch (failure) {
      if (failure.code === "no_open_seat" || failure.code === "seat_taken") {
        error.textContent = `${errorText(failure)} ${t("lobby.watchInstead")}`;
      } else {
        error.textContent = errorText(failure);
      }
    }
  }

  watch(text, error) {
    const target = this.parseTarget(text);
    if (!target.code) {
      error.textContent = t("lobby.needCode");
      return;
    }
    location.href = `/g/${target.code}`;
  }

  // ------------------------------------------------------------------------ replays

  renderUpload() {
    const fileId = nextId("record");
    const file = h("input", {
      type: "file",
      id: fileId,
      accept: ".json,application/json",
      class: "record-file",
    });
    const error = h("p", { class: "form-error", role: "alert" });
    return h(
      "form",
      {
        class: "panel upload",
        "aria-labelledby": "upload-title",
        onsubmit: async (event) => {
          event.preventDefault();
          error.textContent = "";
          const chosen = file.files[0];
          if (!chosen) {
            error.textContent = t("upload.none");
            return;
          }
          try {
            const stored = await api.upload(await chosen.text());
            location.href = stored.link;
          } catch (failure) {
            error.textContent = t("upload.bad", { reason: uploadProblem(failure) });
          }
        },
      },
      h("h2", { id: "upload-title" }, t("upload.title")),
      field(t("upload.file"), file, t("upload.help")),
      h("button", { type: "submit", class: "upload-button" }, t("upload.button")),
      error,
    );
  }

  // ------------------------------------------------------------------------ lists

  async refresh() {
    try {
      this.lists = await api.games(12);
      this.renderLists();
    } catch {
      // The lists wait for the next refresh; the rest of the lobby works without them.
    }
  }

  renderLists() {
    if (!this.listsEl || !this.listsEl.isConnected) return;
    const focused =
      document.activeElement && this.listsEl.contains(document.activeElement)
        ? document.activeElement.dataset.key
        : null;
    const section = (status) => {
      const games = this.lists[status] || [];
      return h(
        "section",
        { class: `game-list list-${status}` },
        h("h3", {}, t(`lists.${status}`)),
        games.length
          ? h(
              "ul",
              {},
              games.map((game) => this.gameItem(game, status)),
            )
          : h("p", { class: "empty" }, t(`lists.${status}Empty`)),
      );
    };
    replace(
      this.listsEl,
      h("h2", { id: "lists-title" }, t("lists.title")),
      h("div", { class: "lists-grid" }, section("open"), section("running"), section("finished")),
    );
    if (focused) {
      const again = this.listsEl.querySelector(`[data-key="${focused}"]`);
      if (again) again.focus();
    }
  }

  gameItem(game, status) {
    const names = game.seats
      .map((seat) => (seat.open ? t("seat.open") : displayName(seat)))
      .join(t("names.separator"));
    const label = game.title || game.code;
    // The game's name follows each button's word for screen readers, so that the name they
    // hear starts with the word they see.
    const named = (word) => [word, h("span", { class: "visually-hidden" }, ` – ${label}`)];
    const actions = [];
    if (status === "open") {
      actions.push(
        h(
          "button",
          {
            type: "button",
            class: "small primary",
            dataset: { key: `join-${game.code}` },
            onclick: (event) =>
              this.join(
                game.code,
                this.joinName ? this.joinName.value : "",
                event.target.closest("li").querySelector(".form-error"),
              ),
          },
          named(t("join.button")),
        ),
      );
    }
    actions.push(
      h(
        "a",
        {
          class: "button small",
          href: `/g/${game.code}`,
        },
        named(status === "finished" ? t("lists.result") : t("lobby.watch")),
      ),
    );
    if (status === "finished") {
      actions.push(
        h(
          "a",
          {
            class: "button small",
            href: `/g/${game.code}?view=replay`,
          },
          named(t("end.replay")),
        ),
      );
    }
    const deck = has(`deck.${game.deck}`) ? t(`deck.${game.deck}`) : game.deck;
    let detail = `${tn("lists.players", game.players)} · ${deck}`;
    if (game.result) {
      const winners = game.result.winners.map((w) => displayName(game.seats[w - 1]));
      detail += ` · ${t("lists.won", { names: joinNames(winners) })}`;
    }
    return h(
      "li",
      { class: "game-item", dataset: { code: game.code } },
      h(
        "div",
        { class: "game-item-text" },
        h("strong", {}, label),
        " ",
        h("span", { class: "game-item-code" }, game.title ? game.code : ""),
        h("br"),
        h("span", { class: "game-item-names" }, names),
        h("br"),
        h("span", { class: "game-item-detail" }, detail),
      ),
      h("div", { class: "game-item-actions" }, actions),
      h("p", { class: "form-error", role: "alert" }),
    );
  }
}

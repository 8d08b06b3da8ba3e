// The game page's frame: the form that joins an open seat, and the page's parts (the bar's line
// and menu, the turn, the seats, the table, the log, the dock, the dialogs) made once per page.

import { api } from "./api.js";
import { copyText, h, replace } from "./dom.js";
import { errorText, t } from "./i18n.js";
import { setBarPart, setMenuOpen, setMenuPart } from "./menu.js";
import { prefs, rememberSeat } from "./prefs.js";
import { renderRules } from "./story.js";

/** Methods of the game page (mixed into GamePage). */
export const frameMethods = {
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
  },

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
    // The log of moves: beside the table on a wide screen; on a smaller one it opens from the
    // menu over the dock (and closes from its own title), so the frame never grows a scroll.
    const wide = window.matchMedia("(min-width: 900px) and (min-height: 560px)").matches;
    this.logBox = h(
      "details",
      { class: "move-log", open: wide },
      h("summary", {}, t("log.title")),
      this.logEl,
    );
    const movesButton = h(
      "button",
      {
        type: "button",
        class: "small moves-button",
        onclick: () => {
          setMenuOpen(false);
          this.logBox.open = true;
          this.logBox.querySelector("summary").focus({ preventScroll: true });
        },
      },
      t("log.title"),
    );
    setMenuPart(
      h("p", { class: "menu-code" }, t("game.title", { code: this.code })),
      rulesButton,
      movesButton,
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
        this.logBox,
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
  },
};

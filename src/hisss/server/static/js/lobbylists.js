// The lobby's lists of public games (open, running, finished), refreshed every few seconds.

import { api } from "./api.js";
import { h, replace } from "./dom.js";
import { has, joinNames, t, tn } from "./i18n.js";
import { displayName } from "./people.js";

/** Methods of the first screen (mixed into LobbyPage). */
export const listMethods = {
  async refresh() {
    try {
      this.lists = await api.games(12);
      this.renderLists();
    } catch {
      // The lists wait for the next refresh; the rest of the lobby works without them.
    }
  },

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
  },

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
        h("strong", { class: "game-item-title", title: label }, label),
        " ",
        h("span", { class: "game-item-code" }, game.title ? game.code : ""),
        h("br"),
        h("span", { class: "game-item-names", title: names }, names),
        h("br"),
        h("span", { class: "game-item-detail" }, detail),
      ),
      h("div", { class: "game-item-actions" }, actions),
      h("p", { class: "form-error", role: "alert" }),
    );
  },
};

// Where the focus goes on the game page: found again after each drawing, and the end screen,
// which opens over the final table and gives the focus back beside it.

import { currentLanguage } from "./i18n.js";
import { setMenuOpen } from "./menu.js";
import { displayName } from "./people.js";
import { renderEnd } from "./story.js";

/** Methods of the game page (mixed into GamePage). */
export const focusMethods = {
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
  },

  restoreFocus(key) {
    if (!key) return;
    const active = document.activeElement;
    if (active && active !== document.body && this.root.contains(active)) return;
    let target = key.selector ? this.root.querySelector(key.selector) : null;
    if (!target && this.myTurn("draw")) target = this.handEl.querySelector(".deck-active");
    if (!target && this.myTurn("place")) target = this.tableEl.querySelector(".ghost");
    if (!target && this.myTurn("place")) target = this.handEl.querySelector(".hand-choice.playable");
    if (target && !this.endEl.open) target.focus({ preventScroll: false });
  },

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
      setMenuOpen(false);
      this.endEl.showModal();
      this.root.dataset.endAt = String(Math.round(performance.now()));
    }
  },
};

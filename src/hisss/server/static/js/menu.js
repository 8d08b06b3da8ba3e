// The menu of the top bar: the page's own tools (a game's code, rules, marks and link) above
// the settings (language, colour-blind mode, text view, sound). It opens under its button and
// closes on Escape (the focus goes back to the button), on a click outside it, or when the focus
// leaves it.

const button = () => document.getElementById("menu-button");
const panel = () => document.getElementById("menu");

/** Whether the menu is open. */
export function isMenuOpen() {
  return !panel().hidden;
}

/** Open or close the menu; closing it with `refocus` puts the focus back on its button. */
export function setMenuOpen(open, { refocus = false } = {}) {
  panel().hidden = !open;
  button().setAttribute("aria-expanded", String(open));
  if (open) {
    const first = panel().querySelector("button:not([hidden]), select, a[href]");
    if (first) first.focus();
  } else if (refocus) {
    button().focus();
  }
}

/** The page's own part of the menu: its children are replaced by `nodes` (none: hidden). */
export function setMenuPart(...nodes) {
  const part = document.getElementById("menu-game");
  part.replaceChildren(...nodes.filter(Boolean));
  part.hidden = !part.childElementCount;
}

/** The place in the top bar beside the name for a page's own line (a game's code). */
export function setBarPart(...nodes) {
  document.getElementById("bar-slot").replaceChildren(...nodes.filter(Boolean));
}

/** Wire the menu's button, Escape and clicks outside it. */
export function setUpMenu() {
  button().addEventListener("click", () => setMenuOpen(!isMenuOpen()));
  document.addEventListener("keydown", (event) => {
    // Escape closes the menu, unless a dialog over the page is open: that closes first.
    if (event.key === "Escape" && isMenuOpen() && !document.querySelector("dialog[open]")) {
      event.preventDefault();
      setMenuOpen(false, { refocus: true });
    }
  });
  // The focus leaving the menu (Tab past its end, a click elsewhere) closes it.
  panel().addEventListener("focusout", (event) => {
    const next = event.relatedTarget;
    if (next && !panel().contains(next) && next !== button()) setMenuOpen(false);
  });
  document.addEventListener("pointerdown", (event) => {
    if (!isMenuOpen()) return;
    if (panel().contains(event.target) || button().contains(event.target)) return;
    setMenuOpen(false);
  });
}

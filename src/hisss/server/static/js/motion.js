// Motion on the table: the drawn card turns over, the placed card slides from the hand to its
// place, and a claimed snake flies into its claimer's pit. Nothing moves when the reader asks
// for reduced motion. Each movement started is named on the page's root (data-last-motion, and
// every kind seen so far in data-motions), which is how the tests see it.

const reduced = window.matchMedia("(prefers-reduced-motion: reduce)");

function moving() {
  return !reduced.matches && typeof Element.prototype.animate === "function";
}

function mark(kind) {
  const root = document.documentElement;
  root.dataset.lastMotion = kind;
  const seen = new Set((root.dataset.motions || "").split(" ").filter(Boolean));
  seen.add(kind);
  root.dataset.motions = [...seen].join(" ");
}

/** The drawn card turns over. */
export function turnOver(element) {
  if (!moving() || !element) return;
  mark("turn");
  element.animate(
    [
      { transform: "perspective(700px) rotateY(180deg)", filter: "brightness(0.3)" },
      { transform: "perspective(700px) rotateY(90deg)", filter: "brightness(0.6)", offset: 0.5 },
      { transform: "none", filter: "none" },
    ],
    { duration: 420, easing: "ease-out" },
  );
}

/** Where an element is now, to slide something from there once the page is drawn again. */
export function placeOf(element) {
  return element ? element.getBoundingClientRect() : null;
}

/** `element` slides from the place `from` (a rectangle) to where it lies now. */
export function slideFrom(element, from) {
  if (!moving() || !element || !from) return;
  const to = element.getBoundingClientRect();
  if (!to.width) return;
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  const scale = from.width / to.width;
  mark("slide");
  element.animate(
    [{ transform: `translate(${dx}px, ${dy}px) scale(${scale})`, zIndex: 20 }, { transform: "none" }],
    { duration: 420, easing: "cubic-bezier(0.2, 0.7, 0.3, 1)" },
  );
}

/** Copies of the cards of the snakes `numbers` (from 1) of a table, where they lie now. */
export function liftSnakes(table, numbers) {
  if (!moving() || !table) return [];
  const lifted = [];
  for (const number of numbers) {
    for (const card of table.querySelectorAll(`.snake[data-snake="${number}"] .snake-row > .card`)) {
      lifted.push({ node: card.cloneNode(true), rect: card.getBoundingClientRect() });
    }
  }
  return lifted;
}

/** The lifted cards (and the card just placed, from `extra`) fly into `target`'s pit. */
export function flyTo(lifted, target) {
  if (!moving() || !lifted.length || !target) return;
  mark("claim");
  const goal = target.getBoundingClientRect();
  const layer = document.createElement("div");
  layer.className = "fly-layer";
  layer.setAttribute("aria-hidden", "true");
  document.body.append(layer);
  lifted.forEach(({ node, rect }, i) => {
    Object.assign(node.style, {
      position: "fixed",
      left: `${rect.left}px`,
      top: `${rect.top}px`,
      width: `${rect.width}px`,
      height: `${rect.height}px`,
    });
    layer.append(node);
    const dx = goal.left + goal.width / 2 - (rect.left + rect.width / 2);
    const dy = goal.top + goal.height / 2 - (rect.top + rect.height / 2);
    node.animate(
      [
        { transform: "none", opacity: 1 },
        { transform: "translateY(-14px) rotate(-4deg) scale(1.08)", opacity: 1, offset: 0.25 },
        { transform: `translate(${dx}px, ${dy}px) scale(0.25)`, opacity: 0.2 },
      ],
      { duration: 900 + i * 45, easing: "cubic-bezier(0.5, 0, 0.3, 1)", fill: "forwards" },
    );
  });
  setTimeout(() => layer.remove(), 1400 + lifted.length * 45);
}

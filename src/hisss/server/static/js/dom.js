// Small DOM helpers: element building without a framework, and focus-friendly utilities.

/**
 * Build an element: h("button", {class: "x", onclick: fn, "aria-label": "y"}, "text", child).
 * Attributes whose value is null, undefined or false are left out; `true` sets an empty attribute.
 */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

/** The same for SVG elements. */
export function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

function setAttrs(node, attrs) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "dataset") {
      Object.assign(node.dataset, value);
    } else {
      node.setAttribute(key, value === true ? "" : String(value));
    }
  }
}

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace every child of `node`. */
export function replace(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

/** Copy text to the clipboard; falls back to a selected text field where the API is missing. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const field = h("textarea", { class: "visually-hidden" }, text);
    document.body.append(field);
    field.select();
    const done = document.execCommand("copy");
    field.remove();
    return done;
  }
}

/** Whether the reader plays with a finger (touch wording, no keyboard hints). */
export function touchScreen() {
  return window.matchMedia("(pointer: coarse)").matches;
}

/**
 * Arrow keys move the focus among `selector` items inside `container` (Home/End to the ends).
 * With `roving`, only the focused item is in the Tab order, so the group is one Tab stop.
 */
export function arrowKeys(container, selector, { roving = false } = {}) {
  container.addEventListener("keydown", (event) => {
    const items = [...container.querySelectorAll(selector)].filter((el) => !el.disabled);
    const at = items.indexOf(document.activeElement);
    if (at < 0) return;
    let next = null;
    if (event.key === "ArrowRight" || event.key === "ArrowDown") next = (at + 1) % items.length;
    else if (event.key === "ArrowLeft" || event.key === "ArrowUp") {
      next = (at - 1 + items.length) % items.length;
    } else if (event.key === "Home") next = 0;
    else if (event.key === "End") next = items.length - 1;
    if (next === null) return;
    event.preventDefault();
    if (roving) {
      items[at].tabIndex = -1;
      items[next].tabIndex = 0;
    }
    items[next].focus();
  });
}

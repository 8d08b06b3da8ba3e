// The front end's entry: settings (language, colour-blind mode, text view, sound), the live region,
// and the choice of page from the address: / (lobby), /g/CODE (a game), /g/CODE?view=replay
// and /replay/ID (replays).

import { h, replace } from "./dom.js";
import { GamePage } from "./game.js";
import {
  applyTexts,
  currentLanguage,
  defaultLanguage,
  languages,
  setLanguage,
  t,
} from "./i18n.js";
import { LobbyPage } from "./lobby.js";
import { setUpMenu } from "./menu.js";
import { prefs } from "./prefs.js";
import { ReplayPage } from "./replay.js";

const announcer = document.getElementById("announcer");
const toastEl = document.getElementById("toast");
let toastTimer = null;

/** Say something to screen readers (the polite live region keeps the last few messages). */
function announce(text) {
  if (!text) return;
  announcer.append(h("p", {}, text));
  while (announcer.childElementCount > 6) announcer.firstElementChild.remove();
}

/** Show a short message on screen (and to screen readers: the toast is a status region). */
function toast(text) {
  replace(toastEl, text);
  toastEl.classList.add("show");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => toastEl.classList.remove("show"), 4000);
}

function applyDisplay() {
  const root = document.documentElement;
  root.classList.toggle("cb", prefs.colourBlind);
  root.classList.toggle("show-text", prefs.textView);
  const cb = document.getElementById("cb-toggle");
  cb.setAttribute("aria-pressed", String(prefs.colourBlind));
  const tv = document.getElementById("text-toggle");
  tv.setAttribute("aria-pressed", String(prefs.textView));
  document.getElementById("sound-toggle").setAttribute("aria-pressed", String(prefs.sound));
}

function choosePage(main, ctx) {
  const path = location.pathname;
  let match = /^\/g\/([A-Za-z0-9]+)\/?$/.exec(path);
  if (match) {
    const code = match[1].toUpperCase();
    if (new URLSearchParams(location.search).get("view") === "replay") {
      return new ReplayPage(main, { kind: "game", key: code }, ctx);
    }
    return new GamePage(main, code, ctx);
  }
  match = /^\/replay\/([A-Za-z0-9_-]+)\/?$/.exec(path);
  if (match) return new ReplayPage(main, { kind: "replay", key: match[1] }, ctx);
  return new LobbyPage(main, ctx);
}

async function main() {
  await setLanguage(await defaultLanguage(prefs.language));
  const select = document.getElementById("lang");
  for (const [code, name] of Object.entries(languages())) {
    select.append(h("option", { value: code, lang: code }, name));
  }
  select.value = currentLanguage();
  applyTexts();
  applyDisplay();
  setUpMenu();
  const mainEl = document.getElementById("main");
  const page = choosePage(mainEl, { announce, toast });
  select.addEventListener("change", async () => {
    prefs.language = select.value;
    await setLanguage(select.value);
    applyTexts();
    document.title = t("app.name");
    page.rerender();
  });
  document.getElementById("cb-toggle").addEventListener("click", () => {
    prefs.colourBlind = !prefs.colourBlind;
    applyDisplay();
    page.rerender();
  });
  document.getElementById("text-toggle").addEventListener("click", () => {
    prefs.textView = !prefs.textView;
    applyDisplay();
    page.rerender();
  });
  document.getElementById("sound-toggle").addEventListener("click", () => {
    prefs.sound = !prefs.sound;
    applyDisplay();
  });
  document.title = t("app.name");
  await page.start();
  document.body.dataset.ready = "yes";
  // The service worker keeps the front end's files, so the page opens at once next time, and
  // says plainly without a network that playing needs the server.
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js").then(
      (registration) => (document.body.dataset.worker = registration.active ? "active" : "installing"),
      () => (document.body.dataset.worker = "refused"),
    );
  }
}

main().catch((error) => {
  document.body.dataset.ready = "error";
  const mainEl = document.getElementById("main");
  replace(mainEl, h("p", { class: "form-error" }, String(error)));
});

// The service worker: it keeps the front end's files under their versioned names, so that the
// page opens at once, even offline; a page asked for without a network gets the offline page,
// which says that playing needs the server. The server serves this file as /sw.js, after two
// lines that name the version (VERSION) and the files to keep (FILES); a new version keeps a
// new set of files and drops the old one.

const CACHE = `hisss-${VERSION}`;
const OFFLINE = "/offline";

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll([...FILES, OFFLINE]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys.filter((key) => key.startsWith("hisss-") && key !== CACHE).map((key) => caches.delete(key)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(`/static/${VERSION}/`)) {
    // A versioned file never changes: the kept copy is the file.
    event.respondWith(caches.match(request).then((kept) => kept || fetch(request)));
  } else if (request.mode === "navigate") {
    // Pages come from the server (a game's page needs it); without a network, the offline page.
    event.respondWith(
      fetch(request).catch(() => caches.match(OFFLINE).then((kept) => kept || Response.error())),
    );
  }
});

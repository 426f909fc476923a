/* global self, caches, fetch, URL, Request, Response */
// The service worker (issue 31 §5, decision 054). What it keeps, and only that:
// - the offline page (/hors-ligne.html) and the icons, fetched at install;
// - the build's static assets (/assets/…, names carrying their content hash), once fetched.
// It never keeps a page, a `.data` response, an API answer or anything a signed-in member
// received (all private, no-store): a navigation goes to the network, and only when the network
// fails does it show the offline page. Push notifications will be added as one more listener
// (`push`, `notificationclick`) on the same worker: the HANDLERS table below is where they go.
const VERSION = "v1";
const SHELL_CACHE = `rt-shell-${VERSION}`;
const ASSETS_CACHE = `rt-assets-${VERSION}`;
const OFFLINE_URL = "/hors-ligne.html";
const SHELL = [OFFLINE_URL, "/icons/icon-192.png", "/icons/icon.svg", "/favicon.svg"];
/** Hashed assets kept at most (older ones are dropped first). */
const MAX_ASSETS = 120;

async function install() {
  const cache = await caches.open(SHELL_CACHE);
  // `reload`: the network's copy, never the HTTP cache's.
  await cache.addAll(SHELL.map((url) => new Request(url, { cache: "reload" })));
  await self.skipWaiting();
}

async function activate() {
  const keep = new Set([SHELL_CACHE, ASSETS_CACHE]);
  for (const name of await caches.keys()) {
    if (name.startsWith("rt-") && !keep.has(name)) await caches.delete(name);
  }
  await self.clients.claim();
}

async function navigate(event) {
  try {
    return await fetch(event.request);
  } catch {
    const offline = await caches.match(OFFLINE_URL, { cacheName: SHELL_CACHE });
    return offline ?? new Response("Vous êtes hors ligne.", { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
}

async function hashedAsset(request) {
  const cache = await caches.open(ASSETS_CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  // Only a whole, public, same-origin answer is kept.
  const cacheControl = response.headers.get("Cache-Control") ?? "";
  if (response.ok && response.type === "basic" && !/no-store|private/.test(cacheControl)) {
    await cache.put(request, response.clone());
    const keys = await cache.keys();
    for (const old of keys.slice(0, Math.max(0, keys.length - MAX_ASSETS))) await cache.delete(old);
  }
  return response;
}

function onFetch(event) {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(navigate(event));
    return;
  }
  if (url.pathname.startsWith("/assets/")) {
    event.respondWith(hashedAsset(request));
    return;
  }
  if (url.pathname === OFFLINE_URL || url.pathname.startsWith("/icons/")) {
    event.respondWith(caches.match(request, { cacheName: SHELL_CACHE }).then((kept) => kept ?? fetch(request)));
  }
  // Everything else (pages' data, API, uploads, live streams): the network, untouched.
}

const HANDLERS = {
  install: (event) => event.waitUntil(install()),
  activate: (event) => event.waitUntil(activate()),
  fetch: onFetch,
};

for (const [type, handler] of Object.entries(HANDLERS)) self.addEventListener(type, handler);

// Stoneyard's service worker: keeps this build's files so a later visit starts without downloading them, even offline.

// Sets self.STONEYARD_BUILD and self.STONEYARD_BOOKS (written by scripts/build-id.sh). Browsers
// re-check imported scripts for changes, so a new build installs a new worker with its own cache.
importScripts('./pkg/build-id.js');

// The scope in the name: sites such as user.github.io share one origin (and one set of caches)
// between projects, and a worker must only ever delete its own.
const PREFIX = `stoneyard ${self.registration.scope} `;
const CACHE = PREFIX + self.STONEYARD_BUILD;
// Without these the game cannot start: the install fails (and is tried again on a later visit)
// rather than keep half a build.
const REQUIRED = ['./', './index.html', './manifest.webmanifest', './icons/icon-192.png', './icons/icon-512.png',
  './icons/maskable-512.png', './pkg/stoneyard.js', './pkg/stoneyard_bg.wasm',
  './pkg/fonts/UbuntuLight-derivative-Stoneyard.ttf', './pkg/fonts/Hack-Stoneyard.ttf',
  './pkg/fonts/ChessFigures-Stoneyard.ttf'];
// The computer player's worker, the lessons and the practice positions: a build without them still plays.
const OPTIONAL = ['./ai-worker.js', './pkg/ai_worker.js', './pkg/ai_worker_bg.wasm', ...(self.STONEYARD_BOOKS ?? [])];

// Revalidated with the server: an older build's copy in the HTTP cache is never kept, while a file
// the page has just downloaded usually costs a "304 Not Modified" instead of a second download.
const fresh = (url) => new Request(url, { cache: 'no-cache' });

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(REQUIRED.map(fresh));
    await Promise.all(OPTIONAL.map(async (url) => {
      const response = await fetch(fresh(url)).catch(() => null);
      if (response && response.status === 200) await cache.put(url, response);
    }));
    // The page running now keeps the build it loaded; the next visit gets this one.
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    // Serve the page that registered this worker too (the computer's worker files it loads later).
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  // Other origins and methods: no respondWith, the browser does what it would without a worker.
  if (request.method !== 'GET' || new URL(request.url).origin !== location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const kept = await cache.match(request);
    if (kept) return kept;
    try {
      const response = await fetch(request);
      // Only whole, successful answers (not errors, not 206 partial content) are worth keeping.
      if (response.status === 200) event.waitUntil(cache.put(request, response.clone()));
      return response;
    } catch (error) {
      // Offline: any address in the scope opens the game (one with a query string, say).
      if (request.mode === 'navigate') {
        const page = await cache.match('./index.html');
        if (page) return page;
      }
      throw error;
    }
  })());
});

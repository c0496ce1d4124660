/**
 * The service worker that lets the page open and play without a network once it has been open
 * (the CPU and two players on one device need no server; a room needs it and says so). The Vite
 * plugin writes `sw.js` at the site's root with the build's files to keep, so a new build is a new
 * worker: it fetches the new files, takes over, and deletes the old ones.
 *
 * What it answers: page loads go to the network first (a new build reaches players at once) and
 * fall back to the kept page; hashed files (`/assets/`, which never change) and icons come from
 * the cache. The rooms' API and socket never go through it.
 */
import { createHash } from 'node:crypto';
import type { Plugin } from 'vite';

/** Where the worker is served; its scope is the whole site. */
export const SW_PATH = '/sw.js';

/** Files outside the bundle that the installed page shows. */
const ICONS = ['/icons/icon.svg', '/icons/icon-192.png', '/icons/apple-touch-icon.png'];

/** The worker's source for a build whose files (site paths) are `files`. */
export function serviceWorkerSource(files: readonly string[]): string {
  const keep = ['/', ...files, ...ICONS];
  const version = createHash('sha256').update(keep.join('\n')).digest('hex').slice(0, 16);
  return `// Written by build-support/service-worker.ts for one build of the page.
const CACHE = 'gunjin-${version}';
const KEEP = ${JSON.stringify(keep)};

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll(KEEP)).then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith('gunjin-') && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

function keep(request, response) {
  if (response.ok && (request !== '/' || (response.headers.get('content-type') ?? '').startsWith('text/html'))) {
    const copy = response.clone();
    caches.open(CACHE).then((cache) => cache.put(request, copy));
  }
  return response;
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/') || url.pathname.startsWith('/ws/')) return;
  if (request.mode === 'navigate') {
    // Every route of the site is the same page (a room is ?room=…), kept as '/'; only a page
    // is kept there (not, say, /healthz opened by hand).
    event.respondWith(
      fetch(request)
        .then((response) => keep('/', response))
        .catch(() => caches.match('/').then((kept) => kept ?? Response.error())),
    );
    return;
  }
  if (url.pathname.startsWith('/assets/') || url.pathname.startsWith('/icons/')) {
    event.respondWith(caches.match(request).then((kept) => kept ?? fetch(request).then((response) => keep(request, response))));
  }
});
`;
}

/** The Vite plugin: emits `sw.js` listing every file of the build. */
export function serviceWorker(): Plugin {
  return {
    name: 'gunjin-service-worker',
    apply: 'build',
    generateBundle(_options, bundle) {
      const files = Object.keys(bundle)
        .filter((name) => name.startsWith('assets/'))
        .sort()
        .map((name) => `/${name}`);
      this.emitFile({ type: 'asset', fileName: SW_PATH.slice(1), source: serviceWorkerSource(files) });
    },
  };
}

/**
 * The service worker that lets the page open and play without a network once it has been open
 * (the CPU and two players on one device need no server; a room needs it and says so). The Vite
 * plugin writes `sw.js` at the site's root with the build's files to keep, so a new build is a new
 * worker: it fetches the new files, takes over, and deletes the old ones.
 *
 * What it answers: page loads go to the network first (a new build reaches players at once) and
 * fall back to the page kept at install when the network fails, answers 5xx or takes over
 * NETWORK_WAIT_MS; hashed files (`/assets/`, which never change) and icons come from
 * the cache. The rooms' API and socket never go through it.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Plugin } from 'vite';

/** Where the worker is served; its scope is the whole site. */
export const SW_PATH = '/sw.js';

/** Files outside the bundle that the installed page shows. */
const ICONS = ['/icons/icon.svg', '/icons/icon-192.png', '/icons/apple-touch-icon.png'];

/** How long a page load waits for the network before the kept page is shown instead. */
export const NETWORK_WAIT_MS = 4000;

/**
 * The worker's source for a build whose files (site paths) are `files`. `contents` are the bytes
 * of what keeps its name from build to build (the page, the icons): a change there is a new
 * worker too, or a returning player would keep the old ones.
 */
export function serviceWorkerSource(files: readonly string[], contents: readonly (string | Uint8Array)[] = []): string {
  const keep = ['/', ...files, ...ICONS];
  const hash = createHash('sha256').update(keep.join('\n'));
  for (const content of contents) hash.update(content);
  const version = hash.digest('hex').slice(0, 16);
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

// The page kept at install, which matches the files this worker keeps; a page load from the
// network is never kept, since it may belong to a newer build whose files this worker lacks.
function keptPage() {
  return caches.open(CACHE).then((cache) => cache.match('/')).then((kept) => kept ?? Response.error());
}

function pageLoad(request) {
  return new Promise((resolve) => {
    let done = false;
    const fallBack = () => {
      if (!done) {
        done = true;
        resolve(keptPage());
      }
    };
    const timer = setTimeout(fallBack, ${NETWORK_WAIT_MS});
    fetch(request)
      .then((response) => {
        // A proxy's 502–504 while the server is down: the kept page still plays the CPU.
        if (response.status >= 500) return fallBack();
        if (!done) {
          done = true;
          resolve(response);
        }
      })
      .catch(fallBack)
      .finally(() => clearTimeout(timer));
  });
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/') || url.pathname.startsWith('/ws/')) return;
  if (request.mode === 'navigate') {
    // Every route of the site is the same page (a room is ?room=…).
    event.respondWith(pageLoad(request));
    return;
  }
  if (url.pathname.startsWith('/assets/') || url.pathname.startsWith('/icons/')) {
    event.respondWith(
      caches.open(CACHE).then((cache) =>
        cache.match(request).then(
          (kept) =>
            kept ??
            fetch(request).then((response) => {
              if (response.ok) event.waitUntil(cache.put(request, response.clone()));
              return response;
            }),
        ),
      ),
    );
  }
});
`;
}

/** The Vite plugin: emits `sw.js` listing every file of the build. */
export function serviceWorker(): Plugin {
  let publicDir = '';
  return {
    name: 'gunjin-service-worker',
    apply: 'build',
    configResolved(config) {
      publicDir = config.publicDir;
    },
    async generateBundle(_options, bundle) {
      const files = Object.keys(bundle)
        .filter((name) => name.startsWith('assets/'))
        .sort()
        .map((name) => `/${name}`);
      const page = bundle['index.html'];
      const contents: (string | Uint8Array)[] = [page?.type === 'asset' ? page.source : ''];
      for (const icon of ICONS) contents.push(await readFile(join(publicDir, icon)));
      this.emitFile({ type: 'asset', fileName: SW_PATH.slice(1), source: serviceWorkerSource(files, contents) });
    },
  };
}

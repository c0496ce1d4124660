// How the server sends the page: compressed copies, caching, and a content security policy under
// which the whole page works in real Chromium (3D board, CPU worker and its wasm, a room socket).
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, readdir, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { WEB_DIR, openPage, startBrowser, startServer } from '../e2e-support/game.mjs';
import { confirmArrangement, createRoom, openOnlinePage, playRandomMove, seeded, waitPhase } from '../e2e-support/online.mjs';

let server;

before(async () => {
  server = await startServer();
});

after(async () => {
  await server?.stop();
});

/** A raw GET (no decoding by the client): status, headers and the bytes as sent. */
function get(path, headers = {}) {
  return new Promise((ok, fail) => {
    const req = request(new URL(path, server.url), { headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', fail);
    req.end();
  });
}

/** Starts a game against the beginner with the dealt arrangement; returns on the player's turn. */
async function startBeginnerGame(page) {
  await page.click('.mode-button[data-mode="cpu-beginner"]');
  await page.waitForSelector('[data-focus-key="confirm"]:not([disabled])');
  await page.click('[data-focus-key="confirm"]');
  await page.waitForFunction(() => window.gunjinTest?.phase() === 'turn', null, { timeout: 30_000 });
}

describe('serving the page', () => {
  it('sends brotli or gzip copies as accepted, caches hashed files for good and revalidates the page', async () => {
    const index = await get('/');
    assert.equal(index.status, 200);
    assert.equal(index.headers['cache-control'], 'no-cache');
    // Revalidating the page costs no body: the embedded page answers its ETag, a folder its date.
    const validator = index.headers.etag
      ? { 'if-none-match': index.headers.etag }
      : { 'if-modified-since': index.headers['last-modified'] };
    const again = await get('/', validator);
    assert.equal(again.status, 304, JSON.stringify(validator));
    assert.equal(again.body.length, 0);
    const assets = [...index.body.toString('utf8').matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
    assert.ok(assets.some((a) => a.endsWith('.js')) && assets.some((a) => a.endsWith('.css')), `assets in index.html: ${assets}`);
    let sent = 0;
    let raw = 0;
    for (const path of assets) {
      const plain = await get(path);
      assert.equal(plain.status, 200, path);
      assert.equal(plain.headers['content-encoding'], undefined, `${path} unasked`);
      assert.equal(plain.headers['cache-control'], 'public, max-age=31536000, immutable', path);
      const br = await get(path, { 'accept-encoding': 'gzip, deflate, br, zstd' });
      assert.equal(br.headers['content-encoding'], 'br', path);
      assert.equal(br.headers['content-type'], plain.headers['content-type'], path);
      assert.match(br.headers.vary ?? '', /accept-encoding/i, path);
      assert.ok(brotliDecompressSync(br.body).equals(plain.body), `${path}: brotli copy decodes to the file`);
      const gz = await get(path, { 'accept-encoding': 'gzip' });
      assert.equal(gz.headers['content-encoding'], 'gzip', path);
      assert.ok(gunzipSync(gz.body).equals(plain.body), `${path}: gzip copy decodes to the file`);
      sent += br.body.length;
      raw += plain.body.length;
    }
    assert.ok(sent < raw / 2, `brotli sends ${sent} of ${raw} bytes`);
    // An old build's file is gone: a 404, not the page under a script's name.
    const stale = await get('/assets/index-stale000.js', { 'accept-encoding': 'br' });
    assert.equal(stale.status, 404);
    assert.notEqual(stale.headers['cache-control'], 'public, max-age=31536000, immutable');
  });

  it('guards every page answer with a content security policy and the usual headers', async () => {
    for (const path of ['/', '/?room=AAAAAAAAAAAAAAAAAAAAAA', '/some/route']) {
      const res = await get(path);
      assert.equal(res.status, 200, path);
      const csp = res.headers['content-security-policy'] ?? '';
      assert.match(csp, /default-src 'self'/, path);
      assert.match(csp, /frame-ancestors 'none'/, path);
      assert.doesNotMatch(csp, /unsafe-inline|https?:|\*/, path);
      assert.equal(res.headers['x-content-type-options'], 'nosniff', path);
      assert.equal(res.headers['referrer-policy'], 'same-origin', path);
    }
  });
});

describe('the page under its content security policy', () => {
  let browser;
  before(async () => {
    browser = await startBrowser(); // WebGL on: three.js draws the 3D board under the policy too
  });
  after(async () => {
    await browser?.close();
  });

  /** Records what the policy refused on `page` (document events and console reports). */
  async function watchPolicy(page) {
    const refused = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) refused.push(m.text());
    });
    await page.context().addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        console.error(`Refused to load ${e.blockedURI} (Content Security Policy ${e.violatedDirective})`);
      });
    });
    return refused;
  }

  it('tells a browser without JavaScript what the page needs, in each language; describes itself to link previews', async () => {
    const context = await browser.browser.newContext({ javaScriptEnabled: false, locale: 'ko-KR' });
    const page = await context.newPage();
    await page.goto(`${server.url}?room=AAAAAAAAAAAAAAAAAAAAAA`);
    const notes = await page.$$eval('.no-script', (ps) => ps.map((p) => [p.lang, p.innerText]));
    assert.deepEqual(notes.map(([lang]) => lang), ['ja', 'ko', 'en']);
    assert.ok(notes.every(([, text]) => /JavaScript/.test(text) && text.length > 20), JSON.stringify(notes));
    assert.ok(await page.isVisible('.no-script[lang="ko"]'));
    const description = await page.getAttribute('meta[name="description"]', 'content');
    assert.match(description ?? '', /軍人将棋/);
    assert.match((await page.getAttribute('meta[property="og:title"]', 'content')) ?? '', /軍人将棋.*군인장기.*Gunjin Shogi/);
    // A room's page is the one page: search engines are pointed at `/` and kept off rooms.
    assert.equal(await page.evaluate(() => document.querySelector('link[rel="canonical"]')?.href), new URL('/', server.url).href);
    const robots = await get('/robots.txt');
    assert.equal(robots.status, 200);
    assert.match(robots.headers['content-type'], /^text\/plain/);
    assert.match(robots.body.toString('utf8'), /^Disallow: \/\*\?room=$/m);
    await context.close();
  });

  it('can be added to a home screen under its name in the page language', async () => {
    for (const [lang, name] of [['ja', '軍人将棋'], ['ko', '군인장기'], ['en', 'Gunjin Shogi']]) {
      const res = await get(`/manifest.${lang}.webmanifest`);
      assert.equal(res.status, 200, lang);
      assert.equal(res.headers['content-type'], 'application/manifest+json', lang);
      const manifest = JSON.parse(res.body.toString('utf8'));
      assert.equal(manifest.short_name, name);
      assert.equal(manifest.start_url, '/');
      for (const icon of manifest.icons) {
        const file = await get(icon.src);
        assert.equal(file.status, 200, icon.src);
        assert.equal(file.headers['content-type'], icon.type, icon.src);
      }
    }
    assert.equal((await get('/icons/apple-touch-icon.png')).headers['content-type'], 'image/png');
    const page = await openPage(browser, server.url, { lang: 'ko' });
    assert.equal(await page.getAttribute('link[rel="manifest"]', 'href'), '/manifest.ko.webmanifest');
    await page.close();
  });

  it('opens and plays the CPU without a network once the page has been open', async () => {
    const context = await browser.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', reducedMotion: 'reduce' });
    await context.addInitScript(() => localStorage.setItem('gunjin.lang', 'en'));
    const page = await context.newPage();
    const refused = await watchPolicy(page);
    await page.goto(`${server.url}?e2e&sw`);
    await page.waitForSelector('.mode-button');
    // Installed: every file of the build is kept (the CPU's worker and wasm too, never loaded yet).
    const kept = await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      const names = await caches.keys();
      const cache = await caches.open(names.find((n) => n.startsWith('gunjin-')));
      return (await cache.keys()).map((r) => new URL(r.url).pathname);
    });
    assert.ok(kept.includes('/'), JSON.stringify(kept));
    assert.ok(kept.some((p) => /^\/assets\/cpu\.worker-.*\.js$/.test(p)), JSON.stringify(kept));
    assert.ok(kept.filter((p) => p.endsWith('.wasm')).length >= 2, JSON.stringify(kept));

    // Something else opened on the site by hand, last before the network goes, is not kept as
    // the page.
    await page.goto(new URL('/healthz', server.url).href);
    await context.setOffline(true);
    await page.goto(`${server.url}?e2e`);
    await page.waitForSelector('.mode-button');
    await startBeginnerGame(page);
    const [from, to] = (await page.evaluate(() => window.gunjinTest.legalMoves()))[0];
    await page.click(`.cell[data-square="${from}"]`);
    await page.click(`.cell[data-square="${to}"]`);
    await page.waitForFunction(() => window.gunjinTest?.phase() === 'turn' && document.querySelectorAll('.log li').length >= 2, null, {
      timeout: 30_000,
    });
    // A room page opened offline still opens the page (the room itself needs the server).
    await page.goto(`${server.url}?e2e&room=AAAAAAAAAAAAAAAAAAAAAA`);
    await page.waitForSelector('.app');
    assert.deepEqual(refused, []);
    await context.close();
  });

  it('offline, plays the build its worker kept, even after a newer page came whose worker never arrived', async () => {
    // The site as a folder behind a link, so a deploy is one switch of the link.
    const root = await mkdtemp(join(tmpdir(), 'gunjin-e2e-site-'));
    const old = join(root, 'old');
    const next = join(root, 'next');
    await cp(join(WEB_DIR, 'dist'), old, { recursive: true });
    await cp(join(WEB_DIR, 'dist'), next, { recursive: true });
    // The next build: every hashed file renamed (and named so inside the others), no copies, and
    // a worker the browser fails to fetch (a dropped connection on a phone does the same).
    const assets = (await readdir(join(next, 'assets'))).filter((f) => !/\.(br|gz)$/.test(f));
    const renamed = new Map(assets.map((f) => [f, f.replace(/-([A-Za-z0-9_-]{8})\./, '-next$1.')]));
    for (const f of await readdir(join(next, 'assets'))) if (/\.(br|gz)$/.test(f)) await unlink(join(next, 'assets', f));
    const rewrite = async (path) => {
      let text = await readFile(path, 'utf8');
      for (const [from, to] of renamed) text = text.split(from).join(to);
      await writeFile(path, text);
    };
    for (const f of assets) {
      if (/\.(js|css)$/.test(f)) await rewrite(join(next, 'assets', f));
      await rename(join(next, 'assets', f), join(next, 'assets', renamed.get(f)));
    }
    for (const f of ['index.html.br', 'index.html.gz', 'sw.js', 'sw.js.br', 'sw.js.gz']) await rm(join(next, f), { force: true });
    await rewrite(join(next, 'index.html'));
    const site = join(root, 'site');
    await symlink(old, site);
    const siteServer = await startServer(['--web-dir', site]);
    const context = await browser.browser.newContext({ locale: 'en-US', reducedMotion: 'reduce' });
    await context.addInitScript(() => localStorage.setItem('gunjin.lang', 'en'));
    const page = await context.newPage();
    try {
      await page.goto(`${siteServer.url}?e2e&sw`);
      await page.waitForSelector('.mode-button');
      await page.evaluate(() => navigator.serviceWorker.ready);
      await unlink(site);
      await symlink(next, site);
      await page.goto(`${siteServer.url}?e2e`);
      await page.waitForSelector('.mode-button');
      const entry = await page.evaluate(() => [...document.scripts].map((s) => s.src).join(' '));
      assert.match(entry, /-next/, 'online, the page is the next build');
      await context.setOffline(true);
      await page.goto(`${siteServer.url}?e2e`);
      await page.waitForSelector('.mode-button');
      await startBeginnerGame(page);
    } finally {
      await context.close();
      await siteServer.stop();
      await rm(root, { recursive: true, force: true });
    }
  });

  it('plays the CPU on the 3D board and reads the help with nothing refused', async () => {
    const page = await openPage(browser, server.url);
    const refused = await watchPolicy(page);
    await page.reload();
    await page.waitForSelector('.mode-button');
    await startBeginnerGame(page);
    assert.equal(await page.evaluate(() => window.gunjinBoard3D !== undefined), true, 'the 3D board is up');
    for (let i = 0; i < 2; i++) {
      const moves = await page.evaluate(() => window.gunjinTest.legalMoves());
      const [from, to] = moves[i % moves.length];
      await page.click(`.cell[data-square="${from}"]`);
      await page.click(`.cell[data-square="${to}"]`);
      // The CPU answers from its Web Worker, which runs the engine's wasm.
      await page.waitForFunction(() => ['turn', 'over'].includes(window.gunjinTest?.phase()), null, { timeout: 30_000 });
    }
    assert.ok((await page.$$eval('.log li', (items) => items.length)) >= 4, 'both sides moved');
    await page.click('[data-focus-key="open-help"]');
    await page.waitForSelector('dialog[open] .help-section');
    assert.deepEqual(refused, []);
    await page.close();
  });

  it('plays a friend over the room socket with nothing refused, under the service worker', async () => {
    // Both pages are controlled by the worker: the rooms' API and socket must pass it by.
    // Registered once the page is up (after the 3D board); a page loaded before the worker was
    // active is claimed by it, or, if that raced with a reload, controlled after one more load.
    const controlled = async (page) => {
      try {
        await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20_000 });
      } catch {
        const state = await page.evaluate(async () => {
          const r = await navigator.serviceWorker.getRegistration();
          return JSON.stringify({ active: r?.active?.state, installing: r?.installing?.state, board: document.body.dataset.board3d });
        });
        console.log(`# not yet controlled: ${state}; loading once more`);
        await page.evaluate(() => navigator.serviceWorker.ready);
        await page.reload();
        await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20_000 });
      }
    };
    const host = await openOnlinePage(browser, `${server.url}?sw`);
    const hostRefused = await watchPolicy(host);
    await host.reload();
    await host.waitForFunction(() => window.gunjinTest !== undefined);
    await controlled(host);
    const url = await createRoom(host);
    const guest = await openOnlinePage(browser, `${url}&sw`);
    const guestRefused = await watchPolicy(guest);
    await guest.reload();
    await controlled(guest);
    await guest.waitForSelector('[data-focus-key="online-join"]');
    await guest.click('[data-focus-key="online-join"]');
    await waitPhase(guest, ['setup']);
    await confirmArrangement(guest);
    await host.waitForSelector('[data-presence="connected"]');
    await confirmArrangement(host);
    await waitPhase(host, ['turn']);
    const random = seeded(37);
    await playRandomMove(host, random);
    await waitPhase(guest, ['turn']);
    await playRandomMove(guest, random);
    await waitPhase(host, ['turn']);
    assert.deepEqual(hostRefused, []);
    assert.deepEqual(guestRefused, []);
    await host.close();
    await guest.close();
  });
});

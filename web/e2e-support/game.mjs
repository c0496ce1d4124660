// Helpers for the page's end-to-end tests: start the real server, start headless Chromium
// (playwright-core with Debian's /usr/bin/chromium and the flags from TOOLCHAIN.md), and drive the
// page with the keyboard. Kept outside e2e/ because `node --test` runs every file there.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const WEB_DIR = resolve(fileURLToPath(new URL('..', import.meta.url)));
const ROOT = resolve(WEB_DIR, '..');
const CHROMIUM = process.env.CHROMIUM ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
];

/**
 * Starts the game server on a free port, with `extraArgs` added to its command line. Uses
 * $GUNJIN_SERVER (the binary with the page embedded, as `cargo xtask test` builds it), else
 * target/debug/gunjin-server serving web/dist; `--web-dir DIR` in `extraArgs` serves DIR.
 */
export async function startServer(extraArgs = []) {
  const bin = process.env.GUNJIN_SERVER ?? join(ROOT, 'target', 'debug', 'gunjin-server');
  if (!existsSync(bin)) throw new Error(`no server binary at ${bin}: run cargo xtask test`);
  const dbDir = await mkdtemp(join(tmpdir(), 'gunjin-e2e-db-'));
  const args = ['--addr', '127.0.0.1:0', '--db', join(dbDir, 'rooms.sqlite3'), ...extraArgs];
  if (process.env.GUNJIN_SERVER === undefined && !extraArgs.includes('--web-dir')) args.push('--web-dir', join(WEB_DIR, 'dist'));
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((ok, fail) => {
    let text = '';
    const timer = setTimeout(() => fail(new Error(`server did not start: ${text}`)), 30_000);
    child.stdout.on('data', (chunk) => {
      text += chunk;
      const m = /listening on (http:\/\/\S+)/.exec(text);
      if (m) {
        clearTimeout(timer);
        ok(m[1]);
      }
    });
    child.on('exit', (code) => fail(new Error(`server exited (${code}): ${text}`)));
  });
  return {
    url,
    stop: async () => {
      child.kill();
      await rm(dbDir, { recursive: true, force: true });
    },
  };
}

/**
 * Flags for the suites that drive the button grid (game, CPU, online): without WebGL the page
 * plays on the grid alone. With WebGL the 3D board would draw every change in SwiftShader
 * (software, ~0.5 s a frame on this machine), which slows whole keyboard games and delays what
 * those suites observe; the 3D board on the page is tested in `board3d-integrated.test.mjs`.
 */
export const GRID_ONLY = ['--disable-webgl', '--disable-3d-apis'];

/**
 * Starts Chromium, with `extraArgs` after the usual flags (e.g. `--disable-webgl`). Each page
 * opened with `openPage` gets its own context (own storage).
 */
export async function startBrowser(extraArgs = []) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...FLAGS, ...extraArgs] });
  return { browser, close: () => browser.close() };
}

/**
 * Opens the page in a fresh context (empty storage), in `lang`, with the test hooks, the start
 * screen showing.
 */
export async function openPage(browser, baseUrl, { lang = 'en', viewport = { width: 1280, height: 900 }, colorScheme = 'light', hasTouch = false } = {}) {
  // Reduced motion: the 3D board (where WebGL works) jumps to each new state instead of animating.
  const context = await browser.browser.newContext({ viewport, locale: 'en-US', reducedMotion: 'reduce', colorScheme, hasTouch });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('page error:', e));
  await page.goto(`${baseUrl}?e2e`);
  await page.evaluate((l) => localStorage.setItem('gunjin.lang', l), lang);
  await page.reload();
  await page.waitForSelector('.mode-button');
  const close = page.close.bind(page);
  page.close = async () => {
    await close();
    await context.close();
  };
  return page;
}

/** The accessible name of the focused element. */
export async function focusedName(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el) return '';
    const by = el.getAttribute('aria-labelledby');
    const named = by === null ? null : by.split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
    return (named ?? el.getAttribute('aria-label') ?? el.textContent ?? '').trim();
  });
}

/** Presses Tab until the focused element's name matches, then returns (keyboard only). */
export async function tabTo(page, pattern, max = 60) {
  const re = pattern instanceof RegExp ? pattern : new RegExp(`^${escape(pattern)}`);
  for (let i = 0; i < max; i++) {
    const name = await focusedName(page);
    if (re.test(name)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`could not reach ${re} with Tab (focused: ${await focusedName(page)})`);
}

function escape(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Facts of the focused grid square, or null when the focus is elsewhere. */
async function focusedCell(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!(el instanceof HTMLElement) || el.dataset.square === undefined) return null;
    return { square: el.dataset.square, row: Number(el.dataset.row), c0: Number(el.dataset.c0), c1: Number(el.dataset.c1) };
  });
}

/** Moves the grid focus to `square` with the arrow keys. The focus must be in the grid. */
export async function arrowTo(page, square) {
  const target = await page.evaluate((sq) => {
    const el = document.querySelector(`.cell[data-square="${sq}"]`);
    return el ? { row: Number(el.dataset.row), c0: Number(el.dataset.c0), c1: Number(el.dataset.c1) } : null;
  }, square);
  if (target === null) throw new Error(`no square ${square}`);
  for (let i = 0; i < 12; i++) {
    const at = await focusedCell(page);
    if (at === null) throw new Error('the focus left the grid');
    if (at.square === square) return;
    // Press a run of keys at once; the next round corrects any drift through an HQ.
    let key;
    let count;
    if (at.row !== target.row) {
      key = at.row < target.row ? 'ArrowDown' : 'ArrowUp';
      count = Math.abs(target.row - at.row);
    } else if (target.c0 > at.c1) {
      key = 'ArrowRight';
      count = 1;
    } else {
      key = 'ArrowLeft';
      count = 1;
    }
    for (let k = 0; k < count; k++) await page.keyboard.press(key);
  }
  throw new Error(`could not reach ${square} with the arrow keys`);
}

/**
 * Two players on this device: both arrangements confirmed as dealt, then sente's turn is shown.
 * `open` lifts a curtain (a plain click by default; a 3D page may also wait for its board).
 */
export async function startLocalTurn(page, open = (p) => p.click('.curtain button')) {
  await page.click('.mode-button[data-mode="local"]');
  for (let i = 0; i < 2; i++) {
    await open(page);
    await page.click('[data-focus-key="confirm"]');
  }
  await open(page);
}

/** Presses `square` with the keyboard: arrows to it, then Enter. */
export async function pressSquare(page, square) {
  await arrowTo(page, square);
  await page.keyboard.press('Enter');
}

/** Every piece name of one language, from the engine the page itself uses. */
export async function kindNames(page, lang) {
  return page.evaluate(async (l) => {
    const app = window.gunjinApp;
    // Without the app (a page loaded without `?e2e`) a leak check would find nothing to look for.
    if (app === undefined) throw new Error('kindNames needs a page loaded with ?e2e');
    return JSON.parse(JSON.stringify(app.kindNames(l)));
  }, lang);
}

/** Text and attribute values of the whole document, for leak checks. */
export async function documentText(page) {
  return page.evaluate(() => {
    const parts = [document.body.innerText, document.title];
    for (const el of document.querySelectorAll('*')) {
      for (const a of el.attributes) parts.push(a.value);
    }
    return parts.join('\n');
  });
}

// Helpers for the online (friend by URL) end-to-end tests: pages that record every WebSocket
// frame they receive, room creation and joining, arranging, a random-move player and the
// hidden-information checks on frames and on the page.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startServer, WEB_DIR } from './game.mjs';

/**
 * The server under test: $GUNJIN_URL if set (a server started by hand, e.g. serving a page built
 * elsewhere), else the one `startServer` starts.
 */
export async function onlineServer() {
  const url = process.env.GUNJIN_URL;
  if (url !== undefined) return { url: url.endsWith('/') ? url : `${url}/`, stop: async () => {} };
  return startServer();
}

/** A free TCP port on 127.0.0.1. */
async function freePort() {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.on('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
  });
}

/**
 * A server that can be killed (SIGKILL, like a crash) and started again on the same address and
 * database. Uses $GUNJIN_SERVER (page embedded) or target/debug/gunjin-server serving
 * $GUNJIN_WEB_DIR or web/dist.
 */
export async function restartableServer() {
  const bin = process.env.GUNJIN_SERVER ?? join(resolve(WEB_DIR, '..'), 'target', 'debug', 'gunjin-server');
  if (!existsSync(bin)) throw new Error(`no server binary at ${bin}: run cargo xtask test`);
  const dir = await mkdtemp(join(tmpdir(), 'gunjin-e2e-online-'));
  const port = await freePort();
  const args = ['--addr', `127.0.0.1:${port}`, '--db', join(dir, 'rooms.sqlite3')];
  if (process.env.GUNJIN_SERVER === undefined) args.push('--web-dir', process.env.GUNJIN_WEB_DIR ?? join(WEB_DIR, 'dist'));
  let child = null;
  const start = async () => {
    child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    const c = child;
    await new Promise((ok, fail) => {
      let text = '';
      const timer = setTimeout(() => fail(new Error(`server did not start: ${text}`)), 30_000);
      c.stdout.on('data', (chunk) => {
        text += chunk;
        if (/listening on/.test(text)) {
          clearTimeout(timer);
          ok();
        }
      });
      c.on('exit', (code) => fail(new Error(`server exited (${code}): ${text}`)));
    });
  };
  /** Stops the server: at once (SIGKILL, as a crash), or as a service manager does (SIGTERM). */
  const kill = async (signal = 'SIGKILL') => {
    const c = child;
    child = null;
    if (c === null || c.exitCode !== null) return;
    await new Promise((ok) => {
      c.on('exit', ok);
      c.kill(signal);
    });
  };
  await start();
  return {
    url: `http://127.0.0.1:${port}/`,
    kill,
    start,
    stop: async () => {
      await kill();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Opens `url` (the page, or a room URL) in a fresh context (own storage: another person's browser) and records the frames
 * the page's WebSockets receive, across reloads: `page.frames` (parsed JSON, in order).
 */
export async function openOnlinePage(browser, url, { lang = 'en', colorScheme = 'light', viewport = { width: 1280, height: 900 } } = {}) {
  const context = await browser.browser.newContext({ viewport, locale: 'en-US', colorScheme });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('page error:', e));
  const frames = [];
  page.on('websocket', (ws) => {
    ws.on('framereceived', (f) => {
      const text = typeof f.payload === 'string' ? f.payload : f.payload.toString('utf8');
      try {
        frames.push(JSON.parse(text));
      } catch {
        frames.push({ t: 'unparsable', text });
      }
    });
  });
  await context.addInitScript((l) => {
    if (localStorage.getItem('gunjin.lang') === null) localStorage.setItem('gunjin.lang', l);
  }, lang);
  const target = new URL(url);
  target.searchParams.set('e2e', '');
  await page.goto(target.toString());
  await page.waitForFunction(() => window.gunjinTest !== undefined);
  const close = page.close.bind(page);
  page.close = async () => {
    await close();
    await context.close();
  };
  page.frames = frames;
  return page;
}

export const phase = (page) => page.evaluate(() => window.gunjinTest?.phase());

/** Waits until the page's phase is one of `kinds` (a page still loading, after a reload, has no hooks yet). */
export async function waitPhase(page, kinds, timeout = 20_000) {
  await page.waitForFunction((ks) => ks.includes(window.gunjinTest?.phase()), kinds, { timeout, polling: 50 });
}

/** "Play a friend": creates a room; returns the URL the page offers to send. */
export async function createRoom(page) {
  await page.click('.mode-button[data-mode="friend"]');
  await page.waitForSelector('.online-url');
  await page.waitForSelector('[data-connection="open"]');
  return page.inputValue('.online-url');
}

/**
 * Confirms the arrangement on screen ("Confirm and wait"), and waits for the page to take it: a
 * press lost to a redraw fails here, not as a game that never starts.
 */
export async function confirmArrangement(page) {
  await page.waitForSelector('[data-focus-key="confirm"]:not([disabled])');
  await page.click('[data-focus-key="confirm"]');
  await page.waitForFunction(() => window.gunjinTest?.phase() !== 'setup', null, { timeout: 5_000, polling: 50 }).catch(() => {
    throw new Error('the press on "confirm" was not taken: the page is still arranging');
  });
}

/** The viewer's own pieces on the grid: square → kind id. */
export async function ownPieces(page) {
  return page.evaluate(() => {
    const out = {};
    for (const el of document.querySelectorAll('.cell.own[data-kind]')) out[el.dataset.square] = el.dataset.kind;
    return out;
  });
}

const OFFICERS = ['general', 'lieutenant_general', 'major_general', 'colonel', 'lieutenant_colonel', 'major'];

/**
 * One random legal move by clicks, with a policy that ends games quickly: officers walk into the
 * enemy HQ when they can, attacks are preferred, quiet moves mostly go forward. Returns the move.
 */
export async function playRandomMove(page, random) {
  // One round trip for what the policy needs: the side, the offered moves, the board.
  const { side, moves, enemies, own } = await page.evaluate(() => {
    const own = {};
    for (const el of document.querySelectorAll('.cell.own[data-kind]')) own[el.dataset.square] = el.dataset.kind;
    return {
      side: document.querySelector('.grid').dataset.viewer,
      moves: window.gunjinTest.legalMoves(),
      enemies: [...document.querySelectorAll('.cell.enemy')].map((el) => el.dataset.square),
      own,
    };
  });
  if (moves.length === 0) throw new Error('no legal move offered on the player’s turn');
  const enemyHq = side === 'sente' ? 'cd8' : 'cd1';
  const row = (sq) => Number(sq.at(-1));
  const ahead = ([from, to]) => (side === 'sente' ? row(to) > row(from) : row(to) < row(from));
  const occupy = moves.filter(([from, to]) => to === enemyHq && OFFICERS.includes(own[from]));
  const fights = moves.filter(([, to]) => enemies.includes(to));
  const forward = moves.filter(ahead);
  const pool =
    occupy.length > 0 ? occupy : fights.length > 0 && random(10) < 7 ? fights : forward.length > 0 && random(10) < 8 ? forward : moves;
  const [from, to] = pool[random(pool.length)];
  await page.click(`.cell[data-square="${from}"]`);
  const cls = await page.getAttribute(`.cell[data-square="${to}"]`, 'class');
  if (!/\b(move|attack)\b/.test(cls ?? '')) throw new Error(`${to} is not marked as a destination of ${from}`);
  await page.click(`.cell[data-square="${to}"]`);
  return [from, to];
}

/** A small seeded generator: `random(n)` in 0..n-1. */
export function seeded(seed) {
  let s = seed;
  return (n) => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s % n;
  };
}

/**
 * Enemy kinds in the frames a player received before the game's end (`ended`). A frame leaks if
 * a piece of the other side carries a kind, if `removed.enemy` is present, or if any kind id
 * appears anywhere but on the player's own pieces, own removed list or own set-up.
 */
export function leaksInFrames(frames, kindIds) {
  const kinds = new Set(kindIds);
  const leaks = [];
  let side = null;
  for (const frame of frames) {
    if (frame.t === 'ended') break;
    if (frame.t === 'sync' && frame.room?.phase === 'finished') break;
    if (frame.t === 'arranging' || frame.t === 'started') side = frame.side;
    if (frame.t === 'sync') side = frame.room?.side ?? side;
    walk(frame, [], (path, value, parent) => {
      if (typeof value !== 'string' || !kinds.has(value)) return;
      const key = path.at(-1);
      const ownPiece = key === 'kind' && parent?.side === side && path.at(-3) === 'pieces';
      const ownRemoved = path.at(-2) === 'own' && path.at(-3) === 'removed';
      const ownSetup = path.includes('setup');
      if (!(ownPiece || ownRemoved || ownSetup)) leaks.push({ t: frame.t, path: path.join('.'), value });
    });
    walk(frame, [], (path) => {
      if (path.at(-1) === 'enemy' && path.at(-2) === 'removed') leaks.push({ t: frame.t, path: path.join('.') });
    });
  }
  return leaks;
}

function walk(value, path, visit, parent = null) {
  visit(path, value, parent);
  if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...path, String(i)], visit, value));
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) walk(v, [...path, k], visit, value);
  }
}

/** Enemy pieces shown with a kind, or labelled with a kind name, on the player's grid. */
export async function leaksOnPage(page, names) {
  return page.evaluate((ns) => {
    const out = [];
    for (const el of document.querySelectorAll('.cell.enemy')) {
      if (el.dataset.kind !== undefined) out.push(`${el.dataset.square}: data-kind ${el.dataset.kind}`);
      const text = `${el.textContent} ${el.getAttribute('aria-label') ?? ''} ${el.title ?? ''}`;
      for (const n of ns) if (new RegExp(`(^|[^a-z_])${n}([^a-z_]|$)`, 'i').test(text)) out.push(`${el.dataset.square}: ${n}`);
    }
    const enemyRemoved = document.querySelector('.removed-enemy');
    if (enemyRemoved !== null && !/^\d+$/.test(enemyRemoved.textContent.trim())) out.push(`enemy removed list: ${enemyRemoved.textContent}`);
    return out;
  }, names);
}

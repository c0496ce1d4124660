#!/usr/bin/env node
// Browser bench of the CPU: think time per move in WASM, in the page's Web Worker, in headless
// Chromium (the flags of TOOLCHAIN.md). Not a test: it measures and reports.
//
//   node scripts/cpu-bench.mjs [--level=advanced] [--moves=60] [--seed=1]
//
// Needs the built page and server, as `cargo xtask build` leaves them (or $GUNJIN_SERVER). It plays
// the CPU mode of the chosen level in the real page: the "human" side plays a seeded policy
// (attacks and forward moves preferred) by pressing the squares; games are restarted with
// "play again" until the CPU has made --moves moves. Each CPU decision leaves a
// `gunjin-cpu-think` mark on the page's performance timeline: the time the worker measured around
// the wasm call (think) and from the page's request to the answer (round trip).
import { openPage, startBrowser, startServer } from '../e2e-support/game.mjs';

const arg = (name, fallback) => {
  const a = process.argv.find((x) => x.startsWith(`--${name}=`));
  return a === undefined ? fallback : a.slice(name.length + 3);
};
const level = arg('level', 'advanced');
const wanted = Number(arg('moves', '60'));
let rng = Number(arg('seed', '1')) >>> 0 || 1;
const random = (n) => {
  rng = (rng * 1103515245 + 12345) % 2147483648;
  return rng % n;
};

function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
  const mean = sorted.reduce((t, v) => t + v, 0) / Math.max(1, sorted.length);
  return { n: sorted.length, mean, p50: at(0.5), p95: at(0.95), max: sorted.at(-1) ?? NaN };
}

const fmt = (s) =>
  `n=${s.n} mean ${s.mean.toFixed(0)} ms, p50 ${s.p50.toFixed(0)} ms, p95 ${s.p95.toFixed(0)} ms, max ${s.max.toFixed(0)} ms`;

const server = await startServer();
const browser = await startBrowser();
try {
  const page = await openPage(browser, server.url);
  const version = await browser.browser.version();
  await page.click(`.mode-button[data-mode="cpu-${level}"]`);
  const phase = () => page.evaluate(() => window.gunjinTest.phase());
  const marks = () => page.evaluate(() => performance.getEntriesByName('gunjin-cpu-think').length);
  let games = 0;
  const started = Date.now();
  while ((await marks()) < wanted) {
    const p = await phase();
    if (p === 'setup') {
      await page.click('[data-focus-key="confirm"]');
      games++;
    } else if (p === 'over') {
      await page.click('[data-focus-key="play-again"]');
    } else if (p === 'turn') {
      const moves = await page.evaluate(() => window.gunjinTest.legalMoves());
      const enemies = await page.$$eval('.cell.enemy', (els) => els.map((el) => el.dataset.square));
      const row = (sq) => Number(sq.at(-1));
      const fights = moves.filter(([, to]) => enemies.includes(to));
      const forward = moves.filter(([from, to]) => row(to) > row(from));
      const pool = fights.length > 0 && random(10) < 6 ? fights : forward.length > 0 && random(10) < 7 ? forward : moves;
      const [from, to] = pool[random(pool.length)];
      await page.click(`.cell[data-square="${from}"]`);
      await page.click(`.cell[data-square="${to}"]`);
      await page.waitForFunction(() => window.gunjinTest.phase() !== 'waiting', null, { timeout: 60_000 });
    } else {
      await page.waitForFunction(() => window.gunjinTest.phase() !== 'waiting', null, { timeout: 60_000 });
    }
  }
  const details = await page.evaluate(() => performance.getEntriesByName('gunjin-cpu-think').map((m) => m.detail));
  const think = stats(details.map((d) => d.thinkMs));
  const round = stats(details.map((d) => d.totalMs));
  console.log(`CPU bench: level ${level}, ${games} game(s), ${((Date.now() - started) / 1000).toFixed(0)} s, Chromium ${version}`);
  console.log(`  think (worker, wasm call): ${fmt(think)}`);
  console.log(`  round trip (page → worker → page): ${fmt(round)}`);
  await page.close();
} finally {
  await browser.close();
  await server.stop();
}

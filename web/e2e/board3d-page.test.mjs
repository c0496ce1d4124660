// The game page with the 3D board mounted (e2e-support/page3d.html: the page's own App and engine,
// plus loadBoard3D): a move is played by clicking the 3D board, and both squares redraw.
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { buildHarness, launch, serve } from '../e2e-support/board3d-harness.mjs';
import { startLocalTurn } from '../e2e-support/game.mjs';
import { colorDistance, meanColor, paintedShot } from '../e2e-support/png.mjs';

let dir;
let server;
let browser;

before(async () => {
  dir = await buildHarness(['page3d.html']);
  server = await serve(dir);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const phase = (page) => page.evaluate(() => window.gunjinTest?.phase());
/** A square's point on the 3D board, scrolled into view first (the page moves focus around). */
async function at(page, square) {
  await page.evaluate(() => {
    const canvas = document.querySelector('.board3d-canvas');
    const top = canvas.getBoundingClientRect().top + window.scrollY;
    window.scrollTo(0, Math.max(0, top - 10));
  });
  return page.evaluate((sq) => window.board3d.screenPosition(sq), square);
}
const shot = paintedShot;

/** Who holds a square according to the button grid: 'own', 'enemy' or 'empty'. */
const holder = (page, square) =>
  page.evaluate((sq) => {
    const cell = document.querySelector(`.cell[data-square="${sq}"]`);
    if (!cell) return 'missing';
    return cell.classList.contains('own') ? 'own' : cell.classList.contains('enemy') ? 'enemy' : 'empty';
  }, square);

describe('game page with the 3D board', () => {
  it('plays a move picked on the 3D board, and the board redraws both squares', async (t) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}/e2e-support/page3d.html`);
    await page.waitForFunction(() => document.body.dataset.ready !== undefined);
    assert.equal(await page.evaluate(() => document.body.dataset.ready), '3d', errors.join('\n'));

    // Two players on this device: both arrangements as dealt, then sente's turn.
    await startLocalTurn(page);
    assert.equal(await phase(page), 'turn');
    await page.evaluate(() => window.board3d.settled());

    const moves = await page.evaluate(() => window.gunjinTest.legalMoves());
    assert.ok(moves.length > 0);
    const [from, to] = moves.find(([, t]) => /[be]5$/.test(t)) ?? moves[0];
    const holderBefore = await holder(page, to);
    const fromPoint = await at(page, from);
    const toPoint = await at(page, to);
    assert.ok(fromPoint && toPoint, `${from} and ${to} are on screen`);
    const before = await shot(page);

    await page.mouse.click(fromPoint.x, fromPoint.y);
    await page.evaluate(() => window.board3d.settled());
    const picked = await page.evaluate(
      (sq) => document.querySelector(`.cell[data-square="${sq}"]`)?.classList.contains('selected') ?? false,
      from,
    );
    assert.ok(picked, `the click picked ${from} (the grid shows it too)`);
    const target = await at(page, to);
    await page.mouse.click(target.x, target.y);
    await page.waitForFunction(() => window.gunjinTest?.phase() !== 'turn');
    assert.equal(await phase(page), 'moved', 'the click on the 3D board played the move');
    await at(page, from);
    await page.evaluate(() => window.board3d.settled());
    const image = await shot(page);

    assert.equal(await holder(page, from), 'empty', 'the mover left its square');
    const fromChange = colorDistance(meanColor(before, fromPoint.x, fromPoint.y), meanColor(image, fromPoint.x, fromPoint.y));
    assert.ok(fromChange > 30, `${from} redrawn (${fromChange})`);
    const holderAfter = await holder(page, to);
    t.diagnostic(`${from}→${to}: ${to} held by ${holderBefore}, now ${holderAfter}`);
    if (holderAfter !== holderBefore) {
      const landed = (await at(page, to)) ?? toPoint;
      const [was, now] = [meanColor(before, toPoint.x, toPoint.y), meanColor(image, landed.x, landed.y)];
      // A piece that just moved is lit up, so the winner's vermilion may be about as light as the
      // wood it replaced: the redness tells them apart then.
      const redness = ([r, g]) => r - g;
      const toChange = Math.max(colorDistance(was, now), Math.abs(redness(now) - redness(was)));
      assert.ok(toChange > 30, `${to} redrawn: ${holderBefore} → ${holderAfter} (${toChange}; ${was} → ${now})`);
    }
    assert.deepEqual(errors, []);
    await page.close();
  });
});

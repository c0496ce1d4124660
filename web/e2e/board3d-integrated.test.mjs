// The real game page (index.html, served by the real server) with its 3D board: the board shows,
// a move picked on it plays and redraws both squares, the view buttons and the language switch
// work, the board is never handed a hidden name, gote looks from gote's side; and with WebGL
// disabled the page says so and the button grid alone plays.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openPage, pressSquare, startBrowser, startLocalTurn, startServer } from '../e2e-support/game.mjs';
import { meanColor, paintedShot } from '../e2e-support/png.mjs';

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await startBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const isWood = ([r, g, b]) => r > 150 && r > g && g > b && r - b > 50;
const isWater = ([r, g, b]) => b > r + 30 && b > 100;
const isVermilion = ([r, g, b]) => r > 120 && r > g + 60 && r > b + 60;

const phase = (page) => page.evaluate(() => window.gunjinTest?.phase());
const settled = (page) => page.evaluate(() => window.gunjinBoard3D.settled());
const shot = paintedShot;

/** The page once its 3D board has mounted (or been found impossible): 'on' or 'off'. */
async function board3d(page) {
  await page.waitForFunction(() => document.body.dataset.board3d !== undefined);
  return page.evaluate(() => document.body.dataset.board3d);
}

/** A square's point on the 3D board, with the canvas scrolled into view first. */
async function at(page, square) {
  await page.evaluate(() => {
    const canvas = document.querySelector('.board3d-canvas');
    const top = canvas.getBoundingClientRect().top + window.scrollY;
    window.scrollTo(0, Math.max(0, top - 10));
  });
  await settled(page);
  return page.evaluate((sq) => window.gunjinBoard3D.screenPosition(sq), square);
}

/** Share of pixels that differ by more than `tolerance` in some channel. */
function changedShare(a, b, tolerance = 24) {
  let changed = 0;
  const n = a.width * a.height;
  for (let i = 0; i < n * 4; i += 4) {
    const d = Math.max(Math.abs(a.data[i] - b.data[i]), Math.abs(a.data[i + 1] - b.data[i + 1]), Math.abs(a.data[i + 2] - b.data[i + 2]));
    if (d > tolerance) changed++;
  }
  return changed / n;
}

/**
 * Share of the pixels in a box around a point that changed: a piece that leaves or lands changes
 * a good part of its square's box (its faces, its name, its shadow; ~20–90% seen), even where
 * gote's plain-wood piece and the wooden board have close mean colours. An untouched square
 * redraws to the same pixels (0%).
 */
function boxChange(a, b, p, radius = 14) {
  let changed = 0;
  let n = 0;
  for (let y = Math.round(p.y) - radius; y <= Math.round(p.y) + radius; y++) {
    for (let x = Math.round(p.x) - radius; x <= Math.round(p.x) + radius; x++) {
      const i = (y * a.width + x) * 4;
      const d = Math.max(Math.abs(a.data[i] - b.data[i]), Math.abs(a.data[i + 1] - b.data[i + 1]), Math.abs(a.data[i + 2] - b.data[i + 2]));
      if (d > 24) changed++;
      n++;
    }
  }
  return changed / n;
}

function midpoint(a, b) {
  return { x: Math.round((a.x + b.x) / 2), y: Math.round((a.y + b.y) / 2) };
}

/** Who holds a square according to the button grid: 'own', 'enemy' or 'empty'. */
const holder = (page, square) =>
  page.evaluate((sq) => {
    const cell = document.querySelector(`.cell[data-square="${sq}"]`);
    if (!cell) return 'missing';
    return cell.classList.contains('own') ? 'own' : cell.classList.contains('enemy') ? 'enemy' : 'empty';
  }, square);

/**
 * Records every state the page hands the 3D board, with the phase at that moment, so the test
 * can check that no hidden name ever reached it.
 */
async function spyOnBoard(page) {
  await page.evaluate(() => {
    const board = window.gunjinBoard3D;
    const setState = board.setState.bind(board);
    window.boardStates = [];
    board.setState = (state) => {
      window.boardStates.push({ phase: window.gunjinTest?.phase(), state: JSON.parse(JSON.stringify(state)) });
      setState(state);
    };
  });
}

async function leaksToBoard(page) {
  const states = await page.evaluate(() => window.boardStates);
  assert.ok(states.length > 0, 'the page drives the 3D board');
  const leaks = [];
  for (const { phase: p, state } of states) {
    for (const piece of state.pieces) {
      const named = piece.label !== undefined || piece.kind !== undefined;
      if (!named) continue;
      if (p.endsWith('curtain')) leaks.push(`${p}: ${piece.square} named behind the curtain`);
      else if (piece.side !== state.viewer && p !== 'over') leaks.push(`${p}: enemy ${piece.square} named for ${state.viewer}`);
    }
  }
  return { leaks, states };
}

/** Clicks the curtain's button and waits for the board to settle. */
async function reveal(page) {
  await page.click('.curtain button');
  await settled(page);
}

describe('the game page with its 3D board', () => {
  it('shows the board, plays moves picked on it, and never shows a hidden name', async (t) => {
    const page = await openPage(browser, server.url);
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    assert.equal(await board3d(page), 'on', 'WebGL works in this Chromium');
    await spyOnBoard(page);

    // The main view: a named canvas with the view buttons; the button grid is a section below.
    assert.equal(await page.getAttribute('.board3d-canvas', 'aria-label'), '3D board: drag to turn it (two fingers on a touch screen), wheel or pinch to zoom; click a piece, then its destination');
    assert.equal((await page.textContent('button[data-view=diagonal]')).trim(), 'Slanted view');
    assert.equal((await page.textContent('button[data-view=top]')).trim(), 'From above');
    assert.match(await page.textContent('.grid-heading'), /^Button board/);
    assert.equal(await page.isVisible('.no3d-note'), false, 'no WebGL note where WebGL works');
    // Before a game the grid, empty, is not drawn: the modes follow the 3D board.
    assert.equal(await page.isVisible('.grid'), false);

    // The empty board of the start screen: wood on the squares, water between rows 4 and 5.
    await at(page, 'a1');
    let image = await shot(page);
    if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/start.png` });
    for (const square of ['a1', 'c3', 'f4', 'b5', 'e7', 'cd8']) {
      const p = await at(page, square);
      assert.ok(isWood(meanColor(image, p.x, p.y)), `${square} looks like wood: ${meanColor(image, p.x, p.y)}`);
    }
    for (const column of ['a', 'c', 'f']) {
      const river = midpoint(await at(page, `${column}4`), await at(page, `${column}5`));
      assert.ok(isWater(meanColor(image, river.x, river.y, 2)), `river at column ${column}`);
    }

    // Two players on this device: both arrangements as dealt, then sente's turn.
    await startLocalTurn(page, reveal);
    const canvasBox = await page.locator('.board3d-canvas').boundingBox();
    const gridBox = await page.locator('.grid').boundingBox();
    assert.ok(canvasBox.height > 300 && gridBox.y >= canvasBox.y + canvasBox.height - 1, 'the 3D board is on top, the grid below');
    assert.equal(await phase(page), 'turn');
    await at(page, 'a1');
    image = await shot(page);
    if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/turn.png` });
    for (const square of ['a1', 'c2', 'f3']) {
      const p = await at(page, square);
      assert.ok(isVermilion(meanColor(image, p.x, p.y)), `sente's vermilion piece on ${square}`);
    }
    const sente = { a1: await at(page, 'a1'), f8: await at(page, 'f8') };
    assert.ok(sente.a1.y > sente.f8.y, 'sente looks from row 1');

    // Play by clicking the 3D board until a move lands on an empty square (the first moves are
    // battles: both camps start full); every move redraws its starting square, and a move into
    // an empty square redraws its destination too. Hot seat: the curtain and the other side.
    let checkedBoth = false;
    let checkedGote = false;
    let checkedCurtainTabs = false;
    // Every shader is built before the first pick (building the highlights' at that moment stalled
    // a slow GPU for most of a second): picks, moves and battles need no new one.
    const programs = () => page.evaluate(() => window.gunjinBoard3D.renderer.info.programs.length);
    const programsAtStart = await programs();
    for (let ply = 0; ply < 12 && !checkedBoth; ply++) {
      const moves = await page.evaluate(() => window.gunjinTest.legalMoves());
      assert.ok(moves.length > 0, 'a legal move exists');
      const empties = [];
      for (const [, to] of moves) if ((await holder(page, to)) === 'empty') empties.push(to);
      const [from, to] = moves.find(([, sq]) => empties.includes(sq)) ?? moves[0];
      const intoEmpty = empties.includes(to);
      const fromPoint = await at(page, from);
      const toPoint = await at(page, to);
      const before = await shot(page);
      await page.mouse.click(fromPoint.x, fromPoint.y);
      await settled(page);
      const picked = await page.evaluate((sq) => document.querySelector(`.cell[data-square="${sq}"]`)?.classList.contains('selected'), from);
      assert.ok(picked, `the click on the 3D board picked ${from}; the grid shows it too`);
      if (ply === 0) {
        // Escape lets go of it, as on the grid, though the click left the focus on the page.
        await page.keyboard.press('Escape');
        assert.equal(await page.$('.cell.selected'), null, 'Escape let go of the piece picked on the 3D board');
        await page.mouse.click(fromPoint.x, fromPoint.y);
        await settled(page);
      }
      const target = await at(page, to);
      await page.mouse.click(target.x, target.y);
      await page.waitForFunction(() => window.gunjinTest?.phase() !== 'turn');
      assert.equal(await phase(page), 'moved', `${from}→${to} played from the 3D board`);
      // Now empty, the square's point is its centre on the board; before, it was the middle of
      // the piece, where a piece of the same colour standing behind may show once it has left.
      const fromCentre = await at(page, from);
      const after = await shot(page);
      assert.equal(await holder(page, from), 'empty', 'the mover left its square');
      const fromChange = Math.max(boxChange(before, after, fromPoint), boxChange(before, after, fromCentre));
      assert.ok(fromChange > 0.08, `${from} redrawn (${fromChange} of its pixels changed)`);
      if (intoEmpty) {
        const toChange = boxChange(before, after, toPoint);
        assert.ok(toChange > 0.08, `${to} redrawn (${toChange} of its pixels changed)`);
        t.diagnostic(`${from}→${to} into an empty square: both squares redrawn (${fromChange}, ${toChange})`);
        checkedBoth = true;
      }
      // Hand over: the curtain, then the other side looks, from its own side of the board.
      await page.click('[data-focus-key="hand-over"]');
      assert.equal(await phase(page), 'turn-curtain');
      if (!checkedCurtainTabs) {
        // Behind the curtain the keyboard reaches nothing on the board, the 3D view's buttons
        // included: a whole round of Tab stops only outside the stage or on the curtain.
        const stops = [];
        for (let i = 0; i < 40; i++) {
          await page.keyboard.press('Tab');
          stops.push(await page.evaluate(() => {
            const el = document.activeElement;
            return el?.closest('.board-stage') && !el.closest('.curtain') ? el.textContent || el.className : null;
          }));
        }
        assert.deepEqual(stops.filter((s) => s !== null), [], 'nothing under the curtain takes the focus');
        checkedCurtainTabs = true;
      }
      await reveal(page);
      if (!checkedGote && (await page.evaluate(() => window.boardStates.at(-1).state.viewer)) === 'gote') {
        const gote = { a1: await at(page, 'a1'), f8: await at(page, 'f8') };
        assert.ok(gote.a1.y < gote.f8.y && gote.a1.x > gote.f8.x, `gote looks from row 8: ${JSON.stringify(gote)}`);
        checkedGote = true;
      }
    }
    assert.ok(checkedBoth, 'a move into an empty square was played on the 3D board');
    assert.equal(await programs(), programsAtStart, 'no shader was built during play');
    assert.ok(checkedGote, "gote's turn came");
    assert.ok(checkedCurtainTabs, 'the curtain came down during play');

    const { leaks, states } = await leaksToBoard(page);
    assert.deepEqual(leaks, [], 'no hidden name reached the 3D board');
    assert.ok(states.some((s) => s.phase === 'turn-curtain'), 'the curtain phases were seen');
    assert.ok(states.some((s) => s.state.pieces.some((p) => p.label !== undefined)), 'own names were passed');
    // Long English names go on the pieces' faces short; the grid says them in full.
    const faces = new Map(states.flatMap((s) => s.state.pieces).filter((p) => p.label !== undefined).map((p) => [p.kind, p.label]));
    assert.equal(faces.get('lieutenant_general'), 'Lt. Gen.');
    assert.equal(faces.get('spy'), 'Spy');
    const square = states.at(-1).state.pieces.find((p) => p.kind === 'lieutenant_general')?.square;
    if (square !== undefined) {
      assert.match(await page.$eval(`.cell[data-square="${square}"]`, (el) => el.getAttribute('aria-label')), /lieutenant general/i);
    }
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('on a phone: no empty grid before a game, and the game begins with the 3D board in view', async () => {
    const page = await openPage(browser, server.url, { viewport: { width: 390, height: 664 } });
    assert.equal(await board3d(page), 'on');
    // Before a game the 3D board shows the board; the grid, empty, is not drawn below it.
    assert.equal(await page.isVisible('.grid-section'), false);
    const modesTop = await page.$eval('.mode-button', (el) => el.getBoundingClientRect().top + scrollY);
    const boardBottom = await page.$eval('.board3d-mount', (el) => el.getBoundingClientRect().bottom + scrollY);
    assert.ok(modesTop - boardBottom < 200, `the modes follow the board: ${boardBottom} → ${modesTop}`);
    // A mode chosen below the board: the game starts with the 3D board in view.
    await page.click('.mode-button[data-mode="cpu-intermediate"]');
    assert.ok(await page.evaluate(() => scrollY) > 0, 'the click scrolled down to the mode');
    const box = await page.$eval('.board3d-mount', (el) => ({ top: el.getBoundingClientRect().top, bottom: el.getBoundingClientRect().bottom }));
    assert.ok(box.top >= 0 && box.bottom <= 664, JSON.stringify(box));
    assert.equal(await page.isVisible('.grid-section'), true);
    await page.close();
  });

  it('on a phone: the end shows the review’s controls with the board, a record line tapped shows its board, and choosing the mode again its heading', async () => {
    const page = await openPage(browser, server.url, { viewport: { width: 390, height: 844 } });
    await page.click('.mode-button[data-mode="cpu-beginner"]');
    await page.click('[data-focus-key="confirm"]');
    await page.waitForFunction(() => window.gunjinTest?.phase() === 'turn');
    const [from, to] = (await page.evaluate(() => window.gunjinTest.legalMoves()))[0];
    await page.click(`.cell[data-square="${from}"]`);
    await page.click(`.cell[data-square="${to}"]`);
    await page.waitForFunction(() => window.gunjinTest?.phase() === 'turn');
    await page.click('[data-focus-key="resign"]');
    assert.equal(await phase(page), 'over');
    const inView = (selector) =>
      page.$eval(selector, (el) => {
        const r = el.getBoundingClientRect();
        const strip = document.querySelector('[data-status-strip]');
        const pinned = strip.hidden ? 0 : strip.offsetHeight;
        return r.top >= -1 && r.bottom <= innerHeight - pinned + 1;
      });
    assert.ok(await inView('.review-bar'), 'the review controls are in view');
    assert.ok(await inView('.board3d-mount'), 'the board is in view');
    await page.click('.log-box summary');
    await page.$eval('[data-focus-key="log-1"]', (el) => el.scrollIntoView());
    assert.equal(await inView('.board3d-mount'), false);
    await page.click('[data-focus-key="log-1"]');
    assert.equal(await page.getAttribute('.review', 'data-review-at'), '1');
    assert.ok(await inView('.board3d-mount'), 'the board the line sets is in view');
    await page.click('[data-focus-key="choose-mode"]');
    assert.ok(await page.$eval('.panel h2', (el) => el.getBoundingClientRect().top >= -1 && el.getBoundingClientRect().top < 100), 'the mode choice from its heading');
    await page.close();
  });

  it('brings the grid square that takes the focus into view for a keyboard player, not a pointer one', async () => {
    const page = await openPage(browser, server.url, { viewport: { width: 1280, height: 800 } });
    assert.equal(await board3d(page), 'on');
    const focusedInView = () =>
      page.evaluate(() => {
        const el = document.activeElement;
        const box = el.getBoundingClientRect();
        return el.classList.contains('cell') && box.top >= 0 && box.bottom <= window.innerHeight;
      });
    // With the mouse: the player looks at the 3D board, and the page stays where it is.
    await page.click('.mode-button[data-mode="cpu-beginner"]');
    assert.equal(await phase(page), 'setup');
    assert.equal(await page.evaluate(() => window.scrollY), 0);
    assert.equal(await focusedInView(), false, 'the grid starts below the screen at this size');
    // With the keys: the focus is where the player can see it.
    await page.focus('[data-focus-key="confirm"]');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.gunjinTest?.phase() === 'turn');
    await page.waitForFunction(() => document.activeElement?.classList.contains('cell'));
    assert.equal(await focusedInView(), true);
    await page.close();
  });

  it('leaves the keyboard on the button grid, and draws what the grid plays', async () => {
    const page = await openPage(browser, server.url);
    assert.equal(await board3d(page), 'on');
    await startLocalTurn(page, reveal);
    assert.equal(await phase(page), 'turn');
    assert.ok(await page.evaluate(() => document.activeElement?.classList.contains('cell')), "the turn starts with the focus on the grid");
    const [from, to] = (await page.evaluate(() => window.gunjinTest.legalMoves()))[0];
    const fromPoint = await at(page, from);
    const before = await shot(page);
    await pressSquare(page, from);
    await pressSquare(page, to);
    assert.equal(await phase(page), 'moved', `${from}→${to} played with the keyboard on the grid`);
    await at(page, from);
    const after = await shot(page);
    const change = boxChange(before, after, fromPoint);
    assert.ok(change > 0.08, `the 3D board shows ${from} emptied (${change} of its pixels changed)`);
    await page.close();
  });

  it('zooms with a wheel turned over the board, and leaves to the page a wheel that was scrolling it', async () => {
    const page = await openPage(browser, server.url);
    assert.equal(await board3d(page), 'on');
    // In a game, with the grid below the board.
    await startLocalTurn(page, reveal);
    assert.ok(await page.evaluate(() => document.documentElement.scrollHeight > window.innerHeight), 'the page is taller than the window');
    // (Finding a square scrolls the canvas into view: the page is where it stays from here on.)
    const width = async () => { const a = await at(page, 'a4'); const f = await at(page, 'f4'); return Math.hypot(f.x - a.x, f.y - a.y); };
    const base = await width();
    const box = await page.$eval('.board3d-canvas', (c) => { const r = c.getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; });
    const top = await page.evaluate(() => window.scrollY);
    const seen = () => page.evaluate(() => {
      const a = window.gunjinBoard3D.screenPosition('a4');
      const f = window.gunjinBoard3D.screenPosition('f4');
      return Math.hypot(f.x - a.x, f.y - a.y);
    });
    // The wheel turned over the board: the board zooms out, the page stays.
    await page.mouse.move(box.x, box.y);
    await page.mouse.wheel(0, 300);
    await settled(page);
    assert.equal(await page.evaluate(() => window.scrollY), top, 'the wheel zooms, the page stays');
    const smaller = await seen();
    assert.ok(smaller < base, `the board is smaller: ${base} → ${smaller}`);
    assert.ok(await page.$eval('.board3d-hint', (el) => el.hidden), 'no hint for a zoom');
    // Ctrl and the wheel zoom too (and not the browser's page zoom).
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, 300);
    await page.keyboard.up('Control');
    await settled(page);
    assert.equal(await page.evaluate(() => window.scrollY), top, 'Ctrl and the wheel zoom, the page stays');
    const smallest = await seen();
    assert.ok(smallest < smaller, `smaller still: ${smaller} → ${smallest}`);
    // A pause ends that turn of the wheel. One begun off the board scrolls the page, and goes on
    // scrolling it over the board, leaving the zoom; the board says how to zoom.
    await page.waitForTimeout(800);
    const off = await page.evaluate(() => {
      const canvas = document.querySelector('.board3d-canvas');
      for (let y = window.innerHeight - 5; y > 0; y -= 20) {
        for (let x = 5; x < window.innerWidth; x += 40) {
          const el = document.elementFromPoint(x, y);
          if (el !== null && el !== canvas && !canvas.contains(el)) return { x, y };
        }
      }
      return null;
    });
    assert.ok(off, 'a point off the board in the window');
    await page.mouse.move(off.x, off.y);
    await page.mouse.wheel(0, 100);
    await page.mouse.move(box.x, box.y);
    await page.mouse.wheel(0, 300);
    await page.waitForFunction((y) => window.scrollY > y, top, { timeout: 5000 });
    assert.equal(Math.round(await seen()), Math.round(smallest), 'the scrolling wheel left the zoom as it was');
    const hint = await page.$eval('.board3d-hint', (el) => ({ hidden: el.hidden, text: el.textContent, aria: el.getAttribute('aria-hidden') }));
    assert.deepEqual(hint, { hidden: false, text: 'Stop scrolling, then turn the wheel over the board to zoom it', aria: 'true' });
    await page.waitForFunction(() => document.querySelector('.board3d-hint').hidden, null, { timeout: 5000 });
    await page.close();
  });

  it('fits the whole board, its view buttons and the button board in a wide, low window (a laptop, a phone held sideways)', async () => {
    for (const viewport of [{ width: 1366, height: 650 }, { width: 844, height: 390 }]) {
      const page = await openPage(browser, server.url, { lang: 'ja', viewport });
      await startLocalTurn(page, reveal);
      assert.equal(await board3d(page), 'on');
      // A move played, so the status strip of a narrow screen has its reports to show.
      const [from, to] = await page.evaluate(() => window.gunjinTest.legalMoves()[0]);
      await page.click(`.cell[data-square="${from}"]`);
      await page.click(`.cell[data-square="${to}"]`);
      assert.equal(await phase(page), 'moved');
      const fit = await page.evaluate(() => {
        const bar = document.querySelector('.board3d-bar').getBoundingClientRect();
        const canvas = document.querySelector('.board3d-canvas').getBoundingClientRect();
        window.scrollTo(0, bar.top + window.scrollY);
        return { tall: canvas.bottom - bar.top };
      });
      assert.ok(fit.tall <= viewport.height, `${viewport.width}×${viewport.height}: buttons and board take ${fit.tall} px`);
      // Nothing is pinned over the board (a narrow screen's status strip follows it here).
      const covered = await page.evaluate(() => {
        const strip = document.querySelector('.status-strip');
        const canvas = document.querySelector('.board3d-canvas').getBoundingClientRect();
        if (strip === null || getComputedStyle(strip).display === 'none') return false;
        const r = strip.getBoundingClientRect();
        return r.top < canvas.bottom && r.bottom > canvas.top && r.left < canvas.right && r.right > canvas.left;
      });
      assert.equal(covered, false, `${viewport.width}×${viewport.height}: the status strip covers the board`);
      if (viewport.width < 900) {
        // The phone held sideways: the strip's news stands beside the board, on screen with it,
        // not after the whole button grid.
        const beside = await page.evaluate(() => {
          const strip = document.querySelector('.status-strip').getBoundingClientRect();
          const canvas = document.querySelector('.board3d-canvas').getBoundingClientRect();
          return { left: strip.left - canvas.right, top: strip.top, bottom: strip.bottom };
        });
        assert.ok(beside.left >= 0 && beside.top >= 0 && beside.bottom <= viewport.height, `the strip beside the board: ${JSON.stringify(beside)}`);
        // Behind the curtain the strip is empty; the board keeps its width (it had widened and
        // narrowed at every hand-over).
        const width = () => page.$eval('.board3d-canvas', (c) => Math.round(c.getBoundingClientRect().width));
        const before = await width();
        await page.click('[data-strip-action="hand-over"]');
        assert.equal(await phase(page), 'turn-curtain');
        assert.equal(await width(), before);
      }
      // The button board below it fits the window's height too.
      const grid = await page.$eval('.grid', (g) => g.getBoundingClientRect().height);
      assert.ok(grid <= viewport.height, `${viewport.width}×${viewport.height}: the button board takes ${grid} px`);
      await settled(page);
      const canvas = await page.$eval('.board3d-canvas', (c) => c.getBoundingClientRect().toJSON());
      for (const corner of ['a1', 'f1', 'a8', 'f8']) {
        const p = await page.evaluate((sq) => window.gunjinBoard3D.screenPosition(sq), corner);
        const inside = p.x > canvas.left && p.x < canvas.right && p.y > canvas.top && p.y < canvas.bottom;
        assert.ok(inside, `${viewport.width}×${viewport.height}: ${corner} at ${p.x},${p.y} is outside the board's frame ${JSON.stringify(canvas)}`);
      }
      await page.close();
    }
  });

  it('scrolls the page under one finger on the board of a touch screen, and turns nothing', async () => {
    const page = await openPage(browser, server.url, { viewport: { width: 390, height: 844 }, hasTouch: true });
    await startLocalTurn(page, reveal);
    assert.equal(await board3d(page), 'on');
    await page.evaluate(() => document.querySelector('.board3d-bar').scrollIntoView({ block: 'start' }));
    const top = await page.evaluate(() => window.scrollY);
    const camera = () => page.evaluate(() => window.gunjinBoard3D.camera.position.toArray().map((v) => v.toFixed(5)).join(' '));
    const before = await camera();
    const box = await page.$eval('.board3d-canvas', (c) => c.getBoundingClientRect().toJSON());
    const cdp = await page.context().newCDPSession(page);
    const x = box.left + box.width / 2;
    const y = box.top + box.height * 0.8;
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
    for (let i = 1; i <= 10; i++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y: y - i * 25 }] });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await page.waitForFunction((t) => window.scrollY > t + 50, top, { timeout: 5000 });
    await settled(page);
    // The board moved up with the page, and only that: not turned, not tilted.
    assert.equal(await camera(), before);
    assert.equal(await phase(page), 'turn');
    await page.close();
  });

  it('keeps the whole board in its frame when the player tilts it as steep as it goes or turns it a quarter', async () => {
    for (const viewport of [{ width: 1366, height: 768 }, { width: 390, height: 844 }]) {
      const page = await openPage(browser, server.url, { lang: 'ja', viewport });
      await startLocalTurn(page, reveal);
      assert.equal(await board3d(page), 'on');
      const canvas = await page.$eval('.board3d-canvas', (c) => c.getBoundingClientRect().toJSON());
      const drag = async (dx, dy) => {
        const x = canvas.left + canvas.width / 2;
        const y = canvas.top + canvas.height / 2;
        await page.mouse.move(x, y);
        await page.mouse.down();
        for (let i = 1; i <= 12; i++) await page.mouse.move(x + (i * dx) / 12, y + (i * dy) / 12);
        await page.mouse.up();
        await settled(page);
      };
      const outside = async () => {
        const out = [];
        for (const sq of ['a1', 'f1', 'a8', 'f8']) {
          const p = await page.evaluate((s) => window.gunjinBoard3D.screenPosition(s), sq);
          if (!(p && p.x > canvas.left && p.x < canvas.right && p.y > canvas.top && p.y < canvas.bottom)) out.push(sq);
        }
        return out;
      };
      await drag(0, canvas.height);
      assert.deepEqual(await outside(), [], `${viewport.width}×${viewport.height}: tilted steep`);
      await page.click('button[data-view=diagonal]');
      await settled(page);
      await drag(canvas.height / 4, 0);
      assert.deepEqual(await outside(), [], `${viewport.width}×${viewport.height}: a quarter turn`);
      await page.close();
    }
  });

  it('switches between the slanted and top views, and follows the language', async () => {
    const page = await openPage(browser, server.url);
    assert.equal(await board3d(page), 'on');
    const slant = [await at(page, 'a1'), await at(page, 'a8')];
    assert.ok(Math.abs(slant[0].x - slant[1].x) > 20, 'the slanted view converges');
    assert.equal(await page.getAttribute('button[data-view=diagonal]', 'aria-pressed'), 'true');
    // The buttons sit at the board's top right, just above it rather than over its far corner
    // (where, on a phone, they hid pieces).
    const boxes = await page.evaluate(() =>
      ['.board3d-canvas', 'button[data-view=diagonal]', 'button[data-view=top]'].map((sel) => {
        const r = document.querySelector(sel).getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
      }),
    );
    const [canvas, ...buttons] = boxes;
    for (const b of buttons) {
      assert.ok(b.bottom <= canvas.top && canvas.top - b.bottom < 20, `a view button just above the canvas: ${JSON.stringify(boxes)}`);
      assert.ok(b.left > (canvas.left + canvas.right) / 2 && b.right <= canvas.right + 1, `a view button on the right: ${JSON.stringify(boxes)}`);
    }
    const before = await shot(page);

    await page.click('button[data-view=top]');
    await settled(page);
    assert.equal(await page.getAttribute('button[data-view=top]', 'aria-pressed'), 'true');
    assert.equal(await page.getAttribute('button[data-view=diagonal]', 'aria-pressed'), 'false');
    const flat = [await at(page, 'a1'), await at(page, 'a8')];
    assert.ok(Math.abs(flat[0].x - flat[1].x) < 3, `the top view looks straight down: ${JSON.stringify(flat)}`);
    const top = await shot(page);
    const share = changedShare(before, top);
    assert.ok(share > 0.05, `the picture changed (${share})`);
    // The view chosen comes back with the page.
    await page.reload();
    assert.equal(await board3d(page), 'on');
    assert.equal(await page.getAttribute('button[data-view=top]', 'aria-pressed'), 'true');
    const again = [await at(page, 'a1'), await at(page, 'a8')];
    assert.ok(Math.abs(again[0].x - again[1].x) < 3, `from above after a reload: ${JSON.stringify(again)}`);

    await page.click('button[data-view=diagonal]');
    await settled(page);
    const back = [await at(page, 'a1'), await at(page, 'a8')];
    assert.ok(Math.abs(back[0].x - slant[0].x) < 2 && Math.abs(back[1].y - slant[1].y) < 2, 'back to the slanted view');

    // The language switch reaches the 3D board's buttons and name.
    await page.selectOption('select.lang', 'ja');
    assert.equal((await page.textContent('button[data-view=diagonal]')).trim(), '斜めから');
    assert.equal((await page.textContent('button[data-view=top]')).trim(), '真上から');
    assert.match(await page.getAttribute('.board3d-canvas', 'aria-label'), /^3D の盤/);
    await page.selectOption('select.lang', 'ko');
    assert.equal((await page.textContent('button[data-view=top]')).trim(), '위에서');
    // The notice over a board whose drawing the browser lost is in the page's language too.
    await page.evaluate(() => {
      window.lostContext = document.querySelector('.board3d-canvas').getContext('webgl2').getExtension('WEBGL_lose_context');
      window.lostContext.loseContext();
    });
    await page.waitForSelector('.board3d-lost', { state: 'visible' });
    assert.match(await page.textContent('.board3d-lost'), /3D 게임판 표시가 멈췄습니다/);
    await page.evaluate(() => window.lostContext.restoreContext());
    await page.waitForSelector('.board3d-lost', { state: 'hidden' });
    await page.close();
  });
});

describe('the game page without WebGL', () => {
  let plain;
  before(async () => {
    plain = await startBrowser(['--disable-webgl', '--disable-3d-apis']);
  });
  after(async () => {
    await plain?.close();
  });

  it('says so once, and the button grid alone plays a move', async () => {
    const page = await openPage(plain, server.url);
    assert.equal(await board3d(page), 'off');
    assert.equal(await page.locator('.no3d-note').count(), 1);
    assert.equal(await page.isVisible('.no3d-note'), true);
    assert.match(await page.textContent('.no3d-note'), /cannot show the 3D board \(WebGL is unavailable\)/);
    assert.equal(await page.locator('canvas').count(), 0, 'no canvas');
    assert.equal(await page.isVisible('.board3d-mount'), false);
    // The button board keeps its section heading: it is the whole board here.
    assert.equal(await page.isVisible('.grid-heading'), true);
    assert.equal((await page.textContent('.grid-heading')).trim(), 'Button board (the same game, square by square)');

    await startLocalTurn(page);
    assert.equal(await phase(page), 'turn');
    const [from, to] = (await page.evaluate(() => window.gunjinTest.legalMoves()))[0];
    await page.click(`.cell[data-square="${from}"]`);
    await page.click(`.cell[data-square="${to}"]`);
    assert.equal(await phase(page), 'moved', `${from}→${to} played on the grid`);
    assert.equal(await holder(page, from), 'empty');
    // Still said once, in the current language.
    await page.selectOption('select.lang', 'ja');
    assert.equal(await page.locator('.no3d-note').count(), 1);
    assert.match(await page.textContent('.no3d-note'), /WebGL/);
    assert.equal((await page.textContent('.grid-heading')).trim(), 'ボタンで操作');
    await page.close();
  });
});

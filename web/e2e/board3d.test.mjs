// Browser tests of the 3D board alone, on its own test page (e2e-support/board3d.html) in headless
// Chromium with SwiftShader WebGL. Pixels are read from real screenshots.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildHarness, launch, serve } from '../e2e-support/board3d-harness.mjs';
import { colorDistance, meanColor, paintedShot, pixel } from '../e2e-support/png.mjs';

const VIEWPORT = { width: 800, height: 700 };

let dir;
let server;
let browser;

before(async () => {
  dir = await buildHarness();
  server = await serve(dir);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (dir) {
    const { rm } = await import('node:fs/promises');
    await rm(dir, { recursive: true, force: true });
  }
});

async function openBoard(query = 'reduced=1', reducedMotion = 'no-preference', hasTouch = false) {
  const page = await browser.newPage({ viewport: VIEWPORT, deviceScaleFactor: 1, reducedMotion, hasTouch });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${server.url}/e2e-support/board3d.html?${query}`);
  await page.waitForFunction(() => window.board3dStatus !== undefined);
  assert.equal(await page.evaluate(() => window.board3dStatus), 'ready', errors.join('\n'));
  page.errors = errors;
  return page;
}

async function setState(page, state) {
  await page.evaluate(async (s) => {
    window.board3d.setState(s);
    await window.board3d.settled();
  }, state);
}

/** Frames the board draws for `states`, handed to it one after another at once, until it settles. */
async function framesFor(page, ...states) {
  return page.evaluate(async (list) => {
    const before = window.board3d.renderCount;
    for (const s of list) window.board3d.setState(s);
    await window.board3d.settled();
    return window.board3d.renderCount - before;
  }, states);
}

async function settled(page) {
  await page.evaluate(() => window.board3d.settled());
}

const shot = paintedShot;

async function at(page, square) {
  const p = await page.evaluate((sq) => window.board3d.screenPosition(sq), square);
  assert.ok(p, `${square} is on screen`);
  return p;
}

async function clicks(page) {
  return page.evaluate(() => window.board3dClicks.slice());
}

const state = (over = {}) => ({
  viewer: 'sente',
  pieces: [],
  moveTargets: [],
  attackTargets: [],
  ...over,
});

const isWood = ([r, g, b]) => r > 150 && r > g && g > b && r - b > 50;
const isWater = ([r, g, b]) => b > r + 30 && b > 100;
const isVermilion = ([r, g, b]) => r > 120 && r > g + 60 && r > b + 60;

/** Share of pixels that differ by more than `tolerance` in some channel. */
function changedShare(a, b, tolerance = 24) {
  let changed = 0;
  const n = a.width * a.height;
  for (let i = 0; i < n * 4; i += 4) {
    if (
      Math.abs(a.data[i] - b.data[i]) > tolerance ||
      Math.abs(a.data[i + 1] - b.data[i + 1]) > tolerance ||
      Math.abs(a.data[i + 2] - b.data[i + 2]) > tolerance
    ) {
      changed++;
    }
  }
  return changed / n;
}

/** Pixels in a box around a point that satisfy `test`. */
function countPixels(image, center, radius, test) {
  let n = 0;
  for (let y = center.y - radius; y <= center.y + radius; y++) {
    for (let x = center.x - radius; x <= center.x + radius; x++) {
      if (test(pixel(image, x, y))) n++;
    }
  }
  return n;
}

function midpoint(a, b, t = 0.5) {
  return { x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t };
}

describe('3D board', () => {
  it('draws a wooden board with the river between rows 4 and 5', async () => {
    const page = await openBoard();
    await setState(page, state());
    const image = await shot(page);
    for (const square of ['a1', 'c3', 'f4', 'b5', 'e7', 'f8', 'cd1', 'cd8']) {
      const color = meanColor(image, ...Object.values(await at(page, square)));
      assert.ok(isWood(color), `${square} looks like wood: ${color}`);
    }
    for (const column of ['a', 'c', 'd', 'f']) {
      const river = midpoint(await at(page, `${column}4`), await at(page, `${column}5`));
      const color = meanColor(image, river.x, river.y, 2);
      assert.ok(isWater(color), `river at column ${column} looks like water: ${color}`);
    }
    for (const column of ['b', 'e']) {
      const bridge = midpoint(await at(page, `${column}4`), await at(page, `${column}5`));
      const color = meanColor(image, bridge.x, bridge.y, 2);
      assert.ok(!isWater(color) && color[0] > color[2], `a bridge crosses at ${column}: ${color}`);
    }
    const corner = pixel(image, 3, 3);
    assert.ok(!isWood(corner) && !isWater(corner), `outside the board is background: ${corner}`);
    // Sente looks from row 1: a1 is bottom left, f8 top right.
    const a1 = await at(page, 'a1');
    const f8 = await at(page, 'f8');
    assert.ok(a1.x < f8.x && a1.y > f8.y, 'sente sees a1 at the bottom left');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  it('writes the column letters and row numbers in the margin, on both sides', async () => {
    const isInk = ([r, g, b]) => r < 150 && !isWater([r, g, b]);
    /** Where a point `t` squares beyond `square`, away from `inward`, falls on screen. */
    const beyond = async (page, square, inward, t = 0.75) => {
      const a = await at(page, square);
      const b = await at(page, inward);
      return { x: Math.round(a.x + (a.x - b.x) * t), y: Math.round(a.y + (a.y - b.y) * t) };
    };
    for (const viewer of ['sente', 'gote']) {
      const page = await openBoard();
      await setState(page, state({ viewer }));
      const image = await shot(page);
      const ink = async (square, inward) => countPixels(image, await beyond(page, square, inward), 6, isInk);
      // The viewer's own edge and left: letters below each column, numbers beside each row.
      const near = viewer === 'sente' ? ['a1', 'a2', 'f1', 'f2', 'a1', 'b1', 'a4', 'b4'] : ['f8', 'f7', 'a8', 'a7', 'f8', 'e8', 'f5', 'e5'];
      for (let i = 0; i < near.length; i += 2) {
        const n = await ink(near[i], near[i + 1]);
        assert.ok(n > 4, `${viewer}: a label beyond ${near[i]} (${n} ink pixels)`);
      }
      // Between two labels the margin is bare wood.
      const between = viewer === 'sente' ? ['a1', 'a2'] : ['f8', 'f7'];
      const a = await at(page, between[0]);
      const b = await at(page, viewer === 'sente' ? 'b1' : 'e8');
      const edge = await beyond(page, between[0], between[1]);
      const gap = { x: Math.round(edge.x + (b.x - a.x) / 2), y: Math.round(edge.y + (b.y - a.y) / 2) };
      assert.ok(countPixels(image, gap, 4, isInk) <= 2, `${viewer}: no label between two columns`);
      assert.deepEqual(page.errors, []);
      await page.close();
    }
  });

  it('shows gote the board from gote\'s side', async () => {
    const page = await openBoard();
    await setState(page, state({ viewer: 'gote' }));
    const a1 = await at(page, 'a1');
    const f8 = await at(page, 'f8');
    assert.ok(a1.x > f8.x && a1.y < f8.y, `gote sees a1 at the top right: ${JSON.stringify({ a1, f8 })}`);
    await page.click('button[data-view=top]');
    await settled(page);
    const top = { a1: await at(page, 'a1'), f8: await at(page, 'f8') };
    assert.ok(top.a1.x > top.f8.x && top.a1.y < top.f8.y, `also from above: ${JSON.stringify(top)}`);
    // Handing the board to sente (hot seat) turns it round.
    await setState(page, state({ viewer: 'sente' }));
    const sente = { a1: await at(page, 'a1'), f8: await at(page, 'f8') };
    assert.ok(sente.a1.x < sente.f8.x && sente.a1.y > sente.f8.y, `sente from above: ${JSON.stringify(sente)}`);
    await page.close();
  });

  it('reports a clicked piece and a clicked destination, then redraws both squares after the move', async () => {
    const page = await openBoard();
    const major = { square: 'b3', side: 'sente', kind: 'major', label: 'Major' };
    const enemy = { square: 'b6', side: 'gote' };
    await setState(page, state({ pieces: [major, enemy] }));

    const piece = await at(page, 'b3');
    await page.mouse.click(piece.x, piece.y);
    assert.deepEqual(await clicks(page), ['b3']);

    // The page answers with the selection and the engine's destinations.
    await setState(page, state({ pieces: [major, enemy], selected: 'b3', moveTargets: ['b4', 'a3', 'c3', 'b2'] }));
    const target = await at(page, 'b4');
    let image = await shot(page);
    const dot = meanColor(image, target.x, target.y, 2);
    assert.ok(dot[1] > dot[0] + 40 && dot[1] > dot[2] + 40, `a green dot marks b4: ${dot}`);
    await page.mouse.click(target.x, target.y);
    assert.deepEqual(await clicks(page), ['b3', 'b4']);

    const before = image;
    await setState(
      page,
      state({ pieces: [{ ...major, square: 'b4' }, enemy], lastMove: { from: 'b3', to: 'b4' } }),
    );
    image = await shot(page);
    const fromBefore = meanColor(before, piece.x, piece.y);
    const fromAfter = meanColor(image, piece.x, piece.y);
    assert.ok(isVermilion(fromBefore), `the piece stood on b3: ${fromBefore}`);
    assert.ok(colorDistance(fromBefore, fromAfter) > 40, `b3 changed: ${fromBefore} → ${fromAfter}`);
    const landed = await at(page, 'b4');
    const toBefore = meanColor(before, landed.x, landed.y);
    const toAfter = meanColor(image, landed.x, landed.y);
    assert.ok(isVermilion(toAfter), `the piece stands on b4: ${toAfter}`);
    assert.ok(colorDistance(toBefore, toAfter) > 40, `b4 changed: ${toBefore} → ${toAfter}`);
    assert.equal(await page.evaluate(({ x, y }) => window.board3d.squareAt(x, y), landed), 'b4');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  it('maps every square of a full board to its screen point and back, in both views and for both sides', async () => {
    const page = await openBoard();
    const squares = [];
    for (let row = 1; row <= 8; row++) {
      for (const column of 'abcdef') {
        if ((row === 1 || row === 8) && column === 'd') continue;
        squares.push((row === 1 || row === 8) && column === 'c' ? `cd${row}` : `${column}${row}`);
      }
    }
    assert.equal(squares.length, 46);
    const pieces = squares
      .filter((sq) => !/[34]$|[56]$/.test(sq))
      .map((sq) => ({ square: sq, side: Number(sq.at(-1)) <= 4 ? 'sente' : 'gote', label: 'Tank' }));
    for (const viewer of ['sente', 'gote']) {
      await setState(page, state({ viewer, pieces }));
      for (const view of ['diagonal', 'top']) {
        await page.evaluate(async (v) => {
          window.board3d.setView(v);
          await window.board3d.settled();
        }, view);
        const wrong = await page.evaluate((all) => {
          const out = [];
          for (const sq of all) {
            const p = window.board3d.screenPosition(sq);
            const back = p ? window.board3d.squareAt(p.x, p.y) : undefined;
            if (back !== sq) out.push(`${sq}→${back}`);
          }
          return out;
        }, squares);
        assert.deepEqual(wrong, [], `${viewer}, ${view}`);
      }
    }
    await page.close();
  });

  it('picks an empty destination just behind a standing piece through its green dot, in gote\'s view', async () => {
    const page = await openBoard();
    // Gote's major on b1 may move to a1, which gote sees just behind a2 (QA's case); the piece on
    // a2 is an enemy it may attack, so a click that went to it would play an unintended attack.
    const major = { square: 'b1', side: 'gote', label: 'Major' };
    const front = { square: 'a2', side: 'sente' };
    const picked = state({ viewer: 'gote', pieces: [major, front], selected: 'b1', moveTargets: ['a1'], attackTargets: ['a2'] });
    await setState(page, state({ viewer: 'gote', pieces: [major, front] }));
    const hidden = await at(page, 'a1');
    // Without the dot the square's middle is the piece in front: what a click there picks.
    assert.equal(await page.evaluate(({ x, y }) => window.board3d.squareAt(x, y), hidden), 'a2');
    await setState(page, picked);
    const image = await shot(page);
    const dot = meanColor(image, hidden.x, hidden.y, 1);
    assert.ok(dot[1] > dot[0] + 40 && dot[1] > dot[2] + 40, `the green dot on a1 shows through the piece in front: ${dot}`);
    await page.mouse.click(hidden.x, hidden.y);
    assert.deepEqual(await clicks(page), ['a1'], 'the click on the dot picks a1, not the piece in front');
    // The attack is still picked on the enemy piece itself.
    const enemy = await at(page, 'a2');
    await page.mouse.click(enemy.x, enemy.y);
    assert.deepEqual(await clicks(page), ['a1', 'a2']);
    // The page plays the move: the major stands on a1, and the dot is gone.
    await setState(page, state({ viewer: 'gote', pieces: [{ ...major, square: 'a1' }, front], lastMove: { from: 'b1', to: 'a1' } }));
    assert.equal(await page.evaluate(({ x, y }) => window.board3d.squareAt(x, y), hidden), 'a2', 'no dot: the piece in front again');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  it('picks an enemy piece that may be attacked though another piece stands in front of it', async () => {
    const page = await openBoard();
    // Gote sees a1 just behind a2 (above): here a1 holds an enemy its major on b1 may attack,
    // and a2 another enemy, out of the major's reach, which covers the middle of a1.
    const major = { square: 'b1', side: 'gote', label: 'Major' };
    const enemy = { square: 'a1', side: 'sente' };
    const front = { square: 'a2', side: 'sente' };
    // The middle of a1 on the board, measured while it is empty (with a piece there the point
    // given is on the piece).
    await setState(page, state({ viewer: 'gote', pieces: [major, front] }));
    const behind = await at(page, 'a1');
    await setState(page, state({ viewer: 'gote', pieces: [major, enemy, front] }));
    assert.equal(await page.evaluate(({ x, y }) => window.board3d.squareAt(x, y), behind), 'a2');
    await setState(page, state({ viewer: 'gote', pieces: [major, enemy, front], selected: 'b1', attackTargets: ['a1'] }));
    await page.mouse.click(behind.x, behind.y);
    assert.deepEqual(await clicks(page), ['a1'], 'the click picks the enemy to attack, not the piece in front');
    // The piece in front is still picked where the target is not behind it.
    const ahead = await at(page, 'a2');
    assert.equal(await page.evaluate(({ x, y }) => window.board3d.squareAt(x, y), ahead), 'a2');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  it('draws the highlights in the grid\'s colours', async () => {
    const page = await openBoard();
    await setState(
      page,
      state({ selected: 'b2', moveTargets: ['c3'], attackTargets: ['e2'], lastMove: { from: 'a4', to: 'a3' } }),
    );
    const image = await shot(page);
    // A frame's band lies just inside its square's edge: sample on the line to the right-hand
    // neighbour's centre (same row, so the projection is linear along it).
    const band = async (square, neighbour, t) => {
      const p = midpoint(await at(page, square), await at(page, neighbour), t);
      return meanColor(image, p.x, p.y, 1);
    };
    const yellow = await band('b2', 'c2', 0.375);
    const red = await band('e2', 'f2', 0.375);
    const orange = await band('a3', 'b3', 0.455);
    const green = meanColor(image, ...Object.values(await at(page, 'c3')), 2);
    assert.ok(yellow[0] > 190 && yellow[1] > 170 && yellow[2] < 100, `yellow frame on the pick: ${yellow}`);
    assert.ok(red[0] > 170 && red[1] < 90 && red[2] < 100, `red frame on the attack: ${red}`);
    assert.ok(orange[0] > 190 && orange[1] > 90 && orange[1] < 180 && orange[2] < 90, `orange frame on the last move: ${orange}`);
    assert.ok(green[1] > green[0] + 40 && green[1] > green[2] + 40, `green dot on the move: ${green}`);
    const plain = meanColor(image, ...Object.values(midpoint(await at(page, 'c2'), await at(page, 'd2'), 0.375)), 1);
    assert.ok(isWood(plain), `no frame elsewhere: ${plain}`);
    await page.close();
  });

  it('colours the picked piece, the pieces it may attack and the last move\'s piece', async () => {
    const page = await openBoard();
    const pieces = [
      { square: 'b4', side: 'sente', label: 'Tank' },
      { square: 'b5', side: 'gote' },
      { square: 'e5', side: 'gote' },
      { square: 'c5', side: 'gote' },
    ];
    const plain = state({ pieces });
    await setState(page, plain);
    // Each piece's middle, where nothing of the board's frames shows: the piece itself.
    const body = async (image, square) => meanColor(image, ...Object.values(await at(page, square)), 2);
    const before = await shot(page);
    await setState(page, { ...plain, selected: 'b4', attackTargets: ['b5'], lastMove: { from: 'e6', to: 'e5' } });
    const after = await shot(page);
    const [tank, target, moved, other] = await Promise.all(['b4', 'b5', 'e5', 'c5'].map((sq) => body(after, sq)));
    assert.ok(tank[1] > (await body(before, 'b4'))[1] + 40, `the picked tank turns yellow: ${tank}`);
    assert.ok(target[0] > target[1] + 60 && target[0] > target[2] + 60, `the target turns red: ${target}`);
    assert.ok(isWood(await body(before, 'b5')), 'it was plain wood before');
    assert.ok(colorDistance(moved, await body(before, 'e5')) > 12, `the last move's piece glows: ${moved}`);
    assert.ok(colorDistance(moved, target) > 40, `and does not look like a target: ${moved} / ${target}`);
    assert.ok(colorDistance(other, await body(before, 'c5')) < 8, `an unmarked piece stays as it was: ${other}`);
    // The highlights go with the state: a plain state makes the pieces plain again.
    await setState(page, plain);
    const again = await shot(page);
    for (const sq of ['b4', 'b5', 'e5']) {
      assert.ok(colorDistance(await body(again, sq), await body(before, sq)) < 8, `${sq} is plain again`);
    }
    await page.close();
  });

  it('reports the headquarters as one square and ignores the river', async () => {
    const page = await openBoard();
    await setState(page, state());
    const b1 = await at(page, 'b1');
    const hq = await at(page, 'cd1');
    const e1 = await at(page, 'e1');
    const leftHalf = midpoint(b1, hq, 0.7);
    const rightHalf = midpoint(hq, e1, 0.3);
    await page.mouse.click(leftHalf.x, leftHalf.y);
    await page.mouse.click(rightHalf.x, rightHalf.y);
    const river = midpoint(await at(page, 'c4'), await at(page, 'c5'));
    await page.mouse.click(river.x, river.y);
    assert.deepEqual(await clicks(page), ['cd1', 'cd1']);
    await page.close();
  });

  it('turns the camera on a drag without reporting a click, and zooms within limits', async () => {
    const page = await openBoard();
    await setState(page, state({ pieces: [{ square: 'c3', side: 'sente', label: 'Spy' }] }));
    const start = await at(page, 'c3');
    const before = await shot(page);
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    for (let i = 1; i <= 8; i++) await page.mouse.move(start.x + i * 12, start.y + i * 3);
    await page.mouse.up();
    await settled(page);
    assert.deepEqual(await clicks(page), [], 'a drag is not a click');
    const turned = await shot(page);
    assert.ok(changedShare(before, turned) > 0.1, 'the view turned');

    const width = async () => {
      const a = await at(page, 'a4');
      const f = await at(page, 'f4');
      return Math.hypot(f.x - a.x, f.y - a.y);
    };
    const base = await width();
    const center = await at(page, 'c4');
    await page.mouse.move(center.x, center.y);
    await page.keyboard.down('Control');
    for (let i = 0; i < 5; i++) await page.mouse.wheel(0, 400);
    await settled(page);
    const far = await width();
    assert.ok(far < base * 0.9, `zooming out shrinks the board: ${base} → ${far}`);
    assert.ok(far > base * 0.45, `but not without limit: ${base} → ${far}`);
    for (let i = 0; i < 10; i++) await page.mouse.wheel(0, -400);
    await page.keyboard.up('Control');
    await settled(page);
    const near = await page.evaluate(() => {
      const a = window.board3d.screenPosition('c4');
      const b = window.board3d.screenPosition('d4');
      return a && b ? Math.hypot(b.x - a.x, b.y - a.y) : 0;
    });
    assert.ok(near > 0, 'zoomed in on the centre');
    assert.ok(near < (base / 5) * 3.5, `zooming in stops: cell ${near}px vs ${base / 5}px`);

    // Pressing the view already chosen undoes the drag and the zoom.
    await page.click('button[data-view=diagonal]');
    await settled(page);
    const again = await at(page, 'c3');
    assert.ok(Math.hypot(again.x - start.x, again.y - start.y) < 2, `back to the preset: ${JSON.stringify([start, again])}`);
    assert.ok(changedShare(before, await shot(page)) < 0.02, 'the same picture as before the drag');
    await page.close();
  });

  it('zooms in towards the square under the pointer, and back to the middle on zooming out', async () => {
    const page = await openBoard();
    await setState(page, state({ pieces: [{ square: 'a1', side: 'sente', label: 'Spy' }] }));
    const before = await shot(page);
    const start = await at(page, 'a1');
    const span = async () => {
      const [a1, b1] = await Promise.all(['a1', 'b1'].map((sq) => page.evaluate((s) => window.board3d.screenPosition(s), sq)));
      return a1 && b1 ? Math.hypot(b1.x - a1.x, b1.y - a1.y) : 0;
    };
    const fitted = await span();
    await page.mouse.move(start.x, start.y);
    await page.keyboard.down('Control');
    for (let i = 0; i < 10; i++) await page.mouse.wheel(0, -400);
    await settled(page);
    const near = await page.evaluate(() => window.board3d.screenPosition('a1'));
    assert.ok(near, 'the corner square is still in the picture');
    assert.ok(Math.hypot(near.x - start.x, near.y - start.y) < 25, `a1 stayed under the pointer: ${JSON.stringify([start, near])}`);
    const zoomed = await span();
    assert.ok(zoomed > fitted * 1.5, `zoomed in: a1–b1 ${fitted} → ${zoomed} px`);
    for (let i = 0; i < 12; i++) await page.mouse.wheel(0, 400);
    await page.keyboard.up('Control');
    // Back at the fitted distance: the same picture as before (the middle looked at again).
    await page.click('button[data-view=diagonal]');
    await settled(page);
    assert.ok(changedShare(before, await shot(page)) < 0.02, 'the preset picture again');
    await page.close();
  });

  it('zooms on a plain wheel turned over the board, as far as its limits', async () => {
    const page = await openBoard();
    await setState(page, state({ pieces: [{ square: 'c3', side: 'sente', label: 'Spy' }] }));
    const span = async () => {
      const [c3, d3] = await Promise.all(['c3', 'd3'].map((sq) => page.evaluate((s) => window.board3d.screenPosition(s), sq)));
      return c3 && d3 ? Math.hypot(d3.x - c3.x, d3.y - c3.y) : 0;
    };
    const fitted = await span();
    const c3 = await at(page, 'c3');
    await page.mouse.move(c3.x, c3.y);
    for (let i = 0; i < 3; i++) await page.mouse.wheel(0, -400);
    await settled(page);
    const near = await span();
    assert.ok(near > fitted * 1.3, `the wheel zoomed in: c3–d3 ${fitted} → ${near} px`);
    for (let i = 0; i < 12; i++) await page.mouse.wheel(0, 400);
    await settled(page);
    const far = await span();
    assert.ok(far < near && far > fitted * 0.45, `and out, within limits: ${near} → ${far} px`);
    // At the limit the wheel is left to the page (it scrolls, as a map's does); the other way it
    // is the board's.
    const taken = (deltaY) =>
      page.evaluate((dy) => {
        const e = new WheelEvent('wheel', { deltaY: dy, bubbles: true, cancelable: true });
        document.querySelector('canvas').dispatchEvent(e);
        return e.defaultPrevented;
      }, deltaY);
    assert.equal(await taken(400), false, 'zoomed out as far as it goes: the page’s');
    assert.equal(await taken(-100), true, 'zooming back in: the board’s');
    assert.ok(await page.$eval('.board3d-hint', (el) => el.hidden), 'no hint for a zoom');
    // A turn whose first event the browser would not let be cancelled (it began off the board,
    // where the page scrolled at once, and the board slid under the pointer) stays the page's.
    await page.waitForTimeout(700);
    const before = await span();
    await page.evaluate(() => {
      const canvas = document.querySelector('canvas');
      for (let i = 0; i < 3; i++) canvas.dispatchEvent(new WheelEvent('wheel', { deltaY: -400, bubbles: true, cancelable: i > 0 }));
    });
    await settled(page);
    assert.equal(Math.round(await span()), Math.round(before), 'the page’s turn left the zoom');
    await page.close();
  });

  it('leaves one finger to the page and turns the board with two, picking nothing either way', async () => {
    const page = await openBoard('reduced=1', 'no-preference', true);
    await setState(page, state({ pieces: [{ square: 'c3', side: 'sente', label: 'Spy' }] }));
    const cdp = await page.context().newCDPSession(page);
    const touch = (type, points) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map(([x, y, id], i) => ({ x, y, id: id ?? i })) });
    const before = await at(page, 'c3');
    const c = await at(page, 'c4');
    // One finger, up the board: nothing turns, and the board says how to turn it.
    await touch('touchStart', [[c.x, c.y]]);
    for (let i = 1; i <= 8; i++) await touch('touchMove', [[c.x, c.y - i * 15]]);
    await touch('touchEnd', [[c.x, c.y - 120]]);
    await settled(page);
    const one = await at(page, 'c3');
    assert.ok(Math.hypot(one.x - before.x, one.y - before.y) < 0.5, `one finger turned nothing: ${JSON.stringify([before, one])}`);
    assert.deepEqual(await page.$eval('.board3d-hint', (el) => [el.hidden, el.textContent]), [false, 'Two fingers turn']);
    // Two fingers moving together, sideways: the board turns.
    await touch('touchStart', [[c.x - 30, c.y]]);
    await touch('touchStart', [[c.x - 30, c.y], [c.x + 30, c.y]]);
    for (let i = 1; i <= 8; i++) await touch('touchMove', [[c.x - 30 + i * 15, c.y], [c.x + 30 + i * 15, c.y]]);
    await touch('touchEnd', [[c.x + 150, c.y, 1]]);
    await touch('touchEnd', [[c.x + 90, c.y, 0]]);
    await settled(page);
    const two = await at(page, 'c3');
    assert.ok(Math.hypot(two.x - before.x, two.y - before.y) > 20, `two fingers turned the board: ${JSON.stringify([before, two])}`);
    assert.deepEqual(await clicks(page), []);
    await page.close();
  });

  it('a finger left on the glass after a pinch turns nothing as it lifts', async () => {
    const page = await openBoard('reduced=1', 'no-preference', true);
    await setState(page, state({ pieces: [{ square: 'c3', side: 'sente', label: 'Spy' }] }));
    const cdp = await page.context().newCDPSession(page);
    const c = await at(page, 'c4');
    // Points are [x, y] with ids by their place, or [x, y, id]; a touchEnd lists the touches lifted.
    const touch = (type, points) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map(([x, y, id], i) => ({ x, y, id: id ?? i })) });
    await touch('touchStart', [[c.x - 40, c.y]]);
    await touch('touchMove', [[c.x - 40, c.y]]);
    await touch('touchStart', [[c.x - 40, c.y], [c.x + 40, c.y]]);
    for (let i = 1; i <= 5; i++) await touch('touchMove', [[c.x - 40 - i * 8, c.y], [c.x + 40 + i * 8, c.y]]);
    // The second finger lifts; the first drifts a little before it does.
    await touch('touchEnd', [[c.x + 80, c.y, 1]]);
    await settled(page);
    const pinched = await at(page, 'c3');
    for (let i = 1; i <= 4; i++) await touch('touchMove', [[c.x - 80 + i * 2, c.y + i]]);
    await touch('touchEnd', [[c.x - 72, c.y + 4, 0]]);
    await settled(page);
    const after = await at(page, 'c3');
    assert.ok(Math.hypot(after.x - pinched.x, after.y - pinched.y) < 0.5, `the board stayed: ${JSON.stringify([pinched, after])}`);
    await page.close();
  });

  it('keeps the whole board in the picture when the window changes shape after a quarter turn', async () => {
    const page = await openBoard();
    await setState(page, state({ pieces: [{ square: 'c3', side: 'sente', label: 'Spy' }] }));
    const start = await at(page, 'c3');
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) await page.mouse.move(start.x + i * 17, start.y);
    await page.mouse.up();
    await settled(page);
    for (const size of [{ width: 420, height: 760 }, { width: 1000, height: 420 }]) {
      await page.setViewportSize(size);
      await page.evaluate(() => window.board3d.resize());
      await settled(page);
      const canvas = await page.$eval('canvas', (c) => c.getBoundingClientRect().toJSON());
      for (const sq of ['a1', 'f1', 'a8', 'f8']) {
        const p = await page.evaluate((s) => window.board3d.screenPosition(s), sq);
        assert.ok(p && p.x > canvas.left && p.x < canvas.right && p.y > canvas.top && p.y < canvas.bottom, `${size.width}×${size.height}: ${sq} at ${JSON.stringify(p)} in ${JSON.stringify(canvas)}`);
      }
    }
    await page.close();
  });

  it('lets a drag during the move to a view change nothing of where the move ends', async () => {
    const page = await openBoard('reduced=0');
    await setState(page, state({ pieces: [{ square: 'c3', side: 'sente', label: 'Spy' }] }));
    const preset = await shot(page);
    await page.click('button[data-view=top]');
    await settled(page);
    const c = await at(page, 'c4');
    // Back to the slanted view, and a drag at once, before the camera's move has drawn a frame.
    const moving = await page.evaluate(([x, y]) => {
      window.board3d.setView('diagonal');
      const canvas = document.querySelector('canvas');
      const fire = (type, dx) => canvas.dispatchEvent(new PointerEvent(type, { pointerId: 7, pointerType: 'mouse', button: 0, buttons: 1, clientX: x + dx, clientY: y + dx, bubbles: true }));
      fire('pointerdown', 0);
      for (let i = 1; i <= 6; i++) fire('pointermove', i * 20);
      const during = window.board3d.viewMoving;
      fire('pointerup', 120);
      return during;
    }, [c.x, c.y]);
    await settled(page);
    assert.ok(moving, 'the drag came while the camera moved');
    assert.ok(changedShare(preset, await shot(page)) < 0.02, 'the slanted preset, framed as before');
    await page.close();
  });

  it('shows a pointing hand over a square and an open hand elsewhere', async () => {
    const page = await openBoard();
    await setState(page, state({ pieces: [{ square: 'c3', side: 'sente', label: 'Spy' }] }));
    const cursor = () => page.$eval('canvas', (c) => c.style.cursor);
    const c3 = await at(page, 'c3');
    await page.mouse.move(c3.x, c3.y);
    await page.waitForFunction(() => document.querySelector('canvas').style.cursor === 'pointer', null, { timeout: 2000 });
    const box = await page.$eval('canvas', (c) => c.getBoundingClientRect().toJSON());
    await page.mouse.move(box.left + 4, box.top + 4);
    await page.waitForFunction(() => document.querySelector('canvas').style.cursor === 'grab', null, { timeout: 2000 });
    assert.equal(await cursor(), 'grab');
    await page.close();
  });

  it('a tap that drifts within the tap\'s slop picks its square and turns nothing', async () => {
    const page = await openBoard();
    await setState(page, state({ pieces: [{ square: 'c3', side: 'sente', label: 'Spy' }] }));
    const before = await shot(page);
    const start = await at(page, 'c3');
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    for (let i = 1; i <= 5; i++) await page.mouse.move(start.x + i, start.y);
    await page.mouse.up();
    await settled(page);
    assert.deepEqual(await clicks(page), ['c3']);
    const again = await at(page, 'c3');
    assert.ok(Math.hypot(again.x - start.x, again.y - start.y) < 0.5, `the camera stayed: ${JSON.stringify([start, again])}`);
    assert.ok(changedShare(before, await shot(page)) < 0.01, 'the same picture');
    await page.close();
  });

  it('turns the top view round on a drag but never tilts it (its pieces lie flat)', async () => {
    const page = await openBoard();
    await setState(page, state({ pieces: [{ square: 'c3', side: 'sente', label: 'Spy' }] }));
    await page.click('button[data-view=top]');
    await settled(page);
    const rows = async () => {
      const [a1, f1, a8, f8] = await Promise.all(['a1', 'f1', 'a8', 'f8'].map((sq) => page.evaluate((s) => window.board3d.screenPosition(s), sq)));
      return { near: Math.hypot(f1.x - a1.x, f1.y - a1.y), far: Math.hypot(f8.x - a8.x, f8.y - a8.y), a1 };
    };
    const flat = await rows();
    assert.ok(Math.abs(flat.near - flat.far) < flat.near * 0.03, `from above both rows look alike: ${JSON.stringify(flat)}`);
    const start = await at(page, 'c3');
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) await page.mouse.move(start.x, start.y - i * 20);
    await page.mouse.up();
    await settled(page);
    const dragged = await rows();
    assert.ok(Math.abs(dragged.near - dragged.far) < dragged.near * 0.03, `still from above after a drag up: ${JSON.stringify(dragged)}`);
    assert.equal(await page.getAttribute('button[data-view=top]', 'aria-pressed'), 'true');
    // A drag sideways turns it round.
    const from = await at(page, 'c3');
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) await page.mouse.move(from.x + i * 15, from.y);
    await page.mouse.up();
    await settled(page);
    const turned = await rows();
    assert.ok(Math.hypot(turned.a1.x - dragged.a1.x, turned.a1.y - dragged.a1.y) > 20, `turned round: a1 ${JSON.stringify([dragged.a1, turned.a1])}`);
    await page.close();
  });

  it('turns around the board\'s centre, and a drag up stops before looking straight down', async () => {
    const page = await openBoard();
    await setState(page, state({ pieces: [{ square: 'c3', side: 'sente', label: 'Spy' }] }));
    const corners = async () => Promise.all(['a1', 'f1', 'a8', 'f8'].map((sq) => page.evaluate((s) => window.board3d.screenPosition(s), sq)));
    const middle = (points) => points.reduce((m, p) => ({ x: m.x + p.x / 4, y: m.y + p.y / 4 }), { x: 0, y: 0 });
    const canvas = await page.$eval('canvas', (c) => { const r = c.getBoundingClientRect(); return { x: r.left + r.width / 2, width: r.width }; });
    const drag = async (dx, dy) => {
      const start = await at(page, 'c3');
      await page.mouse.move(start.x, start.y);
      await page.mouse.down();
      for (let i = 1; i <= 10; i++) await page.mouse.move(start.x + (i * dx) / 10, start.y + (i * dy) / 10);
      await page.mouse.up();
      await settled(page);
    };
    const before = middle(await corners());
    // About a quarter turn sideways: the board's middle stays in the picture's middle.
    await drag(170, 0);
    const turned = await corners();
    assert.ok(turned.every((p) => p !== undefined), 'every corner square stays on screen');
    const after = middle(turned);
    assert.ok(Math.abs(before.x - canvas.x) < canvas.width * 0.03, `centred before: ${before.x} / ${canvas.x}`);
    assert.ok(Math.abs(after.x - canvas.x) < canvas.width * 0.03, `centred after the turn: ${after.x} / ${canvas.x}`);

    // Back to the preset, then a long drag towards looking down.
    await page.click('button[data-view=diagonal]');
    await settled(page);
    await drag(0, 400);
    const [a1, f1, a8, f8] = await corners();
    assert.ok([a1, f1, a8, f8].every((p) => p !== undefined), 'the far rows stay on screen');
    const near = Math.hypot(f1.x - a1.x, f1.y - a1.y);
    const far = Math.hypot(f8.x - a8.x, f8.y - a8.y);
    // Straight down both rows would look alike; the camera still leans towards the player.
    assert.ok(near > far * 1.1, `still a slanted view: rows 1 / 8 ${Math.round(near)} / ${Math.round(far)} px`);
    await page.close();
  });

  it('draws the shadows again only when the scene changes, not when the camera turns', async () => {
    const page = await openBoard();
    const spy = { square: 'c3', side: 'sente', label: 'Spy' };
    await setState(page, state({ pieces: [spy] }));
    const counts = () => page.evaluate(() => ({ frames: window.board3d.renderCount, shadows: window.board3d.shadowCount }));
    const before = await counts();
    const start = await at(page, 'c3');
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    for (let i = 1; i <= 6; i++) await page.mouse.move(start.x + i * 15, start.y);
    await page.mouse.up();
    await settled(page);
    const turned = await counts();
    assert.ok(turned.frames > before.frames, 'the turn was drawn');
    assert.equal(turned.shadows, before.shadows, 'with the shadows as they were');
    await setState(page, state({ pieces: [{ ...spy, square: 'c4' }], lastMove: { from: 'c3', to: 'c4' } }));
    assert.ok((await counts()).shadows > turned.shadows, 'a move draws them again');
    // And the moved piece's shadow is where the piece is: the picture matches a fresh board's.
    const fresh = await openBoard();
    await fresh.evaluate(async (s) => {
      window.board3d.setState(s);
      await window.board3d.settled();
    }, state({ pieces: [{ ...spy, square: 'c4' }], lastMove: { from: 'c3', to: 'c4' } }));
    await page.click('button[data-view=diagonal]');
    await settled(page);
    assert.ok(changedShare(await shot(page), await shot(fresh)) < 0.01, 'the same picture, shadows included');
    await fresh.close();
    await page.close();
  });

  it('takes a one-finger tap on a touch screen as a press: a piece, then its destination', async () => {
    const page = await openBoard('reduced=1', 'no-preference', true);
    const major = { square: 'b3', side: 'sente', kind: 'major', label: 'Major' };
    await setState(page, state({ pieces: [major] }));
    const piece = await at(page, 'b3');
    await page.touchscreen.tap(piece.x, piece.y);
    assert.deepEqual(await clicks(page), ['b3']);
    await setState(page, state({ pieces: [major], selected: 'b3', moveTargets: ['b4'] }));
    const target = await at(page, 'b4');
    await page.touchscreen.tap(target.x, target.y);
    assert.deepEqual(await clicks(page), ['b3', 'b4']);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  it('zooms with a two-finger pinch, which is not a tap either', async () => {
    const page = await openBoard();
    await setState(page, state());
    const cell = async () => {
      const a = await at(page, 'c4');
      const b = await at(page, 'd4');
      return Math.hypot(b.x - a.x, b.y - a.y);
    };
    const before = await cell();
    const center = await at(page, 'c3');
    // Two touch pointers move apart: the board grows.
    await page.evaluate(({ x, y }) => {
      const canvas = document.querySelector('#board canvas');
      const fire = (type, id, dx) =>
        canvas.dispatchEvent(
          new PointerEvent(type, { pointerId: id, pointerType: 'touch', isPrimary: id === 11, clientX: x + dx, clientY: y, bubbles: true }),
        );
      fire('pointerdown', 11, -20);
      fire('pointerdown', 12, 20);
      for (let step = 1; step <= 6; step++) {
        fire('pointermove', 11, -20 - step * 10);
        fire('pointermove', 12, 20 + step * 10);
      }
      fire('pointerup', 11, -80);
      fire('pointerup', 12, 80);
    }, center);
    await settled(page);
    const after = await cell();
    assert.ok(after > before * 1.3, `pinching out zooms in: ${before} → ${after}`);
    assert.deepEqual(await clicks(page), [], 'a pinch is not a tap');
    await page.close();
  });

  it('switches between the diagonal and top views with its buttons', async () => {
    const page = await openBoard();
    await setState(page, state({ pieces: [{ square: 'c3', side: 'sente', label: 'Tank' }] }));
    const diagonal = await shot(page);
    const slant = [await at(page, 'a1'), await at(page, 'a8')];
    assert.ok(Math.abs(slant[0].x - slant[1].x) > 20, 'the diagonal view converges');
    assert.equal(await page.getAttribute('button[data-view=diagonal]', 'aria-pressed'), 'true');

    await page.click('button[data-view=top]');
    await settled(page);
    const top = await shot(page);
    assert.ok(changedShare(diagonal, top) > 0.15, 'the picture changed');
    assert.equal(await page.getAttribute('button[data-view=top]', 'aria-pressed'), 'true');
    const flat = [await at(page, 'a1'), await at(page, 'a8')];
    assert.ok(Math.abs(flat[0].x - flat[1].x) < 3, `the top view looks straight down: ${JSON.stringify(flat)}`);
    // Lying flat, the piece shows its face from above: its centre sits on its square.
    const tank = await at(page, 'c3');
    assert.equal(await page.evaluate(({ x, y }) => window.board3d.squareAt(x, y), tank), 'c3');
    assert.ok(isVermilion(meanColor(top, tank.x, tank.y + 6, 2)), 'the flat piece is seen from above');

    await page.click('button[data-view=diagonal]');
    await settled(page);
    const back = await shot(page);
    assert.ok(changedShare(diagonal, back) < 0.02, 'back to the same diagonal view');
    await page.close();
  });

  it('writes the name on the face turned toward the owner only', async () => {
    const page = await openBoard();
    // Cream ink: light in every channel, unlike vermilion (low green) and wood (low blue).
    const cream = ([r, g, b]) => r > 150 && g > 130 && b > 130;
    await setState(page, state({ pieces: [{ square: 'c3', side: 'sente', label: 'Major' }] }));
    const front = await at(page, 'c3');
    const named = countPixels(await shot(page), front, 22, cream);
    assert.ok(named > 15, `the owner reads the name: ${named} ink pixels`);

    // Orbit half a turn to look at the piece's back.
    const start = await at(page, 'a2');
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) await page.mouse.move(start.x + i * 32, start.y);
    await page.mouse.up();
    await settled(page);
    const back = await at(page, 'c3');
    const hidden = countPixels(await shot(page), back, 22, cream);
    assert.ok(hidden < 3, `the back is blank: ${hidden} ink pixels`);

    // After the game the page passes enemy names: the viewer reads them on the backs.
    await page.close();
    const page2 = await openBoard();
    const black = ([r, g, b]) => r < 80 && g < 70 && b < 60;
    await setState(page2, state({ pieces: [{ square: 'c6', side: 'gote' }] }));
    const blank = countPixels(await shot(page2), await at(page2, 'c6'), 12, black);
    await setState(page2, state({ pieces: [{ square: 'c6', side: 'gote', label: 'Mine' }] }));
    const revealed = countPixels(await shot(page2), await at(page2, 'c6'), 12, black);
    assert.ok(revealed > blank + 10, `a revealed enemy name shows: ${blank} → ${revealed}`);
    await page2.close();
  });

  it('lays every piece face up when the game is over, so no standing piece hides a name behind it', async () => {
    const page = await openBoard();
    const black = ([r, g, b]) => r < 80 && g < 70 && b < 60;
    // A revealed enemy name at the back, alone or behind a blank piece; seen from low down,
    // where a standing piece in front hides what stands behind it.
    const named = { square: 'b8', side: 'gote', label: 'Mine' };
    const behind = [named, { square: 'b7', side: 'gote' }];
    await setState(page, state({ pieces: [named] }));
    const start = await at(page, 'c3');
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) await page.mouse.move(start.x, start.y - i * 15);
    await page.mouse.up();
    await settled(page);
    const ink = async (pieces, faceUp) => {
      await setState(page, state({ pieces, faceUp }));
      return countPixels(await shot(page), await at(page, 'b8'), 16, black);
    };
    const standingAlone = await ink([named], false);
    const standingBehind = await ink(behind, false);
    assert.ok(standingBehind < standingAlone * 0.3, `standing, the piece in front hides the name: ${standingAlone} → ${standingBehind} ink pixels`);
    const lyingAlone = await ink([named], true);
    const lyingBehind = await ink(behind, true);
    assert.ok(lyingAlone > 10, `lying face up, the name shows: ${lyingAlone} ink pixels`);
    // Seen this low, the lying piece in front still covers the near edge of the name: little of it.
    assert.ok(lyingBehind > lyingAlone * 0.7, `and the piece in front hides little of it: ${lyingAlone} → ${lyingBehind} ink pixels`);
    assert.equal(await page.getAttribute('button[data-view=diagonal]', 'aria-pressed'), 'true', 'still the diagonal view');
    // A new game stands them up again.
    assert.equal(await ink(behind, false), standingBehind);
    await page.close();
  });

  it('follows its container\'s size, changes its text, and leaves cleanly', async () => {
    const page = await openBoard();
    await setState(page, state({ pieces: [{ square: 'f8', side: 'gote' }] }));
    await page.evaluate(() => {
      document.getElementById('board').style.width = '420px';
      document.getElementById('board').style.height = '600px';
    });
    await page.waitForFunction(() => document.querySelector('#board canvas').width === 420);
    await settled(page);
    const box = await page.locator('#board').boundingBox();
    for (const square of ['a1', 'f1', 'a8', 'f8']) {
      const p = await at(page, square);
      assert.ok(p.x > box.x && p.x < box.x + box.width && p.y > box.y && p.y < box.y + box.height, `${square} still on the narrower board`);
    }
    await page.evaluate(() => window.board3d.setText('ja', { diagonal: '斜めから', top: '真上から', board: '盤' }));
    assert.equal(await page.textContent('button[data-view=top]'), '真上から');
    assert.equal(await page.getAttribute('#board canvas', 'aria-label'), '盤');
    await page.evaluate(() => window.board3d.dispose());
    assert.equal(await page.locator('#board canvas').count(), 0);
    assert.equal(await page.locator('#board button').count(), 0);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  it('follows a change of the device pixel ratio (a page zoom, another screen) without a resize', async () => {
    const page = await openBoard();
    await setState(page, state({ pieces: [{ square: 'c3', side: 'sente', label: 'Spy' }] }));
    const cdp = await page.context().newCDPSession(page);
    const canvas = () =>
      page.evaluate(() => {
        const c = document.querySelector('#board canvas');
        const r = c.getBoundingClientRect();
        return { cssWidth: r.width, cssHeight: r.height, width: c.width, height: c.height, frames: window.board3d.renderCount };
      });
    const start = await canvas();
    assert.equal(start.width, 700);
    // Ctrl + (or a window dragged to another screen): the ratio changes, the CSS size does not.
    for (const dpr of [1.5, 3, 1]) {
      const before = await canvas();
      await cdp.send('Emulation.setDeviceMetricsOverride', { ...VIEWPORT, deviceScaleFactor: dpr, mobile: false });
      await page.waitForFunction((d) => window.devicePixelRatio === d, dpr);
      const want = Math.min(dpr, 2);
      await page
        .waitForFunction((w) => document.querySelector('#board canvas').width === Math.floor(700 * w), want, { timeout: 20000 })
        .catch(() => {});
      await settled(page);
      const now = await canvas();
      assert.equal(now.cssWidth, 700, 'the CSS size stayed');
      assert.ok(Math.abs(now.width - now.cssWidth * want) <= 1, `DPR ${dpr}: buffer ${now.width} px wide for ${now.cssWidth} CSS px`);
      assert.ok(Math.abs(now.height - now.cssHeight * want) <= 1, `DPR ${dpr}: buffer ${now.height} px high for ${now.cssHeight} CSS px`);
      if (now.width !== before.width) assert.ok(now.frames > before.frames, `DPR ${dpr}: drawn again`);
      const p = await at(page, 'c3');
      assert.equal(await page.evaluate(({ x, y }) => window.board3d.squareAt(x, y), p), 'c3');
    }
    await cdp.send('Emulation.clearDeviceMetricsOverride');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  it('starts in a hidden container and draws once it is shown', async () => {
    const page = await openBoard('reduced=1&hidden=1');
    await setState(page, state({ pieces: [{ square: 'c3', side: 'sente', label: 'Spy' }] }));
    await page.evaluate(() => {
      document.getElementById('board').hidden = false;
    });
    await page.waitForFunction(() => document.querySelector('#board canvas').width === 700);
    await settled(page);
    const image = await shot(page);
    const piece = await at(page, 'c3');
    assert.ok(isVermilion(meanColor(image, piece.x, piece.y)), 'the piece shows');
    assert.ok(isWood(meanColor(image, ...Object.values(await at(page, 'a1')))), 'the board shows');
    const a1 = await at(page, 'a1');
    const f8 = await at(page, 'f8');
    assert.ok(a1.x < f8.x && a1.y > f8.y && a1.y < 640 && f8.y > 0, 'framed for the real size');
    await page.close();
  });

  it('draws only when something changes', async () => {
    const page = await openBoard();
    await setState(page, state({ pieces: [{ square: 'a3', side: 'sente', label: 'Spy' }] }));
    const idle = await page.evaluate(async () => {
      const before = window.board3d.renderCount;
      await new Promise((r) => setTimeout(r, 400));
      return window.board3d.renderCount - before;
    });
    assert.equal(idle, 0, 'no frames while nothing changes');
    const one = await framesFor(page, { viewer: 'sente', pieces: [], moveTargets: [], attackTargets: [] });
    assert.equal(one, 1, 'one frame for one change');
    const same = await page.evaluate(async () => {
      const before = window.board3d.renderCount;
      window.board3d.setState({ viewer: 'sente', pieces: [], moveTargets: [], attackTargets: [] });
      await window.board3d.settled();
      await new Promise((r) => setTimeout(r, 100));
      return window.board3d.renderCount - before;
    });
    assert.equal(same, 0, 'the same state again draws nothing');
    const marked = await framesFor(page, { viewer: 'sente', pieces: [], moveTargets: ['c3'], attackTargets: [] });
    assert.equal(marked, 1, 'a new highlight draws one frame');
    await page.close();
  });

  it('slides a move and plays a battle when motion is allowed, and jumps when it is reduced', async () => {
    const attacker = { square: 'b3', side: 'sente', label: 'Major' };
    const defender = { square: 'b4', side: 'gote' };
    const battleState = state({
      pieces: [{ ...attacker, square: 'b4' }],
      lastMove: { from: 'b3', to: 'b4' },
      battle: { square: 'b4', outcome: 'attacker' },
    });
    const frames = async (query, reducedMotion = 'no-preference') => {
      const page = await openBoard(query, reducedMotion);
      await setState(page, state({ pieces: [attacker, defender] }));
      const count = await framesFor(page, battleState);
      const image = await shot(page);
      const landed = await at(page, 'b4');
      const color = meanColor(image, landed.x, landed.y);
      assert.ok(isVermilion(color), `the winner stands on b4 (${query}): ${color}`);
      const pieces = await page.evaluate(() => window.board3d.squareAt(0, 0));
      assert.equal(pieces, undefined);
      await page.close();
      return count;
    };
    const animated = await frames('reduced=0');
    const instant = await frames('reduced=1');
    const preferred = await frames('', 'reduce');
    // SwiftShader draws only a few frames a second: any frame between start and end counts.
    assert.ok(animated >= 2, `the battle is animated: ${animated} frames`);
    assert.equal(instant, 1, 'reduced motion draws the result at once');
    assert.equal(preferred, 1, 'the user\'s prefers-reduced-motion is followed');
  });

  it('stops animating on a device that draws frames too slowly, unless motion is asked for', async () => {
    const run = async (query) => {
      const page = await openBoard(query);
      await setState(page, state({ pieces: [{ square: 'a3', side: 'sente', label: 'Spy' }] }));
      // Each frame comes 150 ms later than the screen's: a software renderer's pace.
      await page.evaluate(() => {
        const raf = window.requestAnimationFrame.bind(window);
        const now = performance.now.bind(performance);
        let late = 0;
        // The clock the tweens start by runs late alike, so a tween still takes its time.
        performance.now = () => now() + late;
        window.requestAnimationFrame = (cb) => raf((t) => cb(t + (late += 150)));
      });
      // The spy walks up the a column and back; each step is a slide.
      const squares = ['a4', 'a3', 'a4', 'a3', 'a4', 'a3', 'a4', 'a3'];
      let dropped = false;
      let from = 'a3';
      let moves = 0;
      for (const to of squares) {
        await framesFor(page, state({ pieces: [{ square: to, side: 'sente', label: 'Spy' }], lastMove: { from, to } }));
        from = to;
        moves++;
        dropped = await page.evaluate(() => window.board3d.motionDropped);
        if (dropped) break;
      }
      const next = await framesFor(page, state({ pieces: [{ square: 'b3', side: 'sente', label: 'Spy' }], lastMove: { from, to: 'b3' } }));
      await page.close();
      return { dropped, moves, next };
    };
    const left = await run('');
    assert.ok(left.dropped, `motion stops after a few slow moves: ${JSON.stringify(left)}`);
    assert.equal(left.next, 1, 'the next move is drawn at once');
    const forced = await run('reduced=0');
    assert.equal(forced.dropped, false);
    assert.ok(forced.next >= 2, `asked for, motion stays: ${forced.next} frames`);
  });

  it('keeps sliding when the page redraws the same position mid-move', async () => {
    const page = await openBoard('reduced=0');
    const spy = { square: 'a3', side: 'sente', label: 'Spy' };
    await setState(page, state({ pieces: [spy], selected: 'a3', moveTargets: ['a4'] }));
    const moved = state({ pieces: [{ ...spy, square: 'a4' }], lastMove: { from: 'a3', to: 'a4' } });
    // The page redraws for some other reason (a message, a clock) right after the move.
    const frames = await framesFor(page, moved, { ...moved, selected: undefined });
    assert.ok(frames >= 2, `the slide was not cut short: ${frames} frames`);
    const p = await at(page, 'a4');
    assert.equal(await page.evaluate(({ x, y }) => window.board3d.squareAt(x, y), p), 'a4');
    await page.close();
  });

  it('plays a battle out before the next move that comes during it', async () => {
    const page = await openBoard('reduced=0');
    const attacker = { square: 'b3', side: 'sente', label: 'Major' };
    const defender = { square: 'b4', side: 'gote' };
    const answerer = { square: 'e6', side: 'gote' };
    await setState(page, state({ pieces: [attacker, defender, answerer] }));
    const battle = state({
      pieces: [{ ...attacker, square: 'b4' }, answerer],
      lastMove: { from: 'b3', to: 'b4' },
      battle: { square: 'b4', outcome: 'attacker' },
    });
    const answer = state({
      pieces: [{ ...attacker, square: 'b4' }, { ...answerer, square: 'e5' }],
      lastMove: { from: 'e6', to: 'e5' },
    });
    // The answer comes 100 ms into the battle, as a quick CPU's or friend's would.
    const elapsed = await page.evaluate(
      async ([first, second]) => {
        const start = performance.now();
        window.board3d.setState(first);
        await new Promise((resolve) => setTimeout(resolve, 100));
        window.board3d.setState(second);
        await window.board3d.settled();
        return performance.now() - start;
      },
      [battle, answer],
    );
    // The battle's approach, clash, removal and entry take 1,060 ms and the answer's slide 320 ms
    // after them: cut short, the whole would end some 400 ms after the answer came.
    assert.ok(elapsed >= 1060 + 320, `the battle was played out before the answer: ${Math.round(elapsed)} ms`);
    const p = await at(page, 'e5');
    assert.equal(await page.evaluate(({ x, y }) => window.board3d.squareAt(x, y), p), 'e5', 'the answer is drawn in the end');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  it('takes a battle back: the winner slides home and the beaten piece grows back', async () => {
    const attacker = { square: 'b3', side: 'sente', label: 'Major' };
    const defender = { square: 'b4', side: 'gote' };
    const run = async (query) => {
      const page = await openBoard(query);
      await setState(page, state({ pieces: [attacker, defender] }));
      const before = await shot(page);
      await setState(
        page,
        state({
          pieces: [{ ...attacker, square: 'b4' }],
          lastMove: { from: 'b3', to: 'b4' },
          battle: { square: 'b4', outcome: 'attacker' },
        }),
      );
      const back = state({ pieces: [attacker, defender], undone: { from: 'b3', to: 'b4' } });
      // The page draws the same position again at once, without the step (it says it once).
      const count = await framesFor(page, back, { ...back, undone: undefined });
      const after = await shot(page);
      for (const sq of ['b3', 'b4']) {
        const p = await at(page, sq);
        const d = colorDistance(meanColor(before, p.x, p.y), meanColor(after, p.x, p.y));
        assert.ok(d < 20, `${sq} looks as before the battle (${query}): ${d}`);
      }
      assert.ok(isVermilion(meanColor(after, (await at(page, 'b3')).x, (await at(page, 'b3')).y)), 'the major is home');
      await page.close();
      return count;
    };
    const animated = await run('reduced=0');
    const instant = await run('reduced=1');
    assert.ok(animated >= 2, `the step back is animated: ${animated} frames`);
    assert.equal(instant, 1, 'reduced motion draws it at once');
  });

  it('picks nothing and says so while the WebGL context is lost, and plays on once it is back', async () => {
    const page = await openBoard();
    const spy = { square: 'c3', side: 'sente', label: 'Spy' };
    await setState(page, state({ pieces: [spy] }));
    const p = await at(page, 'c3');
    const notice = page.locator('#board .board3d-lost');
    assert.equal(await notice.isVisible(), false, 'no notice while the board draws');
    await page.evaluate(() => {
      const canvas = document.querySelector('#board canvas');
      window.contextEvents = [];
      for (const type of ['webglcontextlost', 'webglcontextrestored']) {
        canvas.addEventListener(type, () => window.contextEvents.push(type));
      }
      window.loseContext = canvas.getContext('webgl2').getExtension('WEBGL_lose_context');
      window.loseContext.loseContext();
    });
    await page.waitForFunction(() => window.contextEvents.includes('webglcontextlost'));
    await page.mouse.click(p.x, p.y);
    // Also a press that reaches the canvas itself (the notice's look is the page's to change).
    await page.evaluate(({ x, y }) => {
      const canvas = document.querySelector('#board canvas');
      const init = { pointerId: 5, pointerType: 'mouse', button: 0, isPrimary: true, clientX: x, clientY: y, bubbles: true };
      canvas.dispatchEvent(new PointerEvent('pointerdown', init));
      canvas.dispatchEvent(new PointerEvent('pointerup', init));
    }, p);
    assert.deepEqual(await clicks(page), [], 'a press on the blank board picks nothing');
    assert.equal(await notice.isVisible(), true, 'a notice covers the blank board');
    assert.equal(await notice.textContent(), 'The 3D board stopped drawing');
    assert.equal(await notice.getAttribute('role'), 'status');

    await page.evaluate(() => window.loseContext.restoreContext());
    await page.waitForFunction(() => window.contextEvents.includes('webglcontextrestored'));
    await settled(page);
    assert.equal(await notice.isVisible(), false, 'the notice goes');
    const image = await shot(page);
    assert.ok(isVermilion(meanColor(image, p.x, p.y)), 'the piece is drawn again');
    assert.ok(isWood(meanColor(image, ...Object.values(await at(page, 'a1')))), 'and the board');
    await page.mouse.click(p.x, p.y);
    assert.deepEqual(await clicks(page), ['c3'], 'presses pick again');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  it('removes both pieces of a battle that both lose', async () => {
    const page = await openBoard('reduced=0');
    await setState(page, state({ pieces: [{ square: 'e4', side: 'sente', label: 'Tank' }, { square: 'e5', side: 'gote' }] }));
    const before = await shot(page);
    const from = await at(page, 'e4');
    const to = await at(page, 'e5');
    await setState(
      page,
      state({ pieces: [], lastMove: { from: 'e4', to: 'e5' }, battle: { square: 'e5', outcome: 'both' } }),
    );
    const image = await shot(page);
    for (const [name, p] of [['e4', from], ['e5', to]]) {
      assert.ok(colorDistance(meanColor(before, p.x, p.y), meanColor(image, p.x, p.y)) > 30, `${name} emptied`);
    }
    assert.equal(await page.evaluate(({ x, y }) => window.board3d.squareAt(x, y), await at(page, 'e5')), 'e5');
    await page.close();
  });
});

describe('3D board without WebGL', () => {
  let noGl;
  before(async () => {
    noGl = await launch({ webgl: false });
  });
  after(async () => {
    await noGl?.close();
  });

  it('reports that it is unsupported and draws nothing', async () => {
    const page = await noGl.newPage({ viewport: VIEWPORT });
    await page.goto(`${server.url}/e2e-support/board3d.html`);
    await page.waitForFunction(() => window.board3dStatus !== undefined);
    assert.equal(await page.evaluate(() => window.board3dStatus), 'unsupported');
    assert.equal(await page.locator('#board canvas').count(), 0);
    await page.close();
  });
});

// Automated accessibility checks (axe-core) of the page in real Chromium, screen by screen: the
// start screen in every language, both phases of the two-player game with its curtain, dialogs and
// table, a CPU game to its end and its review, a friend's room on both sides, and the 3D board's
// controls, each in the light and the dark scheme. What axe can judge (names, roles, ARIA, contrast, landmarks, headings, language) must
// hold everywhere; the keyboard tests in the other suites cover what it cannot. Then the page in a
// high-contrast theme (forced colours), which axe does not judge: pictures of the board show that
// its markers, pieces and curtain survive the theme.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { GRID_ONLY, openPage, startBrowser, startLocalTurn, startServer } from '../e2e-support/game.mjs';
import { confirmArrangement, createRoom, openOnlinePage, waitPhase } from '../e2e-support/online.mjs';
import { decodePng, pixel } from '../e2e-support/png.mjs';

const AXE_SOURCE = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Rules left out, each for a reason:
 * - `label-content-name-mismatch`: a grid square shows its name ("a1") and its piece ("plane") in
 *   two spans and is named "a1, your plane", which says whose piece it is; a mode button is named
 *   by its title ("Beginner") and described by the sentence below it. Both name the visible
 *   words in order, which is what a voice-control user says; axe asks for the whole visible text
 *   as one run.
 */
const LEFT_OUT = { 'label-content-name-mismatch': { enabled: false } };

let server;
let grid;

before(async () => {
  // The offer of a CPU game comes 1 s after a friend leaves instead of 2 minutes.
  server = await startServer(['--cpu-offer-after', '1']);
  grid = await startBrowser(GRID_ONLY);
});

after(async () => {
  await grid?.close();
  await server?.stop();
});

/** WCAG's contrast ratio of two CSS colours given as `rgb(…)`. */
function contrast(a, b) {
  const luminance = (css) => {
    const [r, g, b] = css
      .match(/[\d.]+/g)
      .slice(0, 3)
      .map((c) => {
        const s = Number(c) / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** The axe violations on the page as it stands, one line each: rule, impact, first elements. */
async function violations(page) {
  const injected = await page.evaluate(() => typeof window.axe !== 'undefined');
  if (!injected) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (rules) => {
    const result = await window.axe.run(document, { rules, resultTypes: ['violations'] });
    return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
  }, LEFT_OUT);
}

async function assertClean(page, where) {
  assert.deepEqual(await violations(page), [], `axe found problems on ${where}`);
}

/** The page wears the scheme asked for: dark ground and light words, or the other way round. */
async function assertScheme(page, colorScheme) {
  const [ground, words] = await page.evaluate(() => {
    const lightness = (css) => {
      const [r, g, b] = css.match(/[\d.]+/g).map(Number);
      return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
    };
    const root = getComputedStyle(document.documentElement);
    return [lightness(root.backgroundColor), lightness(root.color)];
  });
  if (colorScheme === 'dark') assert.ok(ground < 0.2 && words > 0.8, `dark page: ground ${ground}, words ${words}`);
  else assert.ok(ground > 0.8 && words < 0.2, `light page: ground ${ground}, words ${words}`);
}

const phase = (page) => page.evaluate(() => window.gunjinTest?.phase());

/** Plays the last legal move the page offers, by clicks on the grid. */
async function playOne(page) {
  const moves = await page.evaluate(() => window.gunjinTest.legalMoves());
  assert.ok(moves.length > 0, 'a legal move to play');
  const [from, to] = moves[moves.length - 1];
  await page.click(`.cell[data-square="${from}"]`);
  await page.click(`.cell[data-square="${to}"]`);
}

const waitTurn = (page) => page.waitForFunction(() => window.gunjinTest?.phase() === 'turn', null, { timeout: 30_000 });

/** A game against the beginner, the dealt arrangement confirmed, `moves` moves each played. */
async function cpuGameAfter(page, moves) {
  await page.click('.mode-button[data-mode="cpu-beginner"]');
  await page.click('[data-focus-key="confirm"]');
  for (let i = 0; i < moves; i++) {
    await waitTurn(page);
    await playOne(page);
  }
  await waitTurn(page);
}

// Both schemes: the page follows the system's dark setting, with its own colours to check.
for (const colorScheme of ['light', 'dark']) describe(`accessibility (axe-core), ${colorScheme} scheme`, () => {
  it('the start screen, in Japanese, Korean and English, on a desktop and a phone', async () => {
    for (const lang of ['ja', 'ko', 'en']) {
      for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
        const page = await openPage(grid, server.url, { lang, viewport, colorScheme });
        assert.equal(await page.getAttribute('html', 'lang'), lang);
        await assertScheme(page, colorScheme);
        await assertClean(page, `the start screen (${lang}, ${viewport.width} px)`);
        await page.close();
      }
    }
  });

  it('two players on one device: curtain, arranging, help, table, a move and the next curtain', async () => {
    const page = await openPage(grid, server.url, { lang: 'ja', colorScheme });
    await page.click('.mode-button[data-mode="local"]');
    await assertClean(page, "sente's arranging curtain");
    await page.click('.curtain button');
    await assertClean(page, "sente's arranging");
    await page.click('[data-focus-key="open-help"]');
    await page.waitForSelector('.dialog-help h3');
    await assertClean(page, 'the help dialog');
    await page.click('.dialog-help .close');
    await page.click('[data-focus-key="confirm"]');
    await page.click('.curtain button');
    await page.click('[data-focus-key="confirm"]');
    await page.click('.curtain button');
    assert.equal(await phase(page), 'turn');
    await page.click('[data-focus-key="open-table"]');
    await assertClean(page, "sente's turn with the battle table open");
    await playOne(page);
    await assertClean(page, 'after a move, before handing over');
    await page.click('[data-focus-key="hand-over"]');
    await assertClean(page, "gote's turn curtain");
    await page.close();
  });

  it('a CPU game: play, the offer to go on after a reload, the end and the review of the game', async () => {
    const page = await openPage(grid, server.url, { lang: 'ko', colorScheme });
    await cpuGameAfter(page, 4);
    await assertClean(page, 'a CPU game in play');
    // A reload keeps the game: the start screen offers to go on with it.
    await page.reload();
    await page.waitForSelector('[data-focus-key="resume"]');
    await assertClean(page, 'the start screen offering the unfinished game');
    await page.click('[data-focus-key="resume"]');
    await waitTurn(page);
    await page.click('[data-focus-key="resign"]');
    await page.waitForFunction(() => window.gunjinTest?.phase() === 'over');
    await assertClean(page, 'the end of a CPU game, every piece shown');
    await page.click('[data-focus-key="review-first"]');
    await page.click('[data-focus-key="review-forward"]');
    await assertClean(page, 'the review of the game, one move in');
    await page.close();
  });

  it("a friend's room: the invitation, both arranging, the game on both sides, and its end", async () => {
    const host = await openOnlinePage(grid, server.url, { colorScheme });
    const url = await createRoom(host);
    await assertClean(host, 'the room waiting for the friend');
    const guest = await openOnlinePage(grid, url, { lang: 'ja', colorScheme });
    await guest.waitForSelector('[data-focus-key="online-join"]');
    await assertClean(guest, 'the invitation to join');
    await guest.click('[data-focus-key="online-join"]');
    await waitPhase(guest, ['setup']);
    await host.waitForSelector('[data-presence="connected"]');
    await assertClean(host, "the host arranging, the friend present");
    await confirmArrangement(host);
    await assertClean(host, 'the host waiting for the friend to confirm');
    await confirmArrangement(guest);
    await waitPhase(host, ['turn']);
    await playOne(host);
    await waitPhase(guest, ['turn']);
    await assertClean(guest, "the friend's turn after the host's move");
    await assertClean(host, "the host waiting for the friend's move");
    await guest.click('[data-focus-key="resign"]');
    await waitPhase(host, ['over']);
    await host.waitForSelector('[data-focus-key="rematch"]');
    await assertClean(host, 'the end of the game, with the rematch offered');
    await host.click('[data-focus-key="rematch"]');
    await assertClean(host, 'the rematch asked for, the friend not yet');
    await guest.close();
    await host.waitForSelector('[data-presence="away"]');
    await assertClean(host, 'the friend gone after the game');
    await host.close();
  });

  it('a friend who leaves while arranging: the offer of a CPU game', async () => {
    const host = await openOnlinePage(grid, server.url, { lang: 'ko', colorScheme });
    const guest = await openOnlinePage(grid, await createRoom(host), { colorScheme });
    await guest.waitForSelector('[data-focus-key="online-join"]');
    await guest.click('[data-focus-key="online-join"]');
    await host.waitForSelector('[data-presence="connected"]');
    await guest.close();
    await host.waitForSelector('[data-focus-key="online-cpu-offer"]', { timeout: 20_000 });
    await assertClean(host, 'the friend away, a CPU game offered');
    await host.close();
  });
});

describe('a high-contrast theme (forced colours)', () => {
  /** A picture of one square, with the pointer away so no hover changes it. */
  async function shot(page, square) {
    await page.mouse.move(0, 0);
    return page.locator(`.cell[data-square="${square}"]`).screenshot();
  }

  it('lowers a curtain that covers the board', async () => {
    const page = await openPage(grid, server.url, { lang: 'ko' });
    await page.emulateMedia({ forcedColors: 'active' });
    await page.click('.mode-button[data-mode="local"]');
    const cloth = await page.$eval('.curtain', (e) => getComputedStyle(e).backgroundColor);
    assert.doesNotMatch(cloth, /^rgba\(.*, 0\)$/, `the curtain is see-through: ${cloth}`);
    // Nothing of the board shows through: over a corner square (the card stands near the top) the
    // curtain is one plain colour.
    const cell = await page.locator('.cell[data-square="a1"]').boundingBox();
    const covered = decodePng(await page.screenshot({ clip: { x: cell.x, y: cell.y, width: cell.width, height: cell.height } }));
    const colours = new Set();
    for (let y = 0; y < covered.height; y += 2) for (let x = 0; x < covered.width; x += 2) colours.add(pixel(covered, x, y).join());
    assert.equal(colours.size, 1, `the square a1 shows through the curtain (${colours.size} colours)`);
    await page.close();
  });

  it('shows the pieces, the last move, the selection, the moves and the attacks, which it would otherwise drop', async () => {
    const page = await openPage(grid, server.url, { lang: 'ja' });
    await page.emulateMedia({ forcedColors: 'active' });
    // A few moves each, so that the board has empty squares to move to and pieces to attack.
    await cpuGameAfter(page, 4);
    const last = await page.$$eval('.cell.last', (els) => els.map((e) => getComputedStyle(e).borderTopStyle));
    assert.ok(last.length > 0 && last.every((style) => style === 'dotted'), `the last move's squares are framed: ${last}`);

    // Each piece stays a filled pentagon (its point tells the side), unlike the square under it.
    const fills = await page.$$eval('.cell.has-piece', (els) =>
      els.map((e) => [getComputedStyle(e.querySelector('.face')).backgroundColor, getComputedStyle(e).backgroundColor]),
    );
    assert.ok(fills.length > 0 && fills.every(([face, square]) => face !== square && !/^rgba\(.*, 0\)$/.test(face)), `piece fills: ${fills[0]}`);

    const moves = await page.evaluate(() => window.gunjinTest.legalMoves());
    const isEmpty = (sq) => page.$eval(`.cell[data-square="${sq}"]`, (e) => !e.classList.contains('has-piece'));
    const toEmpty = [];
    const toEnemy = [];
    for (const mv of moves) (await isEmpty(mv[1]) ? toEmpty : toEnemy).push(mv);
    assert.ok(toEmpty.length > 0 && toEnemy.length > 0, 'the position offers a quiet move and an attack');
    for (const [from, to] of [toEmpty[0], toEnemy[0]]) {
      // Focused first, then picked with Enter: only the selection differs between the pictures.
      await page.focus(`.cell[data-square="${from}"]`);
      const before = [await shot(page, from), await shot(page, to)];
      await page.keyboard.press('Enter');
      assert.match(await page.getAttribute(`.cell[data-square="${from}"]`, 'class'), /\bselected\b/);
      const after = [await shot(page, from), await shot(page, to)];
      assert.notDeepEqual(after[0], before[0], `the selected square ${from} looks selected`);
      assert.notDeepEqual(after[1], before[1], `the target ${to} looks like one`);
      await page.keyboard.press('Escape');
      assert.equal(await page.$('.cell.selected'), null, 'Escape let go of the square');
    }
    await page.close();
  });
});

describe('accessibility with the 3D board (WebGL)', () => {
  let webgl;
  before(async () => {
    webgl = await startBrowser();
  });
  after(async () => {
    await webgl?.close();
  });

  it('the 3D board with its view buttons, on a desktop and a phone', async () => {
    for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
      const page = await openPage(webgl, server.url, { lang: 'ja', viewport });
      await startLocalTurn(page);
      await page.waitForSelector('.board3d-mount canvas');
      assert.equal(await page.isHidden('.board3d-bar'), false, 'the view buttons are shown');
      await assertClean(page, `a turn with the 3D board (${viewport.width} px)`);
      await page.close();
    }
  });

  it("rings the view button the keyboard is on at 3:1 or more against the page, light and dark", async () => {
    for (const colorScheme of ['light', 'dark']) {
      const page = await openPage(webgl, server.url, { lang: 'ja', colorScheme });
      await startLocalTurn(page);
      await page.focus('.board3d-view-button[data-view="diagonal"]');
      await page.keyboard.press('Tab');
      const ring = await page.evaluate(() => {
        const el = document.activeElement;
        const style = getComputedStyle(el);
        const probe = document.createElement('div');
        probe.style.color = getComputedStyle(document.documentElement).getPropertyValue('--paper');
        document.body.append(probe);
        const paper = getComputedStyle(probe).color;
        probe.remove();
        return { view: el.dataset.view, focused: el.matches(':focus-visible'), style: style.outlineStyle, width: style.outlineWidth, colour: style.outlineColor, paper };
      });
      assert.equal(ring.view, 'top', 'Tab went from one view button to the other');
      assert.ok(ring.focused && ring.style !== 'none' && parseFloat(ring.width) >= 2, `${colorScheme}: a ring is drawn (${JSON.stringify(ring)})`);
      const ratio = contrast(ring.colour, ring.paper);
      assert.ok(ratio >= 3, `${colorScheme}: the ring ${ring.colour} against the page ${ring.paper} is ${ratio.toFixed(2)}:1`);
      await page.close();
    }
  });

  it('tells the chosen view in a high-contrast theme (forced colours)', async () => {
    const page = await openPage(webgl, server.url, { lang: 'ja' });
    await page.emulateMedia({ forcedColors: 'active' });
    await startLocalTurn(page);
    const slanted = page.locator('.board3d-view-button[data-view="diagonal"]');
    assert.equal(await slanted.getAttribute('aria-pressed'), 'true');
    await page.mouse.move(0, 0);
    const chosen = await slanted.screenshot();
    await page.click('.board3d-view-button[data-view="top"]');
    assert.equal(await slanted.getAttribute('aria-pressed'), 'false');
    await page.mouse.move(0, 0);
    await page.locator('body').focus();
    assert.notDeepEqual(await slanted.screenshot(), chosen, 'the chosen view looks chosen');
    await page.close();
  });
});

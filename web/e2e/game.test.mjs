// Browser end-to-end tests of the game page in real Chromium, against the real server.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  GRID_ONLY,
  arrowTo,
  documentText,
  focusedName,
  kindNames,
  openPage,
  pressSquare,
  startBrowser,
  startLocalTurn,
  startServer,
  tabTo,
} from '../e2e-support/game.mjs';

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await startBrowser(GRID_ONLY); // the grid alone: see GRID_ONLY
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** The viewer's own arrangement as shown on the grid: square → kind id. */
async function ownArrangement(page) {
  return page.evaluate(() => {
    const out = {};
    for (const el of document.querySelectorAll('.cell.own[data-kind]')) out[el.dataset.square] = el.dataset.kind;
    return out;
  });
}

const phase = (page) => page.evaluate(() => window.gunjinTest?.phase());

async function startLocal(page) {
  await page.click('.mode-button[data-mode="local"]');
  await page.click('.curtain button');
}

/** Every kind name of the language (whole words) and every kind id, found in the page. */
async function leakedKinds(page, lang) {
  const text = await documentText(page);
  const names = await kindNames(page, lang);
  const ids = await kindNames(page, 'id');
  const found = [];
  for (const word of [...names, ...ids]) {
    const re = lang === 'en' || ids.includes(word) ? new RegExp(`(^|[^a-z_])${word}([^a-z_]|$)`, 'i') : new RegExp(word);
    if (re.test(text)) found.push(word);
  }
  return found;
}

describe('one device, two players', () => {
  it('plays a whole game with the keyboard alone, to a natural end with everything revealed', async () => {
    const page = await openPage(browser, server.url);
    // The start screen puts the focus on the first mode (the CPU's beginner level, in the group
    // "Play the CPU"); Tab reaches the others. Each mode button is named by its title (a level by
    // its level), its description tells the rest.
    assert.match(await focusedName(page), /^Beginner/);
    assert.equal(await page.getByRole('group', { name: 'Play the CPU' }).getByRole('button', { name: 'Beginner', exact: true }).count(), 1);
    await tabTo(page, /^Two players on this device/);
    const named = await page.evaluate(() => {
      const b = document.activeElement;
      const byId = (attr) => document.getElementById(b.getAttribute(attr) ?? '')?.textContent;
      return [byId('aria-labelledby'), byId('aria-describedby')?.length ?? 0];
    });
    assert.equal(named[0], 'Two players on this device');
    assert.ok(named[1] > 20, 'a description beside the name');
    await page.keyboard.press('Enter');
    for (const side of ['Sente', 'Gote']) {
      // The keyboard lands on the curtain's words, which say what comes next; its button, one
      // name as on the seed page, is the next stop.
      assert.match(await focusedName(page), new RegExp(`^${side} arranges their pieces next`));
      await page.keyboard.press('Tab');
      assert.equal(await focusedName(page), `Start ${side}’s turn`);
      await page.keyboard.press('Enter');
      assert.match(await focusedName(page), /^[a-f]\d, your /);
      await tabTo(page, 'Confirm this arrangement');
      await page.keyboard.press('Enter');
    }
    let rng = 2024;
    const random = (n) => {
      rng = (rng * 1103515245 + 12345) % 2147483648;
      return rng % n;
    };
    let plies = 0;
    let battles = 0;
    while ((await phase(page)) !== 'over') {
      assert.ok(plies < 1500, 'the game should end');
      assert.match(await focusedName(page), /^It is (Sente|Gote)’s turn/);
      // Read once, as the focused card's name; nothing the last player heard stays in the live region.
      assert.equal(await page.textContent('.live'), '');
      await page.keyboard.press('Tab');
      const name = await focusedName(page);
      assert.match(name, /^Start (Sente|Gote)’s turn$/);
      const side = name.includes('Sente') ? 'sente' : 'gote';
      await page.keyboard.press('Enter');
      assert.equal(await phase(page), 'turn');
      const moves = await page.evaluate(() => window.gunjinTest.legalMoves());
      const enemyHq = side === 'sente' ? 'cd8' : 'cd1';
      const attacks = await page.evaluate(() =>
        [...document.querySelectorAll('.cell.enemy')].map((el) => el.dataset.square),
      );
      // A policy that ends games quickly: officers walk into the enemy HQ when they can, attacks
      // are preferred, and quiet moves mostly go forward.
      const own = await ownArrangement(page);
      const officers = ['general', 'lieutenant_general', 'major_general', 'colonel', 'lieutenant_colonel', 'major'];
      const row = (sq) => Number(sq.at(-1));
      const ahead = ([from, to]) => (side === 'sente' ? row(to) > row(from) : row(to) < row(from));
      const occupy = moves.filter(([from, to]) => to === enemyHq && officers.includes(own[from]));
      const fights = moves.filter(([, to]) => attacks.includes(to));
      const forward = moves.filter(ahead);
      const pool =
        occupy.length > 0
          ? occupy
          : fights.length > 0 && random(10) < 7
            ? fights
            : forward.length > 0 && random(10) < 8
              ? forward
              : moves;
      const [from, to] = pool[random(pool.length)];
      await pressSquare(page, from);
      assert.match(await focusedName(page), new RegExp(`^${from}, your .*selected`));
      // Said with the squares it can reach, not their number (a plane's reach is far away).
      if (plies < 6) {
        assert.match(await page.textContent('.live'), new RegExp(`^${from} selected\\. Squares to move to: .*\\b${to}[,;.]`));
      }
      const target = await page.evaluate((sq) => document.querySelector(`.cell[data-square="${sq}"]`).className, to);
      assert.ok(/\b(move|attack)\b/.test(target), `${to} should be marked as a destination`);
      await pressSquare(page, to);
      plies++;
      const live = await page.textContent('.live');
      const over = (await phase(page)) === 'over';
      // The move that ends the game is told by side: both players may be looking now.
      assert.match(live, new RegExp(over ? `(Sente|Gote) moved ${from} to ${to}` : `You moved ${from} to ${to}`));
      if (/ won \(| lost \(| both removed/.test(live)) battles++;
      if (over) break;
      assert.equal(await focusedName(page), 'Hand over');
      await page.keyboard.press('Enter');
    }
    assert.ok(battles > 0, 'battles were reported in the player’s terms');
    const result = await page.textContent('.result-text');
    assert.match(result, /wins: .*’s headquarters was occupied|wins: .* has no legal move|^Draw: /);
    assert.doesNotMatch(result, /resigned/);
    // Every piece on the board is revealed with its kind.
    const hidden = await page.$$eval('.cell.has-piece:not([data-kind])', (els) => els.length);
    assert.equal(hidden, 0);
    const shown = await page.$$eval('.cell.has-piece[data-kind]', (els) => els.length);
    assert.ok(shown > 0);
    console.log(`# keyboard game: ${plies} plies, ${battles} battles seen by the mover, result: ${result}`);
    await page.close();
  });

  it('shows no kind of the waiting side while the curtain is down (English and Japanese)', async () => {
    for (const lang of ['en', 'ja']) {
      const page = await openPage(browser, server.url, { lang });
      await page.click('.mode-button[data-mode="local"]');
      assert.deepEqual(await leakedKinds(page, lang), [], 'before sente arranges');
      await page.click('.curtain button');
      assert.ok((await leakedKinds(page, lang)).length > 0, 'the arranging side sees its kinds');
      await page.click('[data-focus-key="confirm"]');
      assert.deepEqual(await leakedKinds(page, lang), [], 'curtain before gote arranges');
      await page.click('.curtain button');
      await page.click('[data-focus-key="confirm"]');
      assert.deepEqual(await leakedKinds(page, lang), [], "curtain before sente's turn");
      await page.click('.curtain button');
      // Sente moves; then the curtain for gote must hide sente's kinds and the messages.
      const [from, to] = await page.evaluate(() => window.gunjinTest.legalMoves()[0]);
      await page.click(`.cell[data-square="${from}"]`);
      await page.click(`.cell[data-square="${to}"]`);
      await page.click('[data-focus-key="hand-over"]');
      assert.equal(await phase(page), 'turn-curtain');
      assert.deepEqual(await leakedKinds(page, lang), [], "curtain before gote's turn");
      // Under the curtain the board is out of the Tab order and the reading; the curtain's card is in view.
      assert.equal(await page.$eval('.grid', (el) => el.inert), true);
      assert.equal(await page.$eval('.curtain-card', (el) => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }), true);
      // Gote's turn: sente's pieces show no kind, only gote's own.
      await page.click('.curtain button');
      const enemyKinds = await page.$$eval('.cell.sente[data-kind]', (els) => els.length);
      assert.equal(enemyKinds, 0);
      const enemyNames = await page.$$eval('.cell.sente', (els) => els.map((e) => e.getAttribute('aria-label')));
      assert.ok(enemyNames.length > 0);
      for (const n of enemyNames) assert.match(n, lang === 'en' ? /^[a-f]\d|cd\d, enemy piece/ : /相手の駒/);
      await page.close();
    }
  });

  it('on a phone, each turn begins with the board in view, and the hand-over is pressed in the strip below it', async () => {
    const page = await openPage(browser, server.url, { viewport: { width: 360, height: 640 } });
    // Run in the page: the board's top is in the upper half of the window.
    const boardOnTop = () => {
      const board = document.querySelector('.board3d-mount:not([hidden])') ?? document.querySelector('.grid');
      const r = board.getBoundingClientRect();
      return r.top >= -1 && r.top < innerHeight / 2;
    };
    const boardInView = () => page.evaluate(boardOnTop);
    await startLocalTurn(page);
    for (const side of ['sente', 'gote']) {
      assert.equal(await phase(page), 'turn');
      assert.ok(await boardInView(), `${side}'s turn began away from the board`);
      const [from, to] = await page.evaluate(() => window.gunjinTest.legalMoves()[0]);
      await page.evaluate(([f, t]) => {
        document.querySelector(`.cell[data-square="${f}"]`).click();
        document.querySelector(`.cell[data-square="${t}"]`).click();
      }, [from, to]);
      // The panel's button is a screen below; the strip's is on screen, for a finger only.
      const box = await page.$eval('[data-strip-action="hand-over"]', (el) => {
        const r = el.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, tab: el.tabIndex, hidden: el.closest('[aria-hidden="true"]') !== null };
      });
      assert.ok(box.top >= 0 && box.bottom <= 640, JSON.stringify(box));
      assert.equal(box.tab, -1);
      assert.ok(box.hidden);
      await page.click('[data-strip-action="hand-over"]');
      assert.equal(await phase(page), 'turn-curtain');
      assert.equal(await page.$('[data-strip-action]'), null);
      await page.click('.curtain button');
    }
    // The phone turned sideways while the player reads further down: the board comes back.
    await page.evaluate(() => scrollTo(0, document.body.scrollHeight));
    assert.ok(!(await boardInView()));
    await page.setViewportSize({ width: 640, height: 360 });
    await page.waitForFunction(boardOnTop);
    await page.close();
  });

  it('on a phone, a keyboard player is shown the control the focus moves to: the hand-over, then the result', async () => {
    const page = await openPage(browser, server.url, { viewport: { width: 390, height: 844 } });
    await startLocalTurn(page);
    const shown = () =>
      page.evaluate(() => {
        const el = document.activeElement;
        const r = el.getBoundingClientRect();
        // On screen, and not under the strip pinned to the window's bottom.
        const strip = document.querySelector('.status-strip:not([hidden])')?.getBoundingClientRect();
        const covered = strip !== undefined && strip.top < r.bottom - 1 && strip.bottom > r.top + 1;
        return { key: el.dataset.focusKey ?? el.className, inView: r.top >= 0 && r.bottom <= innerHeight && !covered };
      });
    const [from, to] = await page.evaluate(() => window.gunjinTest.legalMoves()[0]);
    await page.focus(`.cell[data-square="${from}"]`);
    await page.keyboard.press('Enter');
    await page.focus(`.cell[data-square="${to}"]`);
    // Held: its repeats do not go on to press "hand over", where the focus has moved.
    await page.keyboard.down('Enter');
    await page.keyboard.down('Enter');
    await page.keyboard.down('Enter');
    await page.keyboard.up('Enter');
    assert.equal(await phase(page), 'moved');
    assert.deepEqual(await shown(), { key: 'hand-over', inView: true });
    await page.keyboard.press('Enter');
    // The hand-over's Enter pressed again, or held, does not lift the curtain for the one who
    // just moved: the keyboard is on the curtain's words, and the next player goes on to its button.
    await page.keyboard.press('Enter');
    await page.keyboard.down('Enter');
    await page.keyboard.down('Enter');
    await page.keyboard.up('Enter');
    assert.equal(await phase(page), 'turn-curtain');
    assert.deepEqual(await shown(), { key: 'curtain', inView: true });
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter'); // the curtain's button
    assert.equal(await phase(page), 'turn');
    await page.focus('[data-focus-key="resign"]');
    await page.keyboard.press('Enter');
    assert.equal(await phase(page), 'over');
    assert.deepEqual(await shown(), { key: 'result', inView: true });
    await page.close();
  });

  it('offers the arrangement\'s confirm and, at the end, play again in a phone\'s strip, where the panel is screens below', async () => {
    const page = await openPage(browser, server.url, { viewport: { width: 390, height: 844 } });
    await page.click('.mode-button[data-mode="local"]');
    await page.click('.curtain button');
    assert.equal(await phase(page), 'setup');
    const confirm = await page.$eval('[data-strip-action="confirm"]', (el) => ({ text: el.dataset.text, tab: el.tabIndex }));
    assert.deepEqual(confirm, { text: (await page.textContent('.panel [data-focus-key="confirm"]')).trim(), tab: -1 });
    await page.click('[data-strip-action="confirm"]');
    assert.equal(await phase(page), 'setup-curtain');
    await page.click('.curtain button');
    await page.click('[data-strip-action="confirm"]');
    await page.click('.curtain button');
    assert.equal(await phase(page), 'turn');
    // Nothing to confirm while playing.
    assert.equal(await page.$('[data-strip-action="confirm"]'), null);
    await page.click('[data-focus-key="resign"]');
    assert.equal(await phase(page), 'over');
    assert.equal(await page.$eval('[data-strip-action="play-again"]', (el) => el.dataset.text), (await page.textContent('.panel [data-focus-key="play-again"]')).trim());
    await page.click('[data-strip-action="play-again"]');
    assert.match(await phase(page), /^setup/);
    await page.close();
  });

  it('resigns with one press, reveals everything, then plays again or goes back to the modes', async () => {
    const page = await openPage(browser, server.url);
    await startLocalTurn(page);
    assert.equal(await phase(page), 'turn');
    assert.equal((await page.textContent('[data-focus-key="resign"]')).trim(), 'Resign');
    // After the game's other buttons, not first after the board: a stray press loses the game.
    const order = await page.$$eval('.panel [data-focus-key]', (els) => els.map((e) => e.dataset.focusKey));
    assert.ok(order.indexOf('resign') > order.indexOf('play-again') && order.indexOf('resign') > order.indexOf('choose-mode'), order.join(' '));
    await page.click('[data-focus-key="resign"]');
    assert.equal(await phase(page), 'over');
    assert.equal((await page.textContent('.result-text')).trim(), 'Gote wins: Sente resigned.');
    // Two players share the screen: no "you won" that would name nobody.
    assert.equal(await page.$$eval('.result-verdict', (els) => els.length), 0);
    assert.equal(await page.$$eval('.cell.has-piece[data-kind]', (els) => els.length), 46);
    // Nor do the squares call the last mover's pieces "yours": each is named by its side.
    const names = await page.$$eval('.cell.has-piece', (els) => els.map((e) => e.getAttribute('aria-label')));
    assert.equal(names.filter((n) => /your/i.test(n)).length, 0, names.join(' | '));
    assert.equal(names.filter((n) => /, (Sente|Gote) /.test(n)).length, 46, names.join(' | '));
    // No undo once moves begin: the setup's undo button is gone.
    assert.equal(await page.$('[data-focus-key="undo"]'), null);
    await page.click('[data-focus-key="play-again"]');
    assert.equal(await phase(page), 'setup-curtain');
    assert.equal(await page.$$eval('.cell[data-kind]', (els) => els.length), 0);
    await page.click('[data-focus-key="choose-mode"]');
    assert.equal(await phase(page), 'start');
    await page.waitForSelector('.mode-button[data-mode="local"]');
    await page.close();
  });

  it('"play again" behind the curtain keeps the game it left until both have arranged the new one', async () => {
    const page = await openPage(browser, server.url);
    await startLocalTurn(page);
    const [from, to] = (await page.evaluate(() => window.gunjinTest.legalMoves()))[0];
    await page.click(`.cell[data-square="${from}"]`);
    await page.click(`.cell[data-square="${to}"]`);
    await page.click('[data-focus-key="hand-over"]');
    assert.equal(await phase(page), 'turn-curtain');
    // The player waiting for the device presses "play again": the game is not lost.
    await page.click('[data-focus-key="play-again"]');
    assert.equal(await phase(page), 'setup-curtain');
    assert.match(await page.textContent('.set-aside'), /The game you left \(moves played: 1\)/);
    await page.click('[data-focus-key="set-aside-back"]');
    assert.equal(await phase(page), 'turn-curtain');
    assert.equal(await page.textContent('.curtain-text').then((t) => /^It is Gote’s turn/.test(t)), true);
    await page.click('.curtain button');
    assert.match(await page.textContent('.log-box summary'), /moves: 1/);
    // Offered through both arrangements of the new game, gone once it begins.
    await page.click('[data-focus-key="play-again"]');
    for (let i = 0; i < 2; i++) {
      assert.equal(await page.isVisible('[data-focus-key="set-aside-back"]'), true);
      await page.click('.curtain button');
      await page.click('[data-focus-key="confirm"]');
    }
    assert.equal(await phase(page), 'turn-curtain');
    assert.equal(await page.$('.set-aside'), null);
    await page.close();
  });

  it('goes on after a reload behind the curtain of the side to move, also after leaving it, and forgets it once it is over', async () => {
    const page = await openPage(browser, server.url);
    await startLocalTurn(page);
    for (let i = 0; i < 3; i++) {
      if (i > 0) await page.click('.curtain button');
      const [from, to] = await page.evaluate(() => window.gunjinTest.legalMoves()[0]);
      await page.click(`.cell[data-square="${from}"]`);
      await page.click(`.cell[data-square="${to}"]`);
      await page.click('[data-focus-key="hand-over"]');
    }
    // Gote's turn: what gote is shown, from the kinds on its board to what it is told.
    await page.click('.curtain button');
    const seen = () =>
      page.evaluate(() => ({
        cells: [...document.querySelectorAll('.cell.has-piece')].map((e) => `${e.dataset.square}:${e.classList.contains('gote') ? 'gote' : 'sente'}:${e.dataset.kind ?? '?'}`).sort(),
        told: document.querySelector('.reports')?.textContent ?? '',
        log: document.querySelector('.log-box summary')?.textContent ?? '',
      }));
    const before = await seen();
    assert.match(before.log, /\(moves: 3\)/);
    assert.ok(before.cells.every((c) => (c.includes(':gote:') ? !c.endsWith(':?') : c.endsWith(':?'))), 'gote sees its own kinds only');

    await page.reload();
    await page.waitForSelector('[data-focus-key="resume-local"]');
    assert.match(await page.textContent('.resume'), /Two players on this device.*moves played: 3/);
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.focusKey), 'resume-local');
    await page.keyboard.press('Enter');
    assert.equal(await phase(page), 'turn-curtain');
    assert.deepEqual(await leakedKinds(page, 'en'), [], 'the curtain is down after the reload');
    await page.click('.curtain button');
    assert.deepEqual(await seen(), before);
    // Leaving the game for the start screen keeps it, to go on with.
    await page.click('[data-focus-key="choose-mode"]');
    await page.click('[data-focus-key="resume-local"]');
    assert.equal(await phase(page), 'turn-curtain');
    await page.click('.curtain button');
    assert.deepEqual(await seen(), before);
    // Resigned, it is over: nothing is offered any more.
    await page.click('[data-focus-key="resign"]');
    await page.click('[data-focus-key="choose-mode"]');
    assert.equal(await page.$('[data-focus-key="resume-local"]'), null);
    assert.equal(await page.evaluate(() => localStorage.getItem('gunjin.localGame')), null);
    await page.close();
  });

  it('keeps the first arrangement through a reload while the second player arranges', async () => {
    const page = await openPage(browser, server.url);
    await startLocal(page);
    const sente = await ownArrangement(page);
    assert.equal(Object.keys(sente).length, 23);
    await page.click('[data-focus-key="confirm"]');
    assert.equal(await phase(page), 'setup-curtain');

    await page.reload();
    await page.waitForSelector('[data-focus-key="resume-local"]');
    assert.match(await page.textContent('.resume'), /Two players on this device.*Gote was still arranging/);
    await page.click('[data-focus-key="resume-local"]');
    // Gote's curtain, nothing of sente's shown behind it, then gote arranging.
    assert.equal(await phase(page), 'setup-curtain');
    assert.deepEqual(await leakedKinds(page, 'en'), [], 'the curtain is down after the reload');
    assert.match(await page.textContent('.curtain-text'), /Gote/);
    await page.click('.curtain button');
    assert.equal(await phase(page), 'setup');
    const gote = await ownArrangement(page);
    assert.ok(Object.keys(gote).every((sq) => /[5-8]$/.test(sq)), 'gote arranges its own camp');
    await page.click('[data-focus-key="confirm"]');
    // The game begins with the arrangement sente confirmed before the reload.
    assert.equal(await phase(page), 'turn-curtain');
    await page.click('.curtain button');
    assert.deepEqual(await ownArrangement(page), sente);
    await page.close();
  });

  it('looks back over a finished game move by move from both starting arrangements, every piece shown', async () => {
    const page = await openPage(browser, server.url);
    await page.click('.mode-button[data-mode="local"]');
    const start = {};
    for (const side of ['sente', 'gote']) {
      await page.click('.curtain button');
      for (const [sq, kind] of Object.entries(await ownArrangement(page))) start[sq] = `${side}:${kind}`;
      await page.click('[data-focus-key="confirm"]');
    }
    await page.click('.curtain button');
    const board = () =>
      page.evaluate(() => {
        const out = {};
        for (const el of document.querySelectorAll('.cell.has-piece[data-kind]')) {
          out[el.dataset.square] = `${el.classList.contains('sente') ? 'sente' : 'gote'}:${el.dataset.kind}`;
        }
        return out;
      });
    // A few moves, battles first, then a resignation; the record, once opened, stays open.
    await page.click('.log-box summary');
    const played = [];
    for (let ply = 0; ply < 8; ply++) {
      const moves = await page.evaluate(() => window.gunjinTest.legalMoves());
      const enemies = await page.$$eval('.cell.enemy', (els) => els.map((e) => e.dataset.square));
      const fights = moves.filter(([, to]) => enemies.includes(to));
      const pool = fights.length > 0 ? fights : moves;
      const [from, to] = pool[ply % pool.length];
      played.push([from, to]);
      await page.click(`.cell[data-square="${from}"]`);
      await page.click(`.cell[data-square="${to}"]`);
      if ((await phase(page)) === 'over') break;
      await page.click('[data-focus-key="hand-over"]');
      await page.click('.curtain button');
    }
    if ((await phase(page)) !== 'over') await page.click('[data-focus-key="resign"]');
    assert.equal(await phase(page), 'over');
    assert.equal(await page.evaluate(() => document.querySelector('.log-box').open), true, 'the record stayed open');
    const end = await board();
    assert.equal(await page.getAttribute('.review', 'data-review-at'), String(played.length));
    assert.equal(await page.isDisabled('[data-focus-key="review-forward"]'), true);

    const reportsAtEnd = await page.$$eval('.reports li', (els) => els.length);
    assert.ok(reportsAtEnd > 0, 'the last move is reported');
    // Two share the screen: the end names sides, not a "you" that would be whoever moved last.
    const told = await page.$$eval('.reports li', (els) => els.map((el) => el.textContent));
    assert.ok(told.every((line) => /^(Sente|Gote)(’s|'s)? /.test(line) && !/\bYour?\b/.test(line)), JSON.stringify(told));
    const lossHeads = await page.$$eval('.removed h3', (els) => els.map((el) => el.textContent));
    assert.deepEqual(lossHeads.sort(), ['Pieces removed Gote', 'Pieces removed Sente']);
    await page.click('[data-focus-key="review-first"]');
    assert.deepEqual(await board(), start, 'the start shows both arrangements face up');
    assert.equal(await page.$$eval('.reports li', (els) => els.length), 0, 'no report of the last move over an earlier board');
    assert.equal((await page.textContent('.review-at')).trim(), `The arrangements at the start (moves in all: ${played.length})`);
    assert.equal(await page.$$eval('.cell.last', (els) => els.length), 0);

    const ids = await kindNames(page, 'id');
    const names = await kindNames(page, 'en');
    await page.click('[data-focus-key="review-forward"]');
    const [from, to] = played[0];
    assert.equal((await page.textContent('.review-at')).trim(), `Move 1 of ${played.length}`);
    const mover = names[ids.indexOf(start[from].split(':')[1])];
    assert.ok((await page.textContent('.review-ply')).trim().startsWith(`Sente ${mover}: ${from} → ${to}`));
    assert.deepEqual(await page.$$eval('.cell.last', (els) => els.map((e) => e.dataset.square).sort()), [from, to].sort());
    const after = await board();
    assert.equal(after[from], undefined, 'the mover left its square');
    assert.match(await page.textContent('.live'), new RegExp(`Move 1 of ${played.length}\\. Sente `));

    // The keyboard stays on the buttons: at the start, "back" gives way to "forward".
    await page.focus('[data-focus-key="review-back"]');
    await page.keyboard.press('Enter');
    assert.equal(await page.getAttribute('.review', 'data-review-at'), '0');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.focusKey), 'review-forward');

    // The arrow keys step too, and Home / End go to the start and the end.
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.getAttribute('.review', 'data-review-at'), '1');
    await page.keyboard.press('End');
    assert.equal(await page.getAttribute('.review', 'data-review-at'), String(played.length));
    await page.keyboard.press('ArrowLeft');
    assert.equal(await page.getAttribute('.review', 'data-review-at'), String(played.length - 1));
    await page.keyboard.press('Home');
    assert.equal(await page.getAttribute('.review', 'data-review-at'), '0');
    assert.match(await page.evaluate(() => document.activeElement?.dataset.focusKey ?? ''), /^review-/);
    // A double click on "forward" steps twice: the same button, redrawn, takes both clicks.
    if (played.length >= 2) {
      await page.dblclick('[data-focus-key="review-forward"]');
      assert.equal(await page.getAttribute('.review', 'data-review-at'), '2');
    }

    // Each line of the record takes the review to the position after that move.
    await page.click('[data-focus-key="log-2"]');
    assert.equal(await page.getAttribute('.review', 'data-review-at'), '2');
    assert.equal(await page.getAttribute('[data-focus-key="log-2"]', 'aria-current'), 'step');
    assert.equal(await page.evaluate(() => document.querySelector('.log-box').open), true, 'the record stays open');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.focusKey), 'log-2');
    assert.equal((await page.textContent('.review-at')).trim(), `Move 2 of ${played.length}`);
    // The record is one Tab stop, the line shown; the arrow keys, Home and End go along it.
    assert.deepEqual(await page.$$eval('.log-jump', (els) => els.filter((b) => b.tabIndex === 0).map((b) => b.dataset.focusKey)), ['log-2']);
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.focusKey), 'log-3');
    await page.keyboard.press('End');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.focusKey), `log-${played.length}`);
    await page.keyboard.press('Home');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.focusKey), 'log-1');
    assert.equal(await page.getAttribute('.review', 'data-review-at'), '2', 'moving along the record shows nothing yet');
    await page.keyboard.press('Enter');
    assert.equal(await page.getAttribute('.review', 'data-review-at'), '1');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.focusKey), 'log-1');

    await page.click('[data-focus-key="review-last"]');
    assert.deepEqual(await board(), end, 'the end is the board as the game finished');
    assert.equal(await page.$$eval('.reports li', (els) => els.length), reportsAtEnd);

    // The whole record, both arrangements face up and every move with its kinds, to the clipboard.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(server.url).origin });
    await page.click('[data-focus-key="record-copy"]');
    await page.waitForSelector('[data-record-copy="ok"]');
    const record = await page.evaluate(() => navigator.clipboard.readText());
    const lines = record.split('\n');
    assert.match(lines[0], /^Gunjin Shogi — Two players on this device — \d{4}-\d{2}-\d{2}$/);
    assert.ok(lines.includes('Sente: arrangement') && lines.includes('Gote: arrangement'), record);
    for (const [sq, who] of Object.entries(start)) {
      assert.ok(lines.some((l) => l.includes(`${sq} ${names[ids.indexOf(who.split(':')[1])]}`)), `${sq} in the record`);
    }
    assert.equal(lines.filter((l) => /^\d+\. (Sente|Gote) /.test(l)).length, played.length);
    assert.ok(lines.includes(`1. Sente ${mover}: ${from} → ${to}`) || lines.some((l) => l.startsWith(`1. Sente ${mover}: ${from} → ${to} (`)), record);
    assert.match(await page.textContent('.live'), /The game record is on the clipboard/);
    // Where the clipboard refuses, the record is shown to copy by hand.
    await page.evaluate(() => {
      navigator.clipboard.writeText = () => Promise.reject(new Error('denied'));
    });
    await page.click('[data-focus-key="record-copy"]');
    await page.waitForSelector('[data-record-copy="failed"]');
    assert.equal(await page.inputValue('.record-text'), record);
    const at = await page.getAttribute('.review', 'data-review-at');
    await page.focus('.record-text');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await page.getAttribute('.review', 'data-review-at'), at, 'arrows in the text move the caret, not the review');
    // A new game starts without the review.
    await page.click('[data-focus-key="play-again"]');
    assert.equal(await page.$('.review'), null);
    // The next game's end offers its own record, with nothing left of the last copy.
    for (let i = 0; i < 2; i++) {
      await page.click('.curtain button');
      await page.click('[data-focus-key="confirm"]');
    }
    await page.click('.curtain button');
    const [nextFrom, nextTo] = (await page.evaluate(() => window.gunjinTest.legalMoves()))[0];
    await page.click(`.cell[data-square="${nextFrom}"]`);
    await page.click(`.cell[data-square="${nextTo}"]`);
    if ((await phase(page)) !== 'over') await page.click('[data-focus-key="resign"]');
    assert.equal(await phase(page), 'over');
    assert.ok(await page.$('[data-focus-key="record-copy"]'));
    assert.equal(await page.$('[data-record-copy]'), null);
    await page.close();
  });

  it('marks the last move in orange for both players and lists removed pieces: own by name, the enemy’s as a count', async () => {
    const page = await openPage(browser, server.url);
    await startLocalTurn(page);
    // Moving has begun: the setup's undo is not offered any more.
    assert.equal(await phase(page), 'turn');
    assert.equal(await page.$('[data-focus-key="undo"]'), null);
    const ids = await kindNames(page, 'id');
    const names = await kindNames(page, 'en');
    const nameOf = (id) => names[ids.indexOf(id)];
    const lastSquares = () => page.$$eval('.cell.last', (els) => els.map((e) => e.dataset.square).sort());
    /** The removed lists agree with what left the board: own names, the enemy's count. */
    const checkRemoved = async (side) => {
      const other = side === 'sente' ? 'gote' : 'sente';
      const ownText = (await page.textContent('.removed-own')).trim();
      const ownLost = ownText === 'none' ? [] : ownText.split(', ');
      assert.equal(ownLost.length, 23 - (await page.$$eval(`.cell.${side}`, (els) => els.length)), ownText);
      for (const n of ownLost) assert.ok(names.includes(n), `${n} is a piece name`);
      // Listed in the piece table's order, whatever order they were lost in.
      assert.deepEqual(ownLost, [...ownLost].sort((a, b) => names.indexOf(a) - names.indexOf(b)), ownText);
      const enemyText = (await page.textContent('.removed-enemy')).trim();
      assert.match(enemyText, /^\d+$/, 'the enemy’s losses as a number only');
      assert.equal(Number(enemyText), 23 - (await page.$$eval(`.cell.${other}`, (els) => els.length)));
      return ownLost;
    };
    let battles = 0;
    for (let ply = 0; ply < 60 && battles < 3; ply++) {
      const side = ply % 2 === 0 ? 'sente' : 'gote';
      const moves = await page.evaluate(() => window.gunjinTest.legalMoves());
      const enemies = await page.$$eval('.cell.enemy', (els) => els.map((e) => e.dataset.square));
      const fights = moves.filter(([, to]) => enemies.includes(to));
      const [from, to] = (fights.length > 0 ? fights : moves)[ply % (fights.length > 0 ? fights.length : moves.length)];
      const kind = await page.$eval(`.cell[data-square="${from}"]`, (e) => e.dataset.kind);
      const lostBefore = await checkRemoved(side);
      await page.click(`.cell[data-square="${from}"]`);
      await page.click(`.cell[data-square="${to}"]`);
      if ((await phase(page)) === 'over') break;
      // The mover sees the move framed, and the battle in their own terms.
      assert.deepEqual(await lastSquares(), [from, to].sort());
      assert.match(await page.getAttribute(`.cell[data-square="${to}"]`, 'aria-label'), /last move/);
      const battle = await page.$$eval('.reports li.battle', (els) => els.map((e) => e.textContent));
      if (battle.length > 0) {
        battles++;
        assert.equal(battle.length, 1);
        assert.ok(battle[0].startsWith(`Your ${nameOf(kind)} `), battle[0]);
        assert.ok(battle[0].endsWith(`(${to}).`), battle[0]);
        const lostAfter = await checkRemoved(side);
        if (/ lost | both removed/.test(battle[0])) assert.equal(lostAfter.length, lostBefore.length + 1);
        if (/ lost | both removed/.test(battle[0])) assert.ok(lostAfter.includes(nameOf(kind)));
      }
      await page.click('[data-focus-key="hand-over"]');
      await page.click('.curtain button');
      // The next player sees the same squares framed, and never the enemy piece's name.
      assert.deepEqual(await lastSquares(), [from, to].sort());
      await checkRemoved(side === 'sente' ? 'gote' : 'sente');
      for (const li of await page.$$eval('.reports li.battle', (els) => els.map((e) => e.textContent))) {
        const m = /^Your (.+?) (won|lost|and the enemy piece were both removed) \(/.exec(li);
        assert.ok(m !== null && names.includes(m[1]), `${li} names the defender's own piece`);
        const rest = li.slice(`Your ${m[1]}`.length);
        for (const n of names) assert.ok(!new RegExp(`\\b${n}\\b`).test(rest), `${li} names an enemy piece`);
      }
    }
    assert.ok(battles > 0, 'battles happened');
    await page.close();
  });

  it("turns gote's board so gote's camp is at the bottom", async () => {
    const page = await openPage(browser, server.url);
    await startLocal(page);
    const rowOf = (sq) => page.$eval(`.cell[data-square="${sq}"]`, (el) => Number(el.dataset.row));
    assert.equal(await rowOf('cd1'), 7);
    assert.equal(await rowOf('cd8'), 0);
    await page.click('[data-focus-key="confirm"]');
    await page.click('.curtain button');
    assert.equal(await rowOf('cd8'), 7);
    assert.equal(await rowOf('cd1'), 0);
    const a5 = await page.$eval('.cell[data-square="a5"]', (el) => el.getBoundingClientRect().x);
    const f5 = await page.$eval('.cell[data-square="f5"]', (el) => el.getBoundingClientRect().x);
    assert.ok(a5 > f5, 'column a is on the right for gote');
    await page.close();
  });
});

describe('setup', () => {
  it('refuses a swap that puts the flag on the back row, with the reason', async () => {
    const page = await openPage(browser, server.url);
    await startLocal(page);
    const before = await ownArrangement(page);
    // The squares the rules name are named so too: the four entrances and the headquarters.
    const label = (sq) => page.getAttribute(`.cell[data-square="${sq}"]`, 'aria-label');
    for (const sq of ['b4', 'e4', 'b5', 'e5']) assert.match(await label(sq), new RegExp(`^${sq}, .*, entrance$`));
    assert.match(await label('cd1'), /^cd1, .*, headquarters$/);
    for (const sq of ['a4', 'c4', 'b3']) assert.doesNotMatch(await label(sq), /entrance|headquarters/);
    const flag = Object.keys(before).find((sq) => before[sq] === 'flag');
    await page.click(`.cell[data-square="${flag}"]`);
    assert.match(await page.getAttribute(`.cell[data-square="${flag}"]`, 'class'), /\bselected\b/);
    await page.click('.cell[data-square="a1"]');
    assert.equal(
      (await page.textContent('[data-notice]')).trim(),
      'Swap refused: the flag may not stand on the back row (a1).',
    );
    assert.deepEqual(await ownArrangement(page), before);
    // A mine on an entrance is refused too.
    const mine = Object.keys(before).find((sq) => before[sq] === 'mine');
    await page.click(`.cell[data-square="${mine}"]`);
    await page.click('.cell[data-square="b4"]');
    if (before.b4 !== 'mine') {
      assert.match(await page.textContent('[data-notice]'), /a mine may not stand on an entrance \(b4\)/);
    }
    assert.deepEqual(await ownArrangement(page), before);
    // A square of the other camp says why nothing is swapped and lets go of the piece chosen, as
    // a refused swap does.
    await page.click('.cell[data-square="c6"]');
    assert.equal((await page.textContent('[data-notice]')).trim(), 'c6 is not in your camp.');
    await page.click(`.cell[data-square="${flag}"]`);
    await page.click('.cell[data-square="c6"]');
    assert.equal((await page.textContent('[data-notice]')).trim(), 'c6 is not in your camp. Choice cleared.');
    assert.equal(await page.$('.cell.selected'), null);
    assert.deepEqual(await ownArrangement(page), before);
    await page.close();
  });

  it('swaps with two presses, undoes, mirrors, re-arranges; loads the arrangement of the last CPU game, turned round for gote, but not for two at one device', async () => {
    const page = await openPage(browser, server.url);
    await startLocal(page);
    const start = await ownArrangement(page);
    // Two presses with the keyboard swap a3 and f3 (any kind may stand on either); Escape lets go
    // of a square picked by mistake.
    await page.focus('.cell[tabindex="0"]');
    await pressSquare(page, 'b2');
    assert.equal(await page.$$eval('.cell.selected', (els) => els.map((e) => e.dataset.square).join()), 'b2');
    await page.keyboard.press('Escape');
    assert.equal(await page.$$eval('.cell.selected', (els) => els.length), 0);
    assert.deepEqual(await ownArrangement(page), start);
    await pressSquare(page, 'a3');
    await pressSquare(page, 'f3');
    const swapped = await ownArrangement(page);
    assert.equal(swapped.a3, start.f3);
    assert.equal(swapped.f3, start.a3);
    // Told with both pieces: a player who cannot see the board knows what moved where.
    const name = (id) => (id === 'second_lieutenant' ? 'second lieutenant' : id.replace(/_/g, ' '));
    assert.equal((await page.textContent('[data-notice]')).trim(), `The ${name(start.a3)} on a3 and the ${name(start.f3)} on f3 changed places.`);
    // Undo by the keyboard: with nothing left to undo the button goes grey, and the focus stays
    // beside it instead of falling back to the top of the page.
    await page.focus('[data-focus-key="undo"]');
    await page.keyboard.press('Enter');
    assert.deepEqual(await ownArrangement(page), start);
    assert.equal((await page.textContent('[data-notice]')).trim(), 'Took back the swap of a3 and f3.');
    assert.equal(await page.$eval('[data-focus-key="undo"]', (b) => b.disabled), true);
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.focusKey), 'mirror');

    await page.click('[data-focus-key="mirror"]');
    const mirrored = await ownArrangement(page);
    const mirror = { a: 'f', b: 'e', c: 'd', d: 'c', e: 'b', f: 'a' };
    for (const [sq, kind] of Object.entries(start)) {
      const other = sq === 'cd1' ? 'cd1' : `${mirror[sq[0]]}${sq[1]}`;
      assert.equal(mirrored[other], kind, `${sq} mirrored to ${other}`);
    }

    await page.click('[data-focus-key="rearrange"]');
    const rearranged = await ownArrangement(page);
    assert.equal(Object.keys(rearranged).length, 23);
    assert.notDeepEqual(rearranged, mirrored);

    // Two people at one device share no saved arrangement: one player could call up the other's.
    assert.equal(await page.$('[data-focus-key="previous"]'), null);

    // A game on this device is not remembered: both confirm, play again, then against the CPU
    // nothing is saved yet, and the previous arrangement says so and changes nothing.
    await page.click('[data-focus-key="confirm"]');
    await page.click('.curtain button');
    await page.click('[data-focus-key="confirm"]');
    await page.click('.curtain button');
    await page.click('[data-focus-key="play-again"]');
    await page.click('.curtain button');
    assert.equal(await phase(page), 'setup');
    await page.click('[data-focus-key="choose-mode"]');
    await page.click('.mode-button[data-mode="cpu-beginner"]');
    const dealt = await ownArrangement(page);
    await page.click('[data-focus-key="previous"]');
    assert.match(await page.textContent('[data-notice]'), /No arrangement has been saved/);
    assert.deepEqual(await ownArrangement(page), dealt);

    // An arrangement confirmed against the CPU is: it comes back in the next CPU game.
    await page.click('[data-focus-key="rearrange"]');
    const confirmed = await ownArrangement(page);
    await page.click('[data-focus-key="confirm"]');
    await page.waitForFunction(() => ['turn', 'waiting'].includes(window.gunjinTest?.phase()));
    await page.click('[data-focus-key="play-again"]');
    await page.waitForFunction(() => window.gunjinTest?.phase() === 'setup');
    await page.click('[data-focus-key="rearrange"]');
    await page.click('[data-focus-key="previous"]');
    assert.deepEqual(await ownArrangement(page), confirmed);

    // Playing gote next, it comes turned round: each piece where gote sees the same place.
    await page.click('[data-focus-key="choose-mode"]');
    await page.click('.mode-button[data-mode="cpu-gote"]');
    await page.click('[data-focus-key="previous"]');
    const turned = await ownArrangement(page);
    const across = { a: 'f', b: 'e', c: 'd', d: 'c', e: 'b', f: 'a' };
    for (const [sq, kind] of Object.entries(confirmed)) {
      const other = sq === 'cd1' ? 'cd8' : `${across[sq[0]]}${9 - Number(sq[1])}`;
      assert.equal(turned[other], kind, `${sq} turned to ${other}`);
    }
    // It is kept in the browser across visits; a game of two at this device still does not offer it.
    await page.reload();
    await page.waitForSelector('.mode-button');
    await page.click('.mode-button[data-mode="cpu-beginner"]');
    await page.click('[data-focus-key="previous"]');
    assert.deepEqual(await ownArrangement(page), confirmed);
    await page.click('[data-focus-key="choose-mode"]');
    await startLocal(page);
    assert.equal(await page.$('[data-focus-key="previous"]'), null);
    await page.close();
  });
});

describe('panel and page', () => {
  it('fits each piece name inside its piece where the squares shrink (a phone held sideways, a zoomed page)', async () => {
    // The page alone here (no 3D board): a narrow window shrinks its squares as a phone held
    // sideways shrinks the button board under the 3D one.
    for (const [lang, viewport] of [['ja', { width: 290, height: 600 }], ['en', { width: 290, height: 600 }], ['ko', { width: 290, height: 600 }]]) {
      const page = await openPage(browser, server.url, { lang, viewport });
      await startLocal(page);
      const faces = await page.$$eval('.grid .cell.has-piece .face', (els) =>
        els.map((face) => {
          const text = document.createRange();
          text.selectNodeContents(face);
          const t = text.getBoundingClientRect();
          const f = face.getBoundingClientRect();
          // The pentagon's slanted sides leave a sliver of the box at each edge.
          const inside = t.left >= f.left + 0.03 * f.width && t.right <= f.right - 0.03 * f.width && t.bottom <= f.bottom + 0.5;
          return { name: face.textContent, width: Math.round(f.width), inside };
        }),
      );
      assert.equal(faces.length, 23);
      assert.ok(faces[0].width < 50, `the squares are small here (${faces[0].width} px)`);
      const out = faces.filter((f) => !f.inside).map((f) => f.name);
      assert.deepEqual(out, [], `${lang}: names running out of their pieces`);
      await page.close();
    }
  });

  it('opens the win/loss table generated from the engine beside the board, and plays while it is open', async () => {
    const page = await openPage(browser, server.url);
    await startLocal(page);
    await page.click('[data-focus-key="confirm"]');
    await page.click('.curtain button');
    await page.click('[data-focus-key="confirm"]');
    await page.click('.curtain button');
    await page.click('[data-focus-key="open-table"]');
    await page.waitForSelector('.panel .table-panel .battle-table');
    assert.equal(await page.getAttribute('[data-focus-key="open-table"]', 'aria-expanded'), 'true');
    assert.equal(await page.$$eval('dialog', (d) => d.length), 0, 'not a dialog: the board stays usable');
    const cell = (a, d) =>
      page.evaluate(
        ([a, d]) => {
          const table = document.querySelector('.battle-table');
          const heads = [...table.querySelectorAll('thead th')].map((th) => th.textContent.trim());
          const row = [...table.querySelectorAll('tbody tr')].find((tr) => tr.querySelector('th').textContent.trim() === a);
          return row.children[heads.indexOf(d)].textContent;
        },
        [a, d],
      );
    assert.match(await cell('spy', 'general'), /○/);
    assert.match(await cell('general', 'spy'), /×/);
    assert.match(await cell('tank', 'engineer'), /○/);
    assert.match(await cell('tank', 'mine'), /△/);
    assert.match(await cell('plane', 'mine'), /○/);
    assert.equal(await page.$$eval('.battle-table tbody tr', (r) => r.length), 14);
    // Sente moves with the table open, and it stays open.
    const [from, to] = await page.evaluate(() => window.gunjinTest.legalMoves()[0]);
    await page.click(`.cell[data-square="${from}"]`);
    await page.click(`.cell[data-square="${to}"]`);
    assert.ok(await page.isVisible('[data-focus-key="hand-over"]'), 'the move was played');
    assert.ok(await page.isVisible('.panel .battle-table'));
    // Under the curtain the table leaves the page; it is back for gote.
    await page.click('[data-focus-key="hand-over"]');
    assert.equal(await page.$$eval('.battle-table', (t) => t.length), 0);
    // The toggle says so: nothing expanded, nothing named as controlled.
    assert.equal(await page.getAttribute('[data-focus-key="open-table"]', 'aria-expanded'), 'false');
    assert.equal(await page.getAttribute('[data-focus-key="open-table"]', 'aria-controls'), null);
    await page.click('.curtain button');
    assert.ok(await page.isVisible('.panel .battle-table'));
    // Read to its end, it closes there too, and the keyboard goes back to its toggle.
    await page.focus('[data-focus-key="close-table"]');
    await page.keyboard.press('Enter');
    assert.equal(await page.$$eval('.battle-table', (t) => t.length), 0);
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.focusKey), 'open-table');
    assert.equal(await page.getAttribute('[data-focus-key="open-table"]', 'aria-expanded'), 'false');
    await page.keyboard.press('Enter');
    assert.ok(await page.isVisible('.panel .battle-table'));
    await page.click('[data-focus-key="open-table"]');
    assert.equal(await page.$$eval('.battle-table', (t) => t.length), 0);
    assert.equal(await page.getAttribute('[data-focus-key="open-table"]', 'aria-expanded'), 'false');
    await page.close();
  });

  it('keeps the toggle the keyboard opened the table with in sight, on a laptop and a phone', async () => {
    for (const viewport of [{ width: 1366, height: 768 }, { width: 390, height: 844 }]) {
      const page = await openPage(browser, server.url, { viewport });
      await startLocalTurn(page);
      await page.focus('[data-focus-key="open-table"]');
      await page.keyboard.press('Enter');
      await page.waitForSelector('.panel .battle-table');
      const seen = await page.evaluate(() => {
        const toggle = document.activeElement.getBoundingClientRect();
        const title = document.getElementById('battle-table-title').getBoundingClientRect();
        return { key: document.activeElement.dataset.focusKey, toggle: [toggle.top, toggle.bottom], title: [title.top, title.bottom], height: innerHeight };
      });
      const where = `${viewport.width} px: ${JSON.stringify(seen)}`;
      assert.equal(seen.key, 'open-table', where);
      // Its focus ring, 5 px outside it, too.
      assert.ok(seen.toggle[0] >= 5 && seen.toggle[1] <= seen.height - 5, `the focused toggle is in sight (${where})`);
      assert.ok(seen.title[0] >= 0 && seen.title[1] <= seen.height, `the table's title is in sight (${where})`);
      await page.close();
    }
  });

  it('plays with a storage the browser will not let it read or write', async () => {
    const context = await browser.browser.newContext({ locale: 'en-US' });
    // As a browser whose settings block site data: every read and write throws.
    await context.addInitScript(() => {
      const refuse = () => {
        throw new DOMException('blocked', 'SecurityError');
      };
      Storage.prototype.getItem = refuse;
      Storage.prototype.setItem = refuse;
      Storage.prototype.removeItem = refuse;
    });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${server.url}?e2e&lang=en`);
    await page.waitForSelector('.mode-button');
    await page.click('.mode-button[data-mode="cpu-beginner"]');
    await page.click('[data-focus-key="confirm"]');
    await page.waitForFunction(() => window.gunjinTest?.phase() === 'turn');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('opens the rules and help', async () => {
    const page = await openPage(browser, server.url);
    await page.click('[data-focus-key="open-help"]');
    await page.waitForSelector('dialog[open] .help-section');
    assert.ok((await page.$$eval('dialog .help-section', (s) => s.length)) >= 3);
    // A citation in the history jumps to its source, within the open help.
    const cite = page.locator('#help-history sup.help-cite a[href="#help-source-10"]').first();
    assert.equal(await cite.getAttribute('aria-label'), 'Source 10');
    await cite.click();
    const source = page.locator('#help-source-10');
    assert.match(await source.textContent(), /L’Attaque/);
    assert.ok(await source.evaluate((el) => el.classList.contains('is-target')));
    // The address keeps no fragment: it would stay through the games that follow.
    assert.equal(new URL(page.url()).hash, '');
    // In view: below the dialog's sticky head and above the dialog's bottom edge.
    const box = await source.boundingBox();
    const head = await page.locator('dialog[open] .dialog-head').boundingBox();
    const dialog = await page.locator('dialog[open]').boundingBox();
    assert.ok(box.y >= head.y + head.height && box.y + box.height <= dialog.y + dialog.height, 'the source is in view');
    assert.equal(await page.$$eval('dialog[open]', (d) => d.length), 1);
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'help-source-10');
    // From the contents with the keyboard: the focus goes to the section's heading, in the dialog.
    await page.focus('.help-toc a[href="#help-faq"]');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'help-faq-title');
    assert.ok(await page.evaluate(() => document.querySelector('dialog[open]').contains(document.activeElement)));
    await page.screenshot({ path: '/tmp/help-cite.png' });
    await page.click('dialog .close');
    await page.waitForSelector('dialog', { state: 'detached' });
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.focusKey), 'open-help');
    // A tap beside the dialog, on its backdrop, closes it too; one inside it does not.
    await page.click('[data-focus-key="open-help"]');
    await page.waitForSelector('dialog[open] .help-section');
    const open = await page.locator('dialog[open]').boundingBox();
    await page.mouse.click(open.x + open.width / 2, open.y + open.height / 2);
    assert.equal(await page.$$eval('dialog[open]', (d) => d.length), 1, 'a tap inside closed it');
    const size = page.viewportSize();
    const spot = open.x > 20 ? { x: open.x / 2, y: size.height / 2 } : { x: size.width / 2, y: Math.max(2, open.y / 2) };
    await page.mouse.click(spot.x, spot.y);
    await page.waitForSelector('dialog', { state: 'detached' });
    await page.close();
  });

  it('says so when the rules cannot be fetched, offering to reload the page', async () => {
    // No service worker: it would serve the rules from its cache.
    const context = await browser.browser.newContext({ locale: 'en-US', serviceWorkers: 'block' });
    const page = await context.newPage();
    await page.goto(`${server.url}?lang=en`);
    await page.waitForSelector('.mode-button');
    await page.route(/\/assets\/(content|render)-[^/]*\.js/, (route) => route.abort());
    await page.click('[data-focus-key="open-help"]');
    await page.waitForSelector('dialog[open] [role="alert"]');
    assert.equal(await page.textContent('dialog [role="alert"]'), 'The rules could not be loaded. Check the connection, then reload the page: your game is kept.');
    await page.unroute(/\/assets\/(content|render)-[^/]*\.js/);
    await page.click('[data-focus-key="help-reload"]');
    await page.waitForSelector('.mode-button');
    await page.click('[data-focus-key="open-help"]');
    await page.waitForSelector('dialog[open] .help-section');
    await context.close();
  });

  it('switches the language, and remembers it', async () => {
    const page = await openPage(browser, server.url);
    assert.equal(await page.textContent('h1'), 'Gunjin Shogi');
    await page.selectOption('select.lang', 'ja');
    assert.equal(await page.textContent('h1'), '軍人将棋');
    assert.deepEqual(
      (await page.$$eval('.mode-title', (els) => els.map((e) => e.textContent))).slice(0, 6),
      ['初級', '中級', '上級', '後手で始める（中級）', 'この端末で 2 人で遊ぶ', '友達と対戦（URL を送る）'],
      'the modes in the order the start screen lists them',
    );
    // As on the seed page: "CPU と対戦" is one entry whose buttons are the three levels.
    const cpuGroup = page.getByRole('group', { name: 'CPU と対戦' });
    for (const level of ['初級', '中級', '上級']) {
      assert.equal(await cpuGroup.getByRole('button', { name: level, exact: true }).count(), 1, level);
    }
    assert.equal(await page.getAttribute('html', 'lang'), 'ja');
    // The button grid is a landmark named like the seed page's 「ボタンで操作」.
    assert.equal(await page.getByRole('region', { name: 'ボタンで操作' }).count(), 1);
    await page.selectOption('select.lang', 'ko');
    assert.equal(await page.textContent('h1'), '군인장기');
    await startLocal(page);
    assert.match(await page.getAttribute('.cell[data-square="b4"]', 'aria-label'), /^b4, 내 /);
    // A notice on the panel follows the language too.
    await page.click('.cell[data-square="b4"]');
    assert.match(await page.textContent('[data-notice]'), /^b4.*바꿀 칸/);
    await page.selectOption('select.lang', 'en');
    assert.equal(await page.textContent('[data-notice]'), 'b4 chosen: now press the square to swap it with.');
    await page.selectOption('select.lang', 'ko');
    // Reload without the English override: the choice is remembered.
    const fresh = await page.context().newPage();
    await fresh.goto(server.url);
    await fresh.waitForSelector('.mode-button');
    assert.equal(await fresh.textContent('h1'), '군인장기');
    // A link may name the language: it wins, and is remembered.
    await fresh.goto(`${server.url}?lang=ja`);
    await fresh.waitForSelector('.mode-button');
    assert.equal(await fresh.textContent('h1'), '軍人将棋');
    assert.equal(await fresh.getAttribute('html', 'lang'), 'ja');
    // A choice made since then goes into the address too: a reload keeps it.
    await fresh.selectOption('select.lang', 'ko');
    assert.equal(new URL(fresh.url()).searchParams.get('lang'), 'ko');
    await fresh.reload();
    await fresh.waitForSelector('.mode-button');
    assert.equal(await fresh.textContent('h1'), '군인장기');
    await fresh.selectOption('select.lang', 'ja');
    await fresh.goto(`${server.url}?e2e`);
    await fresh.waitForSelector('.mode-button');
    assert.equal(await fresh.textContent('h1'), '軍人将棋');
    // With the keys, the list is stepped through without the page changing at each step; Enter
    // (or leaving the list) chooses.
    await fresh.focus('select.lang');
    await fresh.keyboard.press('ArrowDown');
    assert.equal(await fresh.textContent('h1'), '軍人将棋', 'a step through the list is no choice yet');
    // The page drawn again meanwhile (a CPU's move comes in): the step stays a step.
    await fresh.evaluate(() => window.gunjinApp.update());
    assert.equal(await fresh.$eval('select.lang', (el) => el.value), 'ko');
    assert.equal(await fresh.textContent('h1'), '軍人将棋', 'a redraw chose nothing');
    assert.equal(await fresh.evaluate(() => document.activeElement?.dataset.focusKey), 'lang');
    await fresh.keyboard.press('ArrowDown');
    assert.equal(await fresh.$eval('select.lang', (el) => el.value), 'en');
    assert.equal(await fresh.textContent('h1'), '軍人将棋');
    await fresh.keyboard.press('Enter');
    assert.equal(await fresh.textContent('h1'), 'Gunjin Shogi');
    assert.equal(await fresh.evaluate(() => document.activeElement?.dataset.focusKey), 'lang');
    await fresh.keyboard.press('ArrowUp');
    await fresh.keyboard.press('Tab');
    await fresh.waitForFunction(() => document.querySelector('h1')?.textContent === '군인장기');
    // The focus went on to the next control through the redraw (Enter had not opened the list,
    // which would have kept it), not dropped to the page.
    const next = await fresh.evaluate(() => document.activeElement?.dataset.focusKey ?? document.activeElement?.tagName);
    assert.notEqual(next, 'BODY');
    assert.notEqual(next, 'lang');
    // A first letter typed is a step too.
    await fresh.focus('select.lang');
    await fresh.keyboard.press('e');
    assert.equal(await fresh.$eval('select.lang', (el) => el.value), 'en');
    assert.equal(await fresh.textContent('h1'), '군인장기');
    await fresh.keyboard.press('Enter');
    assert.equal(await fresh.textContent('h1'), 'Gunjin Shogi');
    await fresh.selectOption('select.lang', 'ja');
    await fresh.close();
    await page.close();
  });

  it('opens in Japanese unless the browser prefers Korean, with nothing chosen yet', async () => {
    for (const [locale, title, lang] of [
      ['en-US', '軍人将棋', 'ja'],
      ['ja-JP', '軍人将棋', 'ja'],
      ['ko-KR', '군인장기', 'ko'],
    ]) {
      const context = await browser.browser.newContext({ locale });
      const page = await context.newPage();
      await page.goto(server.url);
      await page.waitForSelector('.mode-button');
      assert.equal(await page.textContent('h1'), title, locale);
      assert.equal(await page.getAttribute('html', 'lang'), lang, locale);
      await context.close();
    }
  });

  it('puts the panel below the board on a narrow screen and beside it on a wide one', async () => {
    const page = await openPage(browser, server.url, { viewport: { width: 390, height: 844 } });
    await startLocal(page);
    let board = await page.$eval('.board-area', (e) => e.getBoundingClientRect().toJSON());
    let panel = await page.$eval('.panel', (e) => e.getBoundingClientRect().toJSON());
    assert.ok(panel.top >= board.bottom - 1, `panel (${panel.top}) below the board (${board.bottom})`);
    assert.ok(board.right <= 390 + 1, 'the board fits the narrow screen');
    // The win/loss table opens from that panel, below the board here and beside it when wide.
    const tableButton = () => page.$eval('.panel [data-focus-key="open-table"]', (e) => e.getBoundingClientRect().toJSON());
    assert.ok((await tableButton()).top >= board.bottom - 1, 'the table button below the board');
    await page.setViewportSize({ width: 1280, height: 900 });
    board = await page.$eval('.board-area', (e) => e.getBoundingClientRect().toJSON());
    panel = await page.$eval('.panel', (e) => e.getBoundingClientRect().toJSON());
    assert.ok(panel.left >= board.right - 1, 'panel to the right of the board');
    assert.ok((await tableButton()).left >= board.right - 1, 'the table button right of the board');
    assert.equal(await page.$$eval('[data-focus-key="open-table"]', (els) => els.length), 1, 'one table button');
    // Open, the table never widens the page, narrow or wide; in every language all sixteen
    // columns fit.
    await page.click('[data-focus-key="open-table"]');
    for (const lang of ['ja', 'ko', 'en']) {
      await page.selectOption('select.lang', lang);
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        const sizes = await page.evaluate(() => ({
          page: document.documentElement.scrollWidth,
          box: document.querySelector('.table-scroll').clientWidth,
          table: document.querySelector('.battle-table').scrollWidth,
        }));
        assert.ok(sizes.page <= width, `the page does not scroll sideways at ${width} px in ${lang} (${sizes.page})`);
        assert.ok(sizes.table <= sizes.box, `the table fits its box at ${width} px in ${lang} (${sizes.table} > ${sizes.box})`);
      }
    }
    await page.selectOption('select.lang', 'en');
    // A desktop zoomed to 400% (a window of 320 × 256): the board takes the width, its news
    // pinned under it, rather than sharing the width with a column as a phone held sideways does.
    await page.setViewportSize({ width: 320, height: 256 });
    const zoomed = await page.evaluate(() => ({
      square: document.querySelector('.grid .cell[data-square="a4"]').getBoundingClientRect().width,
      strip: getComputedStyle(document.querySelector('.status-strip')).bottom,
    }));
    assert.ok(zoomed.square >= 40, `a square ${zoomed.square} px wide at 400% zoom`);
    assert.equal(zoomed.strip, '0px', 'the strip pinned under the board');
    await page.close();
  });

  it('answers health checks and serves the page from the binary', async () => {
    const res = await fetch(new URL('/healthz', server.url));
    assert.equal(await res.text(), 'ok');
    const index = await fetch(server.url);
    assert.match(await index.text(), /<div id="app"/);
  });
});

// Browser end-to-end tests of the CPU modes in real Chromium: the CPU thinks in a Web Worker over
// the wasm engine, the page shows only the human's view.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GRID_ONLY, focusedName, kindNames, openPage, pressSquare, startBrowser, startServer, tabTo } from '../e2e-support/game.mjs';

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

const phase = (page) => page.evaluate(() => window.gunjinTest?.phase());

/**
 * Waits until the CPU has answered: the human's turn again, or the end. After a confirmation too:
 * the CPU's own arrangement may still be on its way from its worker, the page 'waiting' meanwhile.
 */
async function waitForHuman(page) {
  await page.waitForFunction(() => ['turn', 'over'].includes(window.gunjinTest?.phase()), null, { timeout: 30_000 });
  return phase(page);
}

/**
 * No kind of the CPU's pieces anywhere in the page: its cells carry no kind and their names say
 * only "enemy piece"; the removed list gives the enemy's losses as a count. Own kinds are allowed.
 */
async function assertNoEnemyKind(page, cpuSide) {
  const enemy = await page.$$eval(`.cell.${cpuSide}`, (els) =>
    els.map((e) => ({ kind: e.dataset.kind ?? null, label: e.getAttribute('aria-label') ?? '', text: e.textContent ?? '' })),
  );
  assert.ok(enemy.length > 0, 'enemy pieces are on the board');
  const names = await kindNames(page, 'en');
  for (const cell of enemy) {
    assert.equal(cell.kind, null, 'an enemy cell carries a kind');
    assert.match(cell.label, /, enemy piece/);
    for (const n of names) assert.ok(!new RegExp(`\\b${n}\\b`, 'i').test(cell.label + ' ' + cell.text), `enemy cell names ${n}`);
  }
  const removedEnemy = (await page.textContent('.removed-enemy').catch(() => '')) ?? '';
  for (const n of names) assert.ok(!new RegExp(`\\b${n}\\b`, 'i').test(removedEnemy), `enemy losses name ${n}`);
}

/**
 * Plays up to `turns` human moves (the `pick(i)`-th legal move, wrapping), checks the waiting line
 * against `thinking` while the CPU thinks, and runs `afterAnswer` once the CPU has answered.
 * Returns how often the human was to move again.
 */
async function playAgainstCpu(page, { turns, pick, thinking, afterAnswer }) {
  let answers = 0;
  for (let i = 0; i < turns && (await phase(page)) === 'turn'; i++) {
    const moves = await page.evaluate(() => window.gunjinTest.legalMoves());
    const [from, to] = moves[pick(i) % moves.length];
    await page.click(`.cell[data-square="${from}"]`);
    await page.click(`.cell[data-square="${to}"]`);
    if ((await phase(page)) === 'waiting') {
      assert.match(await page.textContent('[data-waiting]'), thinking);
    }
    if ((await waitForHuman(page)) === 'turn') answers++;
    await afterAnswer();
  }
  return answers;
}

describe('playing the CPU', () => {
  it('plays a whole game against the beginner with the keyboard alone, then plays again', async () => {
    const page = await openPage(browser, server.url);
    await tabTo(page, /^Beginner/);
    await page.keyboard.press('Enter');
    // No curtain: the human arranges at once, with the focus on the board.
    assert.equal(await phase(page), 'setup');
    assert.match(await focusedName(page), /^[a-f]\d, your /);
    // What to do now is said, not only shown.
    assert.match(await page.textContent('.live'), /^Sente: arrange your pieces\. /);
    assert.equal(await page.$$eval('.cell.gote[data-kind]', (els) => els.length), 0);
    await tabTo(page, 'Confirm this arrangement');
    await page.keyboard.press('Enter');
    assert.equal(await waitForHuman(page), 'turn');
    // One player on this page: the turn is announced as theirs.
    assert.match(await page.textContent('.live'), /Your move \(Sente\)\.$/);

    let rng = 4242;
    const random = (n) => {
      rng = (rng * 1103515245 + 12345) % 2147483648;
      return rng % n;
    };
    const officers = ['general', 'lieutenant_general', 'major_general', 'colonel', 'lieutenant_colonel', 'major'];
    let plies = 0;
    let sawThinking = false;
    let cpuReports = 0;
    const thinkingPhases = [];
    while ((await phase(page)) === 'turn') {
      assert.ok(plies < 800, 'the game should end');
      if (plies % 10 === 0) await assertNoEnemyKind(page, 'gote');
      const moves = await page.evaluate(() => window.gunjinTest.legalMoves());
      assert.ok(moves.length > 0);
      const own = await page.evaluate(() => {
        const out = {};
        for (const el of document.querySelectorAll('.cell.own[data-kind]')) out[el.dataset.square] = el.dataset.kind;
        return out;
      });
      const enemies = await page.$$eval('.cell.enemy', (els) => els.map((el) => el.dataset.square));
      const row = (sq) => Number(sq.at(-1));
      const occupy = moves.filter(([from, to]) => to === 'cd8' && officers.includes(own[from]));
      const fights = moves.filter(([, to]) => enemies.includes(to));
      const forward = moves.filter(([from, to]) => row(to) > row(from));
      const pool =
        occupy.length > 0 ? occupy : fights.length > 0 && random(10) < 7 ? fights : forward.length > 0 && random(10) < 8 ? forward : moves;
      const [from, to] = pool[random(pool.length)];
      await pressSquare(page, from);
      assert.match(await focusedName(page), new RegExp(`^${from}, your .*selected`));
      await pressSquare(page, to);
      plies++;
      const after = await phase(page);
      if (after === 'over') break;
      assert.equal(after, 'waiting');
      thinkingPhases.push(after);
      if (!sawThinking) {
        assert.equal((await page.textContent('[data-waiting]')).trim(), 'The CPU is thinking…');
        // The page stays responsive while the worker thinks: the language menu still answers.
        assert.equal(await page.evaluate(() => document.querySelector('select.lang') !== null), true);
        sawThinking = true;
      }
      if ((await waitForHuman(page)) === 'over') break;
      const live = await page.textContent('.live');
      if (/The enemy moved/.test(live)) cpuReports++;
      // Back on the board for the next move.
      assert.match(await focusedName(page), /^([a-f]\d|cd\d), your /);
    }
    assert.equal(await phase(page), 'over');
    assert.ok(sawThinking, 'the thinking indicator was shown');
    assert.ok(cpuReports > 0, "the CPU's moves were announced");
    const result = (await page.textContent('.result-text')).trim();
    assert.match(result, /wins: .*’s headquarters was occupied|wins: .* has no legal move|^Draw: /);
    // The result is announced once: the box that takes the focus is named by its heading only.
    assert.ok((await page.textContent('.live')).includes(result), 'the result is announced');
    assert.equal(await focusedName(page), 'Game over');
    // At the end everything is revealed.
    assert.equal(await page.$$eval('.cell.has-piece:not([data-kind])', (els) => els.length), 0);
    const goteLeft = await page.$$eval('.cell.gote[data-kind]', (els) => els.length);
    assert.ok(goteLeft > 0);
    // The CPU's losses are now named: as many as left the board.
    const lost = await page.$$eval('.removed', (els) =>
      els.filter((el) => el.querySelector('h3')?.textContent?.includes('Enemy pieces removed')).map((el) => el.querySelector('p')?.textContent ?? ''),
    );
    assert.equal(lost.length, 1, 'one list of the enemy’s removed pieces');
    const named = lost[0] === 'none' ? [] : lost[0].split(', ');
    assert.equal(named.length, 23 - goteLeft, `the enemy's removed pieces: ${lost[0]}`);
    console.log(`# CPU game (beginner): ${plies} human moves, result: ${result}`);
    // The result counts in the player's record against this level, shown in the result too.
    const outcome = /^Draw/.test(result) ? 'drawn' : result.startsWith('Sente wins') ? 'won' : 'lost';
    const record = { won: 0, lost: 0, drawn: 0, [outcome]: 1 };
    const recordText = `Your record: ${record.won} won, ${record.lost} lost, ${record.drawn} drawn`;
    assert.equal((await page.textContent('.result .mode-record')).trim(), recordText);

    // Play again: back to the arrangement, nothing of the CPU shown.
    await tabTo(page, 'Play again');
    await page.keyboard.press('Enter');
    assert.equal(await phase(page), 'setup');
    // A new game has begun: the keyboard is on the board and the player is told to arrange.
    assert.match(await focusedName(page), /^[a-f]\d, your /);
    assert.match(await page.textContent('.live'), /^Sente: arrange your pieces\. /);
    assert.equal(await page.$$eval('.cell.gote', (els) => els.length), 0);
    assert.equal(await page.$$eval('.cell[data-kind]', (els) => els.length), 23);
    await tabTo(page, 'Confirm this arrangement');
    await page.keyboard.press('Enter');
    assert.equal(await waitForHuman(page), 'turn');
    assert.equal(await page.evaluate(() => window.gunjinTest.legalMoves().length > 0), true);
    await tabTo(page, 'Choose the mode again');
    await page.keyboard.press('Enter');
    assert.equal(await phase(page), 'start');
    // The start screen keeps the record under the level (the game left unfinished does not count).
    assert.equal((await page.textContent('.mode-button[data-mode="cpu-beginner"] .mode-record')).trim(), recordText);
    assert.equal(await page.$('.mode-button[data-mode="cpu-advanced"] .mode-record'), null);
    await page.close();
  });

  it('moves first as sente when the human starts as gote, showing only the human’s view', async () => {
    const page = await openPage(browser, server.url);
    await page.click('.mode-button[data-mode="cpu-gote"]');
    assert.equal(await phase(page), 'setup');
    // Gote's camp at the bottom of the board.
    assert.equal(await page.$eval('.cell[data-square="cd8"]', (el) => Number(el.dataset.row)), 7);
    await page.click('[data-focus-key="confirm"]');
    const first = await phase(page);
    assert.ok(first === 'waiting' || first === 'turn', first);
    assert.equal(await waitForHuman(page), 'turn');
    // The side's badge stands for its name in the heading: said once.
    assert.equal((await page.textContent('.panel h2')).trim(), 'Your move (Gote)');
    assert.equal(await page.textContent('.panel h2 .side-badge'), 'Gote');
    // And it is read as written, not "Your move ( Gote )" (a flex heading made each part a block).
    const tree = await (await page.context().newCDPSession(page)).send('Accessibility.getFullAXTree');
    const headings = tree.nodes.filter((n) => n.role?.value === 'heading').map((n) => n.name?.value);
    assert.ok(headings.includes('Your move (Gote)'), headings.join(' | '));
    assert.equal(await page.textContent('[data-mode-name]'), 'Play the CPU: intermediate, as Gote');
    // A screen reader reads the squares as they stand on screen: gote sees sente's back row on
    // top, from f1 on its left, and its own back row at the bottom.
    const order = await page.$$eval('.grid .cell', (els) => els.map((el) => el.dataset.square));
    assert.deepEqual(order.slice(0, 5), ['f1', 'e1', 'cd1', 'b1', 'a1']);
    assert.deepEqual(order.slice(-5), ['f8', 'e8', 'cd8', 'b8', 'a8']);
    // A square whose piece is shortened on its face ("Lt. Col.") says that short name too. (The
    // CPU's opening move may already have taken one of them: the first still on the board.)
    const shortened = [
      ['lieutenant_colonel', 'Lt. Col.', /your lieutenant colonel \(Lt\. Col\.\)/],
      ['lieutenant_general', 'Lt. Gen.', /your lieutenant general \(Lt\. Gen\.\)/],
      ['major_general', 'Maj. Gen.', /your major general \(Maj\. Gen\.\)/],
    ];
    let checkedShort = 0;
    for (const [kind, face, named] of shortened) {
      const cell = await page.$(`.cell.own[data-kind="${kind}"]`);
      if (cell === null) continue;
      assert.equal(await cell.$eval('.face', (el) => el.textContent), face);
      assert.match(await cell.getAttribute('aria-label'), named);
      checkedShort++;
    }
    assert.ok(checkedShort >= 2, 'the opening move takes one piece at most');
    // A piece that cannot move says so where a sighted player looks, not only to a screen reader.
    await page.click('.cell.own[data-kind="mine"]');
    assert.equal(await page.textContent('[data-notice]'), 'Mines and the flag never move.');
    // It is not held: a second press says the same again rather than "choice cleared".
    assert.equal(await page.$$eval('.cell.selected', (els) => els.length), 0);
    await page.click('.cell.own[data-kind="mine"]');
    assert.equal(await page.textContent('[data-notice]'), 'Mines and the flag never move.');
    // A piece that could move but is boxed in says why it cannot now.
    const movable = new Set((await page.evaluate(() => window.gunjinTest.legalMoves())).map(([from]) => from));
    const mobile = await page.$$eval('.cell.own[data-kind]', (els) => els.filter((el) => !['mine', 'flag'].includes(el.dataset.kind)).map((el) => el.dataset.square));
    const boxed = mobile.find((sq) => !movable.has(sq));
    assert.ok(boxed, 'a full camp boxes in its back rows');
    await page.click(`.cell[data-square="${boxed}"]`);
    assert.equal(await page.textContent('[data-notice]'), 'That piece cannot move now: every way out is blocked.');
    // A press on an enemy piece with nothing chosen clears the notice and says what to do.
    await page.click('.cell.enemy');
    assert.equal(await page.textContent('[data-notice]'), '');
    assert.equal(await page.textContent('.live'), 'First choose one of your pieces to move.');
    const log = await page.evaluate(() => window.gunjinApp.testHooks().legalMoves().length);
    assert.ok(log > 0);
    assert.match(await page.textContent('.reports'), /The enemy moved (cd[18]|[a-f]\d) to (cd[18]|[a-f]\d)\./);
    assert.match(await page.textContent('.log-box summary'), /[(（](?:moves: )?1[)）]/);
    // The record numbers each ply once: its text does, the list shows no marker of its own.
    const line = await page.$eval('.log li', (li) => ({ text: li.textContent, marker: getComputedStyle(li).listStyleType }));
    assert.deepEqual(line.marker, 'none');
    assert.match(line.text, /^1\. Sente /);
    await assertNoEnemyKind(page, 'sente');
    // Resign while it is the human's turn: one press ends the game and reveals everything.
    await page.click('[data-focus-key="resign"]');
    assert.equal(await phase(page), 'over');
    assert.equal((await page.textContent('.result-text')).trim(), 'Sente wins: Gote resigned.');
    // The human played gote: the result is also said as theirs.
    assert.equal((await page.textContent('.result-verdict')).trim(), 'You lost.');
    assert.match(await page.textContent('.live'), /You lost\. Sente wins: Gote resigned\./);
    assert.equal(await page.$$eval('.cell.has-piece:not([data-kind])', (els) => els.length), 0);
    await page.close();
  });

  it('sounds the moves and the end, and a switch in the toolbar turns the sounds off for good', async () => {
    const page = await openPage(browser, server.url);
    // Every sound the page starts, by the kind of its source (a tone or a noise burst).
    await page.addInitScript(() => {
      window.soundsStarted = [];
      for (const [Node, kind] of [
        [OscillatorNode, 'tone'],
        [AudioBufferSourceNode, 'noise'],
      ]) {
        const start = Node.prototype.start;
        Node.prototype.start = function (...args) {
          if (this.context.state === 'running') window.soundsStarted.push(kind);
          return start.apply(this, args);
        };
      }
    });
    await page.reload();
    const started = () => page.evaluate(() => window.soundsStarted.length);
    const toggle = '[data-focus-key="sound"]';
    assert.equal(await page.getAttribute(toggle, 'aria-pressed'), 'true');
    assert.equal((await page.textContent(toggle)).trim(), 'Sound');
    await page.click('.mode-button[data-mode="cpu-beginner"]');
    await page.click('[data-focus-key="confirm"]');
    assert.equal(await waitForHuman(page), 'turn');
    assert.equal(await started(), 0, 'nothing sounds before a move');
    // Sente's first move is always a battle (both camps are full): a thump and a knock.
    const [from, to] = (await page.evaluate(() => window.gunjinTest.legalMoves()))[0];
    await page.click(`.cell[data-square="${from}"]`);
    await page.click(`.cell[data-square="${to}"]`);
    await waitForHuman(page);
    const afterMoves = await started();
    assert.ok(afterMoves >= 4, `the move and the CPU's answer each sound: ${afterMoves}`);
    await page.click('[data-focus-key="resign"]');
    await page.waitForFunction((n) => window.soundsStarted.length === n + 3, afterMoves);
    // Off: the switch says so, the next game is silent, and a reload keeps it off.
    await page.click(toggle);
    assert.equal(await page.getAttribute(toggle, 'aria-pressed'), 'false');
    await page.reload();
    assert.equal(await page.getAttribute(toggle, 'aria-pressed'), 'false');
    await page.click('.mode-button[data-mode="cpu-beginner"]');
    await page.click('[data-focus-key="confirm"]');
    assert.equal(await waitForHuman(page), 'turn');
    const [from2, to2] = (await page.evaluate(() => window.gunjinTest.legalMoves()))[0];
    await page.click(`.cell[data-square="${from2}"]`);
    await page.click(`.cell[data-square="${to2}"]`);
    await waitForHuman(page);
    await page.click('[data-focus-key="resign"]');
    assert.equal(await started(), 0);
    await page.close();
  });

  it('on a phone the page stays put when the CPU answers, and a strip at the bottom tells the news', async () => {
    const page = await openPage(browser, server.url, { viewport: { width: 390, height: 844 } });
    // The start screen opens at its top, not scrolled down to the focused mode button.
    assert.equal(await page.evaluate(() => scrollY), 0);
    await page.click('.mode-button[data-mode="cpu-beginner"]');
    // The mode was chosen a screen below the board: the game begins with the board in view.
    assert.ok(await page.$eval('.grid', (el) => el.getBoundingClientRect().top >= 0 && el.getBoundingClientRect().top < innerHeight));
    // A tap while arranging is answered in the strip too.
    await page.click('.cell[data-square="a1"]');
    await page.waitForFunction(() => [...document.querySelectorAll('[data-status-strip] p')].some((p) => /^a1 chosen/.test(p.dataset.text)));
    await page.click('[data-focus-key="confirm"]');
    assert.equal(await waitForHuman(page), 'turn');
    const strip = () =>
      page.$$eval('[data-status-strip]:not([hidden]) p', (ps) => ps.map((p) => ({ text: p.dataset.text, shown: getComputedStyle(p, '::before').content })));
    // Pressed from script, so that nothing but the page itself could scroll.
    const press = (square) => page.evaluate((sq) => document.querySelector(`.cell[data-square="${sq}"]`).click(), square);
    for (let i = 0; i < 3 && (await phase(page)) === 'turn'; i++) {
      const [from, to] = (await page.evaluate(() => window.gunjinTest.legalMoves()))[0];
      await page.evaluate(() => scrollTo(0, 0));
      await press(from);
      await press(to);
      if ((await waitForHuman(page)) !== 'turn') break;
      assert.equal(await page.evaluate(() => scrollY), 0, 'the CPU’s answer scrolled the page');
      const lines = await strip();
      assert.equal(lines[0]?.text, 'Your move (Sente)');
      assert.ok(lines.some((l) => l.text === `You moved ${from} to ${to}.`), JSON.stringify(lines));
      assert.ok(lines.some((l) => /^The enemy moved /.test(l.text)), JSON.stringify(lines));
      // Painted by CSS from the attribute: the page's text holds each message once.
      assert.ok(lines.every((l) => l.shown === JSON.stringify(l.text)), JSON.stringify(lines));
      assert.equal(await page.evaluate(() => document.querySelector('[data-status-strip]').innerText.trim()), '');
      const pos = await page.$eval('[data-status-strip]', (el) => getComputedStyle(el).position);
      assert.equal(pos, 'sticky');
    }
    // A press on a square the piece cannot reach lets it go, and says so.
    if ((await phase(page)) === 'turn') {
      const moves = await page.evaluate(() => window.gunjinTest.legalMoves());
      const from = moves[0][0];
      const reach = new Set(moves.filter(([f]) => f === from).map(([, to]) => to));
      const others = await page.$$eval('.cell[data-square]:not(.own)', (els) => els.map((e) => e.dataset.square));
      const away = others.find((sq) => !reach.has(sq));
      await press(from);
      await press(away);
      assert.equal(await page.textContent('[data-notice]'), `Choice cleared: the chosen piece cannot go to ${away}.`);
      assert.equal(await page.$('.cell.selected'), null);
      // The panel is a screen below: the strip carries the answer to the tap.
      assert.ok((await strip()).some((l) => l.text === `Choice cleared: the chosen piece cannot go to ${away}.`));
      await page.click('[data-focus-key="resign"]');
      assert.equal(await phase(page), 'over');
      assert.deepEqual((await strip()).map((l) => l.text), ['You lost.', 'Gote wins: Sente resigned.']);
      // Pressed in the panel a screen below, the end brings the board, every piece face up, back into view.
      await page.waitForFunction(() => {
        const r = document.querySelector('.grid').getBoundingClientRect();
        return r.top >= -1 && r.top < innerHeight / 2;
      });
      // A line of the record tapped a screen below shows the board it sets.
      await page.click('.log-box summary');
      await page.$eval('[data-focus-key="log-1"]', (el) => el.scrollIntoView());
      await page.click('[data-focus-key="log-1"]');
      assert.equal(await page.getAttribute('.review', 'data-review-at'), '1');
      assert.ok(await page.$eval('.grid', (el) => el.getBoundingClientRect().top >= -1 && el.getBoundingClientRect().top < innerHeight / 2), 'the board is in view');
    }
    // On a wide screen the panel beside the board says it all: no strip.
    await page.setViewportSize({ width: 1280, height: 900 });
    assert.equal(await page.$eval('[data-status-strip]', (el) => getComputedStyle(el).display), 'none');
    await page.close();
  });

  it('on a phone, the square the keyboard moves to is scrolled clear of the strip', async () => {
    const page = await openPage(browser, server.url, { lang: 'ja', viewport: { width: 390, height: 844 } });
    await page.click('.mode-button[data-mode="cpu-beginner"]');
    await page.click('[data-focus-key="confirm"]');
    assert.equal(await waitForHuman(page), 'turn');
    // One move each, so the strip holds three lines (whose turn, both moves).
    const [from, to] = (await page.evaluate(() => window.gunjinTest.legalMoves()))[0];
    await page.click(`.cell[data-square="${from}"]`);
    await page.click(`.cell[data-square="${to}"]`);
    assert.equal(await waitForHuman(page), 'turn');
    assert.ok((await page.$$('[data-status-strip]:not([hidden]) p')).length >= 2);
    await page.evaluate(() => scrollTo(0, 0));
    await page.focus('.cell[data-square="a8"]');
    for (let row = 7; row >= 1; row--) {
      await page.keyboard.press('ArrowDown');
      const at = await page.evaluate(() => {
        const cell = document.activeElement.getBoundingClientRect();
        const strip = document.querySelector('[data-status-strip]').getBoundingClientRect();
        return { square: document.activeElement.dataset.square, bottom: cell.bottom, stripTop: strip.top };
      });
      assert.equal(at.square, `a${row}`);
      assert.ok(at.bottom <= at.stripTop, `${at.square} ends at ${at.bottom}, under the strip from ${at.stripTop}`);
    }
    await page.close();
  });

  it('says so when the CPU cannot answer (its worker never loads)', async () => {
    const page = await openPage(browser, server.url);
    await page.route(/cpu\.worker/, (route) => route.abort());
    await page.click('.mode-button[data-mode="cpu-beginner"]');
    await page.waitForFunction(() => document.querySelector('[data-waiting]')?.textContent?.includes('could not answer'), null, { timeout: 45_000 });
    assert.equal(await phase(page), 'waiting');
    assert.match(await page.textContent('.live'), /The CPU could not answer\./);
    await page.close();
  });

  it('tells the CPU’s answer once and leaves the focus where the player is reading', async () => {
    const page = await openPage(browser, server.url);
    // The language switch keeps the focus through the redraw it causes.
    await page.focus('select.lang');
    await page.selectOption('select.lang', 'ja');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.focusKey), 'lang');
    await page.selectOption('select.lang', 'en');
    await page.click('.mode-button[data-mode="cpu-beginner"]');
    await page.click('[data-focus-key="confirm"]');
    assert.equal(await waitForHuman(page), 'turn');
    // The game's start is told: whose move it is, as the player's own.
    assert.match(await page.textContent('.live'), /Your move \(Sente\)\./);
    const live = () => page.$eval('.live', (el) => el.textContent ?? '');
    for (let i = 0; i < 2 && (await phase(page)) === 'turn'; i++) {
      const [from, to] = (await page.evaluate(() => window.gunjinTest.legalMoves()))[i];
      await page.click(`.cell[data-square="${from}"]`);
      await page.click(`.cell[data-square="${to}"]`);
      const mine = await live();
      assert.match(mine, new RegExp(`You moved ${from} to ${to}\\.`));
      if ((await phase(page)) === 'waiting') {
        // While the CPU thinks the player reads the record: its answer leaves the focus there.
        await page.focus('[data-focus-key="log"]');
        // A press on the board meanwhile is not ignored in silence.
        await page.evaluate(() => document.querySelector('.cell[data-square="a1"]').click());
        if ((await phase(page)) === 'waiting') assert.match(await live(), /thinking/i);
        await page.focus('[data-focus-key="log"]');
      }
      if ((await waitForHuman(page)) !== 'turn') break;
      const answer = await live();
      assert.match(answer, /The enemy moved /);
      assert.doesNotMatch(answer, /You moved/, 'the player’s own move told again with the answer');
      assert.equal(await page.evaluate(() => document.activeElement?.dataset.focusKey), 'log');
    }
    // On the board meanwhile: the answer leaves the focus on the square the player went to.
    if ((await phase(page)) === 'turn') {
      const moves = await page.evaluate(() => window.gunjinTest.legalMoves());
      const [from, to] = moves[0];
      const other = moves.map(([f]) => f).find((f) => f !== from && f !== to);
      await page.focus(`.cell[data-square="${from}"]`);
      await page.keyboard.press('Enter');
      await pressSquare(page, to);
      if ((await phase(page)) === 'waiting' && other !== undefined) {
        await page.focus(`.cell[data-square="${other}"]`);
        if ((await waitForHuman(page)) === 'turn' && (await page.$(`.cell.own[data-square="${other}"]`)) !== null) {
          assert.equal(await page.evaluate(() => document.activeElement?.dataset.square), other);
        }
      }
    }
    // The side panel is a named landmark; the result is told by the live region, and the box
    // holding it is named by its heading alone, so a reader does not say it a second time.
    assert.equal(await page.getAttribute('aside.panel', 'aria-label'), 'Game panel');
    await page.click('[data-focus-key="resign"]');
    assert.equal(await page.getAttribute('.result', 'role'), 'group');
    assert.equal(await page.textContent(`#${await page.getAttribute('.result', 'aria-labelledby')}`), 'Game over');
    await page.close();
  });

  it('tells the CPU’s answer again when a dialog open meanwhile (which hides the page from a screen reader) closes', async () => {
    const page = await openPage(browser, server.url);
    await page.click('.mode-button[data-mode="cpu-beginner"]');
    await page.click('[data-focus-key="confirm"]');
    assert.equal(await waitForHuman(page), 'turn');
    const [from, to] = (await page.evaluate(() => window.gunjinTest.legalMoves()))[0];
    // The move, then the rules at once, before the CPU can answer.
    await page.evaluate(([f, t]) => {
      document.querySelector(`.cell[data-square="${f}"]`).click();
      document.querySelector(`.cell[data-square="${t}"]`).click();
      document.querySelector('[data-focus-key="open-help"]').click();
    }, [from, to]);
    assert.ok(await page.$('dialog[open]'));
    if ((await waitForHuman(page)) !== 'turn') return; // the game ended at once: nothing to tell again
    const answer = await page.$eval('.live', (el) => el.textContent ?? '');
    assert.match(answer, /The enemy moved /);
    await page.evaluate(() => {
      window.liveSaid = [];
      const live = document.querySelector('.live');
      new MutationObserver(() => window.liveSaid.push(live.textContent)).observe(live, { childList: true, characterData: true, subtree: true });
    });
    await page.keyboard.press('Escape');
    await page.waitForFunction((said) => window.liveSaid.at(-1) === said, answer, { timeout: 5000 });
    assert.equal(await page.$('dialog[open]'), null);
    // Told once: news said with no dialog open is not repeated by the next dialog's closing.
    await page.click('[data-focus-key="open-help"]');
    await page.keyboard.press('Escape');
    await page.waitForTimeout(300);
    assert.equal((await page.evaluate(() => window.liveSaid)).filter((l) => l === answer).length, 1);
    await page.close();
  });

  it('the advanced level answers from its worker and keeps its kinds out of the page (Korean)', async () => {
    const page = await openPage(browser, server.url, { lang: 'ko' });
    await page.click('.mode-button[data-mode="cpu-advanced"]');
    await page.click('[data-focus-key="confirm"]');
    assert.equal(await waitForHuman(page), 'turn');
    const koKinds = await kindNames(page, 'ko');
    assert.equal(koKinds.length, 16, 'every Korean piece name, to look for');
    const answers = await playAgainstCpu(page, {
      turns: 5,
      pick: (i) => i * 5,
      thinking: /AI가 생각하는 중/,
      afterAnswer: async () => {
        const moved = (await page.textContent('.reports')).match(/상대가 (?:cd[18]|[a-f]\d)의 말을 (?:cd|[a-f])(\d)(으로|로) 옮겼습니다\./);
        assert.ok(moved !== null, 'the CPU move is reported in Korean');
        assert.equal((await page.textContent('.panel h2')).trim(), '내 차례(선공)');
        // The row is read 일 이 삼 사 오 육 칠 팔: 삼 and 육 take 으로.
        assert.equal(moved[2], moved[1] === '3' || moved[1] === '6' ? '으로' : '로');
        assert.equal(await page.$$eval('.cell.gote[data-kind]', (els) => els.length), 0);
        const labels = await page.$$eval('.cell.gote', (els) => els.map((e) => e.getAttribute('aria-label')));
        for (const l of labels) {
          assert.match(l, /, 상대 말(,|$)/);
          for (const n of koKinds) assert.ok(!l.includes(n), `an enemy cell names ${n}: ${l}`);
        }
      },
    });
    assert.ok(answers > 0, 'the advanced level answered');
    await page.close();
  });

  it('never puts a CPU kind in the page during a game (Japanese, intermediate)', async () => {
    const page = await openPage(browser, server.url, { lang: 'ja' });
    await page.click('.mode-button[data-mode="cpu-intermediate"]');
    await page.click('[data-focus-key="confirm"]');
    assert.equal(await waitForHuman(page), 'turn');
    await playAgainstCpu(page, {
      turns: 4,
      pick: () => 0,
      thinking: /CPU が考えています/,
      afterAnswer: async () => {
        const enemyKinds = await page.$$eval('.cell.gote[data-kind]', (els) => els.length);
        assert.equal(enemyKinds, 0);
        const labels = await page.$$eval('.cell.gote', (els) => els.map((e) => e.getAttribute('aria-label')));
        for (const l of labels) assert.match(l, /相手の駒/);
      },
    });
    // The whole document: no kind id outside the human's own cells and lists.
    const ids = await kindNames(page, 'id');
    const text = await page.evaluate(() => {
      const parts = [];
      for (const el of document.querySelectorAll('*')) {
        if (el.closest('.cell.own, .removed-own')) continue;
        for (const a of el.attributes) parts.push(a.value);
      }
      return parts.join('\n');
    });
    for (const id of ids) assert.ok(!new RegExp(`(^|[^a-z_])${id}([^a-z_]|$)`).test(text), `kind id ${id} in the page`);
    await page.close();
  });

  it('a reload in mid-game loses nothing: the start screen offers the game, and it goes on where it was', async () => {
    const page = await openPage(browser, server.url);
    await page.click('.mode-button[data-mode="cpu-gote"]');
    await page.click('[data-focus-key="confirm"]');
    assert.equal(await waitForHuman(page), 'turn');
    await playAgainstCpu(page, { turns: 3, pick: (i) => i * 5 + 1, thinking: /thinking/, afterAnswer: async () => {} });
    assert.equal(await phase(page), 'turn');
    const board = () =>
      page.evaluate(() => [...document.querySelectorAll('.cell.has-piece')].map((e) => `${e.dataset.square}:${e.classList.contains('gote') ? 'gote' : 'sente'}:${e.dataset.kind ?? '?'}`).sort());
    const before = await board();
    const plies = Number(/[(（](?:moves: )?(\d+)[)）]/.exec(await page.textContent('.log-box summary'))[1]);
    assert.equal(plies, 7, 'the CPU opened, then three moves each');
    // Nothing of the CPU's is kept in the browser: its deployment comes back from a seed.
    const kept = await page.evaluate(() => localStorage.getItem('gunjin.cpuGame'));
    const ids = await kindNames(page, 'id');
    const keptKinds = Object.values(JSON.parse(kept).game.arrangement);
    assert.equal(keptKinds.length, 23);
    assert.ok(keptKinds.every((k) => ids.includes(k)));
    assert.ok(!/"sente"/.test(kept), 'no piece of the CPU (sente) is kept');

    await page.reload();
    await page.waitForSelector('[data-focus-key="resume"]');
    assert.match(await page.textContent('.resume'), /Play the CPU: intermediate, as Gote.*moves played: 7/);
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.focusKey), 'resume');
    await page.keyboard.press('Enter');
    assert.equal(await waitForHuman(page), 'turn');
    assert.deepEqual(await board(), before);
    assert.match(await page.textContent('.log-box summary'), /[(（](?:moves: )?7[)）]/);
    await assertNoEnemyKind(page, 'sente');
    // Leaving the game for the start screen keeps it: a mistaken press loses nothing.
    await page.click('[data-focus-key="choose-mode"]');
    await page.waitForSelector('[data-focus-key="resume"]');
    assert.match(await page.textContent('.resume'), /Play the CPU: intermediate, as Gote.*moves played: 7/);
    await page.click('[data-focus-key="resume"]');
    assert.equal(await waitForHuman(page), 'turn');
    assert.deepEqual(await board(), before);
    // Resigned, it is over: nothing is offered any more.
    await page.click('[data-focus-key="resign"]');
    await page.click('[data-focus-key="choose-mode"]');
    assert.equal(await page.$('[data-focus-key="resume"]'), null);
    assert.equal(await page.evaluate(() => localStorage.getItem('gunjin.cpuGame')), null);

    // A game kept by an earlier CPU, which deployed otherwise from the same seed, no longer
    // replays (here its first battle ends otherwise): the page says so and keeps the player's
    // arrangement for a new game.
    const earlier = JSON.parse(kept);
    const first = earlier.game.moves[0];
    first[2] = first[2] === 'attacker' ? 'defender' : 'attacker';
    await page.evaluate((value) => localStorage.setItem('gunjin.cpuGame', value), JSON.stringify(earlier));
    await page.reload();
    await page.click('[data-focus-key="resume"]');
    await page.waitForFunction(() => /earlier version of the CPU/.test(document.querySelector('[data-notice]')?.textContent ?? ''));
    assert.equal(await phase(page), 'setup');
    const arranged = await page.evaluate(() =>
      Object.fromEntries([...document.querySelectorAll('.cell.own[data-kind]')].map((e) => [e.dataset.square, e.dataset.kind])),
    );
    assert.deepEqual(arranged, earlier.game.arrangement);
    assert.equal(await page.evaluate(() => localStorage.getItem('gunjin.cpuGame')), null);
    await page.close();
  });

  it('"play again" in mid-game keeps the game it left until the new one begins, one press away', async () => {
    const page = await openPage(browser, server.url);
    await page.click('.mode-button[data-mode="cpu-beginner"]');
    await page.click('[data-focus-key="confirm"]');
    assert.equal(await waitForHuman(page), 'turn');
    await playAgainstCpu(page, { turns: 2, pick: (i) => i * 3 + 2, thinking: /thinking/, afterAnswer: async () => {} });
    assert.equal(await phase(page), 'turn');
    const board = () =>
      page.evaluate(() => [...document.querySelectorAll('.cell.has-piece')].map((e) => `${e.dataset.square}:${e.dataset.kind ?? '?'}`).sort());
    const before = await board();
    await page.click('[data-focus-key="play-again"]');
    assert.equal(await phase(page), 'setup');
    assert.match(await page.textContent('.set-aside'), /The game you left \(moves played: 4\) is kept until this one begins/);
    // Said: a new arrangement to make, then the game kept.
    assert.match(await page.textContent('.live'), /^Sente: arrange your pieces\. .*The game you left/);
    // Pressed again while arranging: a new deal, the game left still kept.
    await page.click('[data-focus-key="play-again"]');
    assert.match(await page.textContent('.set-aside'), /The game you left \(moves played: 4\)/);
    // Back to it: the same position, the player to move.
    await page.click('[data-focus-key="set-aside-back"]');
    assert.equal(await waitForHuman(page), 'turn');
    assert.deepEqual(await board(), before);
    assert.match(await page.textContent('.log-box summary'), /moves: 4/);
    assert.equal(await page.$('.set-aside'), null);
    // Played again and the new game begun: the old one is gone, as "play again" said.
    await page.click('[data-focus-key="play-again"]');
    assert.equal(await page.isVisible('.set-aside'), true);
    await page.click('[data-focus-key="confirm"]');
    assert.equal(await waitForHuman(page), 'turn');
    assert.equal(await page.$('.set-aside'), null);
    assert.match(await page.textContent('.log-box summary'), /moves: 0/);
    // A game over leaves nothing to keep; nor does one not yet begun.
    await page.click('[data-focus-key="resign"]');
    await page.click('[data-focus-key="play-again"]');
    assert.equal(await page.$('.set-aside'), null);
    await page.click('[data-focus-key="play-again"]');
    assert.equal(await page.$('.set-aside'), null);
    await page.close();
  });

  it('on a phone, the strip says the game "play again" left is kept, and its button brings it back', async () => {
    const page = await openPage(browser, server.url, { viewport: { width: 390, height: 844 } });
    await page.click('.mode-button[data-mode="cpu-beginner"]');
    await page.click('[data-focus-key="confirm"]');
    assert.equal(await waitForHuman(page), 'turn');
    await playAgainstCpu(page, { turns: 1, pick: () => 0, thinking: /thinking/, afterAnswer: async () => {} });
    await page.click('[data-focus-key="play-again"]');
    assert.equal(await phase(page), 'setup');
    const lines = await page.$$eval('[data-status-strip]:not([hidden]) p', (ps) => ps.map((p) => p.dataset.text));
    assert.ok(lines.some((l) => /^The game you left \(moves played: 2\)/.test(l)), JSON.stringify(lines));
    await page.click('[data-strip-action="set-aside-back"]');
    assert.equal(await waitForHuman(page), 'turn');
    assert.match(await page.textContent('.log-box summary'), /moves: 2/);
    assert.equal(await page.$('[data-strip-action="set-aside-back"]'), null);
    await page.close();
  });

  it('a reload while arranging keeps the arrangement: the start screen offers it, and choosing another game gives it up', async () => {
    // A phone: the offer stands below the empty board, and the page brings it into view.
    const page = await openPage(browser, server.url, { viewport: { width: 390, height: 664 } });
    await page.click('.mode-button[data-mode="cpu-advanced"]');
    await page.waitForSelector('[data-focus-key="confirm"]');
    // Nothing changed yet: nothing to offer after a reload.
    await page.reload();
    await page.waitForSelector('.mode-button');
    assert.equal(await page.$('.resume'), null, 'an untouched automatic arrangement is not kept');
    await page.click('.mode-button[data-mode="cpu-advanced"]');
    await page.waitForSelector('[data-focus-key="confirm"]');
    const arranged = () =>
      page.evaluate(() => Object.fromEntries([...document.querySelectorAll('.cell.own[data-kind]')].map((e) => [e.dataset.square, e.dataset.kind])));
    const auto = await arranged();
    await pressSquare(page, 'a3');
    await pressSquare(page, 'f3');
    await page.click('[data-focus-key="mirror"]');
    const made = await arranged();
    assert.notDeepEqual(made, auto);

    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.reload();
    await page.waitForSelector('[data-focus-key="resume-setup"]');
    assert.match(await page.textContent('.resume h2'), /Pick up where you left off/);
    assert.match(await page.textContent('#resume-setup-text'), /arranging your pieces for “Play the CPU: advanced”/);
    assert.equal((await page.textContent('[data-focus-key="resume-setup"]')).trim(), 'Go on arranging');
    await page.waitForFunction(() => document.activeElement?.dataset.focusKey === 'resume-setup');
    await page.waitForFunction(() => {
      const box = document.querySelector('[data-focus-key="resume-setup"]').getBoundingClientRect();
      return box.top >= 0 && box.bottom <= window.innerHeight;
    });
    await page.click('[data-focus-key="resume-setup"]');
    await page.waitForSelector('[data-focus-key="confirm"]');
    assert.equal(await phase(page), 'setup');
    assert.equal(await page.textContent('[data-mode-name]'), 'Play the CPU: advanced');
    assert.deepEqual(await arranged(), made);
    assert.equal(await page.$('[data-focus-key="undo"]:not([disabled])'), null, 'nothing to undo back to');

    // Confirmed and the game begun, the arrangement is the game's (kept with it), not a draft.
    await page.click('[data-focus-key="confirm"]');
    assert.equal(await waitForHuman(page), 'turn');
    assert.equal(await page.evaluate(() => localStorage.getItem('gunjin.setupDraft')), null);

    // "Play again", a change, a reload: the same mode chosen again starts from the kept arrangement.
    await page.click('[data-focus-key="play-again"]');
    await page.waitForSelector('[data-focus-key="confirm"]');
    await page.click('[data-focus-key="mirror"]');
    const again = await arranged();
    await page.reload();
    await page.waitForSelector('[data-focus-key="resume-setup"]');
    await page.click('.mode-button[data-mode="cpu-advanced"]');
    await page.waitForSelector('[data-focus-key="confirm"]');
    assert.deepEqual(await arranged(), again);
    // Another game chosen instead: the half-made arrangement is given up.
    await page.reload();
    await page.waitForSelector('[data-focus-key="resume-setup"]');
    await page.click('.mode-button[data-mode="local"]');
    await page.click('[data-focus-key="choose-mode"]');
    assert.equal(await page.$('[data-focus-key="resume-setup"]'), null);
    assert.equal(await page.evaluate(() => localStorage.getItem('gunjin.setupDraft')), null);
    await page.close();
  });
});

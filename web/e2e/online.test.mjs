// Browser end-to-end tests of "play a friend by URL": two people (two browser contexts, each its
// own storage) in real Chromium against the real server, the server as referee.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GRID_ONLY, focusedName, kindNames, startBrowser, startServer } from '../e2e-support/game.mjs';
import {
  confirmArrangement,
  createRoom,
  leaksInFrames,
  leaksOnPage,
  onlineServer,
  openOnlinePage,
  ownPieces,
  phase,
  playRandomMove,
  restartableServer,
  seeded,
  waitPhase,
} from '../e2e-support/online.mjs';

let server;
let browser;

before(async () => {
  server = await onlineServer();
  browser = await startBrowser(GRID_ONLY); // the grid alone: see GRID_ONLY
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** Host creates a room, the friend opens its URL and joins; both are arranging. */
async function roomWithFriend(base = server.url) {
  const host = await openOnlinePage(browser, base);
  const url = await createRoom(host);
  assert.match(url, /\?room=[A-Za-z0-9_-]{22}$/, 'the URL names the room and nothing else (no token)');
  const guest = await openOnlinePage(browser, url);
  await guest.waitForSelector('[data-focus-key="online-join"]');
  assert.match(await guest.textContent('.panel'), /You will play Gote/);
  // Every line the host's page shows about the friend from now on.
  await host.evaluate(() => {
    window.presenceShown = [];
    new MutationObserver(() => {
      const line = document.querySelector('[data-presence]')?.textContent;
      if (line !== undefined && window.presenceShown.at(-1) !== line) window.presenceShown.push(line);
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  await guest.click('[data-focus-key="online-join"]');
  await waitPhase(guest, ['setup']);
  await host.waitForSelector('[data-presence="connected"]');
  // Arriving is never shown as a friend who left.
  const shown = await host.evaluate(() => window.presenceShown);
  assert.ok(!shown.some((l) => /disconnected/.test(l)), shown.join(' | '));
  return { host, guest, url };
}

/** A game started between two new pages on a server of the test's own (`restartableServer`). */
async function gameOn(own) {
  const { host, guest } = await roomWithFriend(own.url);
  await confirmArrangement(host);
  await confirmArrangement(guest);
  return { host, guest };
}

/** The page whose player is to move, waiting for one; null when the game is over. */
async function nextMover(a, b, timeout = 20_000) {
  const until = Date.now() + timeout;
  while (Date.now() < until) {
    const [pa, pb] = [await phase(a), await phase(b)];
    if (pa === 'over' || pb === 'over') return null;
    if (pa === 'turn') return a;
    if (pb === 'turn') return b;
    await new Promise((ok) => setTimeout(ok, 30));
  }
  throw new Error('neither player got the turn');
}

/** With the server down, the player to move tries a move: it does not go out, and the page says so. */
async function moveWhileDown(host, guest) {
  const mover = await nextMover(host, guest);
  assert.ok(mover !== null, 'the game is on');
  const [[from, to]] = await mover.evaluate(() => window.gunjinTest.legalMoves());
  await mover.click(`.cell[data-square="${from}"]`);
  await mover.click(`.cell[data-square="${to}"]`);
  assert.match(await mover.textContent('[data-notice]'), /the move was not sent/);
  return { mover, to };
}

/** Once the connection is back, the warning that the move was not sent goes. */
async function warningGoesWhenBack(mover) {
  await mover.waitForSelector('[data-connection="open"]', { timeout: 20_000 });
  await mover.waitForFunction(() => document.querySelector('[data-notice]')?.textContent === '');
}

/** Keeps everything the page's live region says from now on, in `window.liveSaid`. */
async function recordLive(page) {
  await page.evaluate(() => {
    window.liveSaid = [];
    const live = document.querySelector('.live');
    new MutationObserver(() => window.liveSaid.push(live.textContent)).observe(live, { childList: true, characterData: true, subtree: true });
  });
}

describe('play a friend by URL', () => {
  it('two browsers play a whole game to its natural end; a refresh resumes; a third visitor is turned away; nothing hidden reaches a player', async () => {
    const { host, guest, url } = await roomWithFriend();
    // The host can arrange before the friend comes (checked in the other test); here: sides.
    assert.equal(await host.getAttribute('.grid', 'data-viewer'), 'sente');
    assert.equal(await guest.getAttribute('.grid', 'data-viewer'), 'gote');

    // A third visitor is told the room is full.
    const third = await openOnlinePage(browser, url);
    await third.waitForSelector('.room-full');
    assert.match(await third.textContent('.room-full'), /This room is full/);
    assert.equal(await third.$$eval('.cell.has-piece', (els) => els.length), 0);
    await third.close();

    assert.equal((await guest.textContent('[data-focus-key="confirm"]')).trim(), 'Confirm and wait');
    await confirmArrangement(guest);
    await guest.waitForSelector('[data-focus-key="unarrange"]');
    // The friend has confirmed: the host's confirmation starts the game, and the button says so.
    await host.waitForFunction(() => document.querySelector('[data-focus-key="confirm"]')?.textContent?.trim() === 'Confirm this arrangement');
    // … and the panel says so in words, not only by the button's new label.
    assert.ok(
      (await host.locator('[data-online-message]').allTextContents()).includes('Your friend has confirmed their arrangement.'),
      'the host arranging is told the friend is ready',
    );
    await confirmArrangement(host);
    await waitPhase(host, ['turn']);
    // The guest waiting with its arrangement held is 'moved' already: wait for the game itself.
    await guest.waitForFunction(() => /Your friend’s turn/.test(document.querySelector('.panel').textContent));
    // A press on the board meanwhile does nothing, and a screen reader hears why.
    await guest.click('.cell[data-square="a7"]');
    assert.equal(await guest.textContent('.live'), 'Your friend’s turn.');
    // The tab of the player to move says so, for a player reading elsewhere.
    assert.equal(await host.title(), '(Your move) Gunjin Shogi');
    assert.equal(await guest.title(), 'Gunjin Shogi');

    const ids = await kindNames(host, 'id');
    const names = await kindNames(host, 'en');
    const random = seeded(606);
    let plies = 0;
    let refreshed = false;
    for (;;) {
      // Whoever is to move, or null once the game is over.
      const mover = await nextMover(host, guest);
      if (mover === null) break;
      assert.ok(plies < 1500, 'the game should end');
      if (plies > 0 && plies % 40 === 0) {
        assert.deepEqual(await leaksOnPage(mover, names), [], `the page of the player to move at ply ${plies}`);
      }
      await playRandomMove(mover, random);
      plies++;
      // Wait for the referee's answer to reach the mover (the turn passes, or the game ends).
      await waitPhase(mover, ['moved', 'over']);
      if (!refreshed && plies === 12) {
        // A refresh mid-game comes back to the same seat with the same game.
        refreshed = true;
        // The record first holds every ply so far (the page may show 'moved' before the server's
        // answer lists the ply), so the count compared after the refresh is settled.
        await guest.waitForFunction((n) => document.querySelectorAll('.log li').length === n, plies);
        const before = await guest.$$eval('.log li', (els) => els.length);
        const ownBefore = await ownPieces(guest);
        const lastReport = await guest.$$eval('.reports li', (els) => els.map((e) => e.textContent));
        assert.ok(lastReport.length > 0, 'the last move is reported');
        await guest.reload();
        await waitPhase(guest, ['turn', 'moved', 'over']);
        await guest.waitForSelector('[data-connection="open"]');
        assert.equal(await guest.getAttribute('.grid', 'data-viewer'), 'gote');
        assert.deepEqual(await ownPieces(guest), ownBefore, 'the same pieces after the refresh');
        assert.equal(await guest.$$eval('.log li', (els) => els.length), before, 'the same record after the refresh');
        assert.deepEqual(
          await guest.$$eval('.reports li', (els) => els.map((e) => e.textContent)),
          lastReport,
          'the same report of the last move after the refresh',
        );
        await host.waitForSelector('[data-presence="connected"]');
        // The strip for narrow screens starts with the turn's heading, not the mode's title.
        const strip = await guest.$$eval('[data-status-strip] p', (ps) => ps.map((p) => p.dataset.text));
        const heading = (await guest.textContent('.panel h2:not(.online-title)')).trim();
        assert.equal(strip[0], heading, strip.join(' | '));
      }
    }
    await waitPhase(host, ['over']);
    await waitPhase(guest, ['over']);
    assert.ok(refreshed, 'the game lasted past the refresh');
    assert.deepEqual([await host.title(), await guest.title()], ['Gunjin Shogi', 'Gunjin Shogi']);
    const result = await host.textContent('.result-text');
    assert.equal(await guest.textContent('.result-text'), result);
    // Each player is told the result as theirs: one won and one lost, or neither (a draw).
    const verdicts = await Promise.all([host, guest].map((p) => p.$$eval('.result-verdict', (els) => els.map((el) => el.textContent))));
    if (/^Draw: /.test(result)) assert.deepEqual(verdicts, [[], []]);
    else assert.deepEqual(verdicts.flat().sort(), ['You lost.', 'You won.']);
    assert.match(result, /wins: .*’s headquarters was occupied|wins: .* has no legal move|^Draw: /);
    // At the end every piece is shown with its kind.
    for (const page of [host, guest]) {
      assert.equal(await page.$$eval('.cell.has-piece:not([data-kind])', (els) => els.length), 0);
    }
    // No frame before the end carried an enemy kind, on either side; the end revealed them.
    for (const [who, page] of [['host', host], ['guest', guest]]) {
      assert.ok(page.frames.some((f) => f.t === 'moved'), `${who} received moves`);
      const started = page.frames.find((f) => f.t === 'started' || (f.t === 'sync' && f.room.view !== undefined));
      const view = started.view ?? started.room.view;
      assert.ok(Object.values(view.pieces).some((p) => p.side === view.side && p.kind !== undefined), `the ${who} sees their own kinds`);
      assert.deepEqual(leaksInFrames(page.frames, ids), [], `frames received by the ${who}`);
      const ended = page.frames.find((f) => f.t === 'ended');
      assert.ok(ended !== undefined, `the ${who} got the end`);
      assert.ok(Object.values(ended.view.pieces).every((p) => p.kind !== undefined), `the ${who}'s end view shows every kind`);
    }
    // Both can look back over the game from both arrangements as they started, after a refresh too.
    const startOf = (page) => {
      const f = page.frames.find((x) => x.t === 'started');
      const out = {};
      for (const [sq, p] of Object.entries(f.view.pieces)) if (p.side === f.view.side) out[sq] = `${p.side}:${p.kind}`;
      return out;
    };
    const bothStarts = { ...startOf(host), ...startOf(guest) };
    assert.equal(Object.keys(bothStarts).length, 46);
    await guest.reload();
    await waitPhase(guest, ['over']);
    for (const page of [host, guest]) {
      await page.click('[data-focus-key="review-first"]');
      const shown = await page.evaluate(() => {
        const out = {};
        for (const el of document.querySelectorAll('.cell.has-piece[data-kind]')) {
          out[el.dataset.square] = `${el.classList.contains('sente') ? 'sente' : 'gote'}:${el.dataset.kind}`;
        }
        return out;
      });
      assert.deepEqual(shown, bothStarts);
      assert.match(await page.textContent('.review-at'), new RegExp(`\\(moves in all: ${plies}\\)`));
    }
    console.log(`# online game: ${plies} plies, result: ${result}`);
    await host.close();
    await guest.close();
  });

  it('arranging before the friend comes, re-arranging, resignation, and swapping sides for the next game', async () => {
    const host = await openOnlinePage(browser, server.url);
    const url = await createRoom(host);
    assert.match(await host.textContent('.panel'), /Your friend has not come yet/);
    assert.equal(await host.isVisible('[data-focus-key="copy-url"]'), true);
    // Arrange and hold the arrangement before the friend has come; then take it back and hold again.
    await waitPhase(host, ['setup']);
    await confirmArrangement(host);
    await host.waitForSelector('[data-focus-key="unarrange"]');
    // Nobody has come, so nobody is said to be arranging.
    const waiting = await host.textContent('.panel');
    assert.match(waiting, /Your friend has not come yet/);
    assert.doesNotMatch(waiting, /still arranging/);
    await host.waitForFunction(() => document.activeElement?.dataset.focusKey === 'unarrange');
    await host.keyboard.press('Enter');
    await waitPhase(host, ['setup']);
    await host.click('[data-focus-key="mirror"]');
    const mirrored = await ownPieces(host);
    // A reload (a phone discarding the tab while its player sends the URL) keeps the arrangement
    // being made, though the server does not hold it.
    await host.reload();
    await waitPhase(host, ['setup']);
    assert.deepEqual(await ownPieces(host), mirrored, 'the arrangement being made survives a reload');
    // Confirmed by a double click: its second click is not taken by whatever the redraw put under
    // the pointer ("choose the mode again" there left the room).
    await host.evaluate(() => window.scrollTo(0, 0));
    const confirm = await host.$eval('[data-focus-key="confirm"]', (e) => e.getBoundingClientRect().toJSON());
    await host.mouse.dblclick(confirm.x + confirm.width / 2, confirm.y + confirm.height / 2);
    await host.waitForSelector('[data-focus-key="unarrange"]');
    await host.waitForTimeout(300);
    assert.equal(new URL(host.url()).searchParams.has('room'), true, 'still in the room');
    assert.equal(await phase(host), 'moved', 'waiting for the friend, the arrangement held');

    // What the host hears while the friend comes: that the friend is here, never that the friend
    // (seated a moment before its page connects) is disconnected.
    await recordLive(host);
    // The friend can join with the keyboard alone: the focus waits on "Join".
    const guest = await openOnlinePage(browser, url);
    await guest.waitForSelector('[data-focus-key="online-join"]');
    await guest.waitForFunction(() => document.activeElement?.dataset.focusKey === 'online-join');
    assert.equal(await focusedName(guest), 'Join');
    await guest.keyboard.press('Enter');
    await waitPhase(guest, ['setup']);
    await host.waitForFunction(() => window.liveSaid.some((l) => /Your friend is here\./.test(l)));
    assert.deepEqual((await host.evaluate(() => window.liveSaid)).filter((l) => /disconnected/.test(l)), []);
    await confirmArrangement(guest);
    await waitPhase(host, ['turn']);
    assert.deepEqual(await ownPieces(host), mirrored, 'the game starts from the held arrangement');
    // "Play again" belongs to the CPU and one-device games; a friend game offers the swap after its end.
    assert.equal(await host.$('[data-focus-key="play-again"]'), null);
    assert.equal(await host.$('[data-focus-key="rematch"]'), null);

    // The guest resigns on the host's turn (resigning works at any time).
    await guest.click('[data-focus-key="resign"]');
    await waitPhase(host, ['over']);
    await waitPhase(guest, ['over']);
    assert.match(await host.textContent('.result-text'), /Sente wins: Gote resigned/);
    // The box the focus goes to is named by its heading, as in the other modes.
    assert.equal(await host.getAttribute('.result', 'role'), 'group');
    assert.equal(await host.textContent(`#${await host.getAttribute('.result', 'aria-labelledby')}`), 'Game over');

    // Swap sides and play again: the host asks, the guest accepts; both arrange anew. (A
    // phone's strip, beside or under the board, offers the same press and says the friend asked.)
    assert.equal(await host.$eval('[data-strip-action="rematch"]', (el) => el.dataset.text), 'Swap sides and play again');
    await host.click('[data-focus-key="rematch"]');
    await host.waitForSelector('text=Waiting for your friend to accept');
    assert.equal(await host.$('text=not here to accept'), null, 'the friend is here');
    await guest.waitForSelector('text=Your friend wants to play again');
    assert.ok(await guest.$('.status-strip p[data-text^="Your friend wants to play again"]'), 'the strip says the friend asked');
    await guest.evaluate(() => document.querySelector('[data-strip-action="rematch"]').click()); // (hidden on a wide screen)
    await waitPhase(host, ['setup']);
    await waitPhase(guest, ['setup']);
    assert.equal(await host.getAttribute('.grid', 'data-viewer'), 'gote');
    assert.equal(await guest.getAttribute('.grid', 'data-viewer'), 'sente');
    // The next game starts from a new automatic arrangement; "previous arrangement" brings back
    // the one the host played, turned round for gote: each piece where gote sees the same place.
    const fresh = await ownPieces(host);
    assert.equal(Object.keys(fresh).length, 23);
    const across = { a: 'f', b: 'e', c: 'd', d: 'c', e: 'b', f: 'a' };
    const turned = Object.fromEntries(
      Object.entries(mirrored).map(([sq, kind]) => [sq === 'cd1' ? 'cd8' : `${across[sq[0]]}${9 - Number(sq[1])}`, kind]),
    );
    assert.notDeepEqual(fresh, turned, 'a new arrangement, not the last one');
    await host.click('[data-focus-key="previous"]');
    assert.deepEqual(await ownPieces(host), turned);
    await confirmArrangement(host);
    await confirmArrangement(guest);
    await waitPhase(guest, ['turn']);
    await waitPhase(host, ['moved']);
    // The friend leaves after the game: a rematch asked then says nobody is there to accept it.
    await guest.click('[data-focus-key="resign"]');
    await waitPhase(host, ['over']);
    await guest.close();
    await host.waitForSelector('[data-presence="away"]');
    assert.equal((await host.textContent('[data-presence]')).trim(), 'Your friend is disconnected.');
    await host.click('[data-focus-key="rematch"]');
    await host.waitForSelector('text=not here to accept');
    await host.close();
  });

  it('on a phone, the room’s URL to send and the friend’s join button come into view, and trouble shows in the strip', async () => {
    const phone = { width: 360, height: 640 };
    const inView = (page, selector) =>
      page.waitForFunction((sel) => {
        const r = document.querySelector(sel)?.getBoundingClientRect();
        return r !== undefined && r.top >= 0 && r.bottom <= innerHeight;
      }, selector, { timeout: 5000 });
    const host = await openOnlinePage(browser, server.url, { viewport: phone });
    const url = await createRoom(host);
    // Below the board and its 48 squares: brought up without a scroll by the player.
    await inView(host, '.online-url');
    await inView(host, '[data-focus-key="copy-url"]');
    // Confirming before the friend has come leaves the host where the URL is, not at the board.
    const before = await host.evaluate(() => scrollY);
    await host.evaluate(() => document.querySelector('[data-focus-key="confirm"]').click());
    await host.waitForSelector('[data-focus-key="unarrange"]');
    assert.equal(await host.evaluate(() => scrollY), before);
    // Waiting for the friend is no hand-over: the strip offers none (that is two on one device).
    assert.equal(await host.$('[data-strip-action]'), null);
    const guest = await openOnlinePage(browser, url, { viewport: phone });
    await inView(guest, '[data-focus-key="online-join"]');
    await guest.click('[data-focus-key="online-join"]');
    await waitPhase(guest, ['setup']);
    // A game ended and a rematch asked and accepted in the panel, a screen or more below the
    // board: the new arrangement is brought into view.
    await guest.evaluate(() => document.querySelector('[data-focus-key="confirm"]').click());
    await waitPhase(host, ['turn', 'moved']);
    // The game may reach the host's page before the guest's, whose 'moved' is at first its
    // arrangement held: the game has come when there is a game to resign.
    await guest.waitForSelector('[data-focus-key="resign"]', { state: 'attached' });
    await guest.evaluate(() => document.querySelector('[data-focus-key="resign"]').click());
    await waitPhase(host, ['over']);
    await host.evaluate(() => document.querySelector('[data-focus-key="rematch"]').scrollIntoView());
    await host.click('[data-focus-key="rematch"]');
    await guest.waitForSelector('[data-focus-key="rematch"]');
    await guest.evaluate(() => document.querySelector('[data-focus-key="rematch"]').scrollIntoView());
    await guest.click('[data-focus-key="rematch"]');
    for (const page of [host, guest]) {
      await waitPhase(page, ['setup']);
      await page.waitForFunction(() => {
        const mount = document.querySelector('.board3d-mount');
        const board = mount.hidden ? document.querySelector('.grid-section') : mount;
        const top = board.getBoundingClientRect().top;
        return top >= -1 && top < innerHeight / 2;
      }, null, { timeout: 5000 });
    }
    // The friend goes: the host, arranging at the board, reads it in the strip.
    await guest.close();
    await host.waitForFunction(
      () => [...document.querySelectorAll('[data-status-strip]:not([hidden]) p')].some((p) => p.dataset.text === 'Your friend is disconnected; the game waits for their return.'),
      null,
      { timeout: 10_000 },
    );
    await host.close();
  });

  it('sends the room URL: “Copy URL” puts it on the clipboard, and “Share” hands it to the device where it can share', async () => {
    const host = await openOnlinePage(browser, server.url);
    // This Chromium offers no share sheet: stand one in that records what it is given.
    await host.context().addInitScript(() => {
      window.sharedWith = [];
      navigator.share = async (data) => {
        window.sharedWith.push(data);
      };
    });
    await host.reload();
    await host.waitForFunction(() => window.gunjinTest !== undefined);
    const origin = new URL(server.url).origin;
    await host.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    const url = await createRoom(host);
    await host.click('[data-focus-key="copy-url"]');
    await host.waitForSelector('text=URL copied.');
    assert.equal(await host.evaluate(() => navigator.clipboard.readText()), url);
    await host.click('[data-focus-key="share-url"]');
    const shared = await host.evaluate(() => window.sharedWith);
    assert.equal(shared.length, 1);
    assert.equal(shared[0].url, url);
    // The message belongs to the invitation: it goes when the friend comes.
    await host.focus('[data-focus-key="copy-url"]');
    const friend = await openOnlinePage(browser, url);
    await friend.click('[data-focus-key="online-join"]');
    await host.waitForSelector('[data-presence="connected"]');
    assert.equal(await host.$('.online-invite'), null);
    // The focused button went with the invitation: the focus moves to the board, not to the top.
    await host.waitForFunction(() => document.activeElement?.classList.contains('cell'));
    assert.doesNotMatch(await host.textContent('.panel'), /URL copied/);
    await friend.close();
    // A browser without a share sheet (this headless Chromium) offers only the copy button.
    const plain = await openOnlinePage(browser, server.url);
    await createRoom(plain);
    const canShare = await plain.evaluate(() => typeof navigator.share === 'function');
    assert.equal((await plain.$('[data-focus-key="share-url"]')) !== null, canShare);
    await plain.close();
    await host.close();
  });

  it('leaving with “choose the mode again” clears the address; the start screen and the room URL give the seat back', async () => {
    const { host, guest, url } = await roomWithFriend();
    await guest.click('[data-focus-key="mirror"]');
    const made = await ownPieces(guest);
    await guest.click('[data-focus-key="choose-mode"]');
    await guest.waitForSelector('.mode-button');
    assert.equal(new URL(guest.url()).searchParams.has('room'), false, 'the room left the address bar');
    await host.waitForSelector('[data-presence="away"]');
    // The start screen offers the way back, address and all.
    assert.match(await guest.textContent('#resume-friend-text'), /room with a friend/);
    assert.equal((await guest.textContent('[data-focus-key="resume-friend"]')).trim(), 'Back to the room');
    await guest.click('[data-focus-key="resume-friend"]');
    await waitPhase(guest, ['setup']);
    assert.deepEqual(await ownPieces(guest), made, 'the arrangement being made comes back with the room');
    assert.equal(new URL(guest.url()).searchParams.get('room'), new URL(url).searchParams.get('room'));
    assert.equal(await guest.$('[data-focus-key="online-join"]'), null, 'back in the seat, not invited');
    await host.waitForSelector('[data-presence="connected"]');
    await guest.click('[data-focus-key="choose-mode"]');
    await guest.waitForSelector('.mode-button');
    await host.waitForSelector('[data-presence="away"]');
    // The room stays: the same browser opening its URL again is the same guest.
    const again = new URL(url);
    again.searchParams.set('e2e', '');
    await guest.goto(again.toString());
    await guest.waitForFunction(() => window.gunjinTest !== undefined);
    await waitPhase(guest, ['setup']);
    assert.equal(await guest.getAttribute('.grid', 'data-viewer'), 'gote');
    assert.equal(await guest.$('[data-focus-key="online-join"]'), null, 'no second invitation: the seat is known');
    await host.waitForSelector('[data-presence="connected"]');
    await host.close();
    await guest.close();
  });

  it('a second tab of the same seat takes it; the first lets it go until asked to play here again', async () => {
    const { host, guest, url } = await roomWithFriend();
    const again = new URL(url);
    again.searchParams.set('e2e', '');
    const tab = await guest.context().newPage();
    await tab.goto(again.toString());
    await tab.waitForFunction(() => window.gunjinTest !== undefined);
    await waitPhase(tab, ['setup']);
    await tab.waitForSelector('[data-connection="open"]');
    await guest.waitForSelector('[data-focus-key="play-here"]');
    assert.match(await guest.textContent('.online-status'), /another tab/);
    // Nobody takes the seat back on their own: after a while both are as they were.
    await new Promise((ok) => setTimeout(ok, 3000));
    assert.equal(await tab.getAttribute('.online-status', 'data-connection'), 'open');
    assert.notEqual(await guest.$('[data-focus-key="play-here"]'), null);
    assert.equal(await host.getAttribute('[data-presence]', 'data-presence'), 'connected');
    // Asked, the first tab plays here again, and the second lets go.
    await guest.click('[data-focus-key="play-here"]');
    await guest.waitForSelector('[data-connection="open"]');
    await tab.waitForSelector('[data-focus-key="play-here"]');
    await host.close();
    await guest.close();
    await tab.close();
  });

  it('a page whose browser goes offline says so at once, and an arrangement confirmed meanwhile goes out when it is back', async () => {
    const { host, guest } = await roomWithFriend();
    await host.waitForSelector('[data-connection="open"]');
    // A phone losing its signal closes nothing: the page goes by the browser's word.
    await host.context().setOffline(true);
    await host.waitForSelector('[data-connection="waiting"]', { timeout: 5000 });
    assert.match(await host.textContent('.online-status'), /Offline: the game reconnects as soon as the network is back/);
    await host.evaluate(() => document.querySelector('[data-focus-key="confirm"]').click());
    await host.waitForSelector('text=your arrangement goes to the server as soon as the connection is back');
    await host.context().setOffline(false);
    await host.waitForSelector('[data-connection="open"]', { timeout: 15_000 });
    await guest.waitForSelector('text=Your friend has confirmed their arrangement.', { timeout: 10_000 });
    await host.close();
    await guest.close();
  });

  it('the creator may play the CPU instead of waiting, which closes the room; an unknown room says so', async () => {
    const host = await openOnlinePage(browser, server.url);
    const url = await createRoom(host);
    // Arranged while waiting (a3 and f3 swapped): the CPU game starts from that arrangement.
    await host.click('.cell[data-square="a3"]');
    await host.click('.cell[data-square="f3"]');
    const arranged = await ownPieces(host);
    await host.focus('[data-focus-key="online-cpu-now"]');
    await host.keyboard.press('Enter');
    await host.waitForFunction(() => document.querySelector('.online-title') === null);
    await waitPhase(host, ['setup']);
    // The keyboard player lands on the board of the new game, not at the top of the page.
    assert.equal(await host.evaluate(() => document.activeElement?.classList.contains('cell')), true);
    assert.equal(new URL(host.url()).searchParams.has('room'), false, 'the room left the address bar');
    assert.deepEqual(await ownPieces(host), arranged);
    assert.equal(await host.textContent('[data-mode-name]'), 'Play the CPU: intermediate');
    await host.close();
    // The friend opening the link afterwards is told there is no game to join.
    const late = await openOnlinePage(browser, url);
    await late.waitForSelector('[data-online-message].warn');
    assert.equal(await late.$('[data-focus-key="online-join"]'), null);
    assert.match(await late.textContent('[data-online-message].warn'), /closed/i);
    await late.close();

    const lost = await openOnlinePage(browser, `${server.url}?room=${'x'.repeat(22)}`);
    await lost.waitForSelector('[data-online-message].warn');
    assert.match(await lost.textContent('[data-online-message].warn'), /There is no such room/);
    await lost.close();
  });

  it('a press on "confirm" held down as the friend confirms is taken: the button stays put, the news comes under it', async () => {
    const { host, guest } = await roomWithFriend();
    // The button's layout box, not its drawn one: held down, a button is drawn 1 px lower
    // (`.btn:active`), eased in.
    const laidOut = () =>
      guest.$eval('[data-focus-key="confirm"]', (el) => {
        let [x, y] = [0, 0];
        for (let n = el; n !== null; n = n.offsetParent) [x, y] = [x + n.offsetLeft, y + n.offsetTop];
        return { x, y, width: el.offsetWidth, height: el.offsetHeight };
      });
    const box = await guest.locator('[data-focus-key="confirm"]').boundingBox();
    const before = await laidOut();
    await guest.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await guest.mouse.down();
    // The friend's confirmation arrives between the button going down and coming up: the
    // guest's panel is drawn anew under the pointer.
    await confirmArrangement(host);
    await guest.waitForSelector('[data-friend-news]');
    // Laid out where it was: it had slid 50 px when the news came above it.
    assert.deepEqual(await laidOut(), before, 'the button did not move');
    const news = await guest.locator('[data-friend-news]').boundingBox();
    assert.ok(news.y >= box.y + box.height, 'the news is under the button');
    await guest.mouse.up();
    await waitPhase(host, ['turn']);
    await waitPhase(guest, ['moved']);
    await host.close();
    await guest.close();
  });

  it('a room request the server never answers is given up with a way to try again', async () => {
    const page = await openOnlinePage(browser, server.url);
    let hold = true;
    // Held without an answer, as a stuck proxy would.
    await page.route('**/api/rooms', (route) => (hold ? undefined : route.continue()));
    await page.click('.mode-button[data-mode="friend"]');
    await page.waitForSelector('[data-focus-key="online-retry"]', { timeout: 40_000 });
    assert.match(await page.textContent('[data-online-message]'), /The server could not be reached/);
    hold = false;
    await page.click('[data-focus-key="online-retry"]');
    await page.waitForSelector('.online-url');
    await page.close();
  });

  it('both pages reconnect on their own after the server is killed (kill -9) and started again, and the game goes on', async () => {
    const own = await restartableServer();
    try {
      const { host, guest } = await gameOn(own);
      const random = seeded(77);
      const play = async (n) => {
        for (let i = 0; i < n; i++) {
          const mover = await nextMover(host, guest);
          if (mover === null) return;
          await playRandomMove(mover, random);
          await waitPhase(mover, ['moved', 'over']);
        }
      };
      await play(6);
      // The last move may still be on its way to the page that did not make it.
      const logLength = (page) => page.$$eval('.log li', (els) => els.length);
      let plies = await logLength(host);
      for (let tries = 0; plies !== (await logLength(guest)) && tries < 100; tries++) {
        await host.waitForTimeout(100);
        plies = await logLength(host);
      }
      assert.equal(await logLength(guest), plies, 'both pages show every move before the kill');
      // Everything the live region says from here on.
      for (const page of [host, guest]) await recordLive(page);
      await own.kill();
      for (const page of [host, guest]) {
        await page.waitForSelector('[data-connection="waiting"]');
        assert.match(await page.textContent('.online-status'), /Connection lost: retrying in \d+ s/);
      }
      const { mover, to } = await moveWhileDown(host, guest);
      await own.start();
      await warningGoesWhenBack(mover);
      // The piece stayed chosen: pressing the destination again plays the move.
      await mover.click(`.cell[data-square="${to}"]`);
      await waitPhase(mover, ['moved', 'over']);
      plies += 1;
      for (const page of [host, guest]) {
        await page.waitForSelector('[data-connection="open"]', { timeout: 20_000 });
        // Said once when it was lost (the count-down itself is not read out), and once when back.
        await page.waitForFunction(() => window.liveSaid.some((l) => /Connected again\./.test(l)));
        const said = await page.evaluate(() => window.liveSaid);
        assert.equal(said.filter((l) => /Connection lost: retrying in \d+ s\./.test(l)).length, 1, said.join(' | '));
        assert.equal(await logLength(page), plies, 'the same record after the restart');
      }
      await play(6);
      assert.ok((await host.$$eval('.log li', (els) => els.length)) > plies || (await phase(host)) === 'over', 'the game went on');
      await host.close();
      await guest.close();
    } finally {
      await own.stop();
    }
  });
});

describe('a server stopped for a restart', () => {
  it('closes both pages’ sockets as going away: they say the server is restarting, and come back when it is up', async () => {
    const own = await restartableServer();
    try {
      const { host, guest } = await gameOn(own);
      await waitPhase(host, ['turn']);
      await own.kill('SIGTERM');
      for (const page of [host, guest]) {
        await page.waitForSelector('[data-connection="waiting"]');
        assert.match(await page.textContent('.online-status'), /The server is restarting: reconnecting in \d+ s/);
      }
      const { mover, to } = await moveWhileDown(host, guest);
      await own.start();
      await warningGoesWhenBack(mover);
      // The piece stayed chosen: let go of it, and the game goes on as before.
      await mover.keyboard.press('Escape');
      for (const page of [host, guest]) {
        await page.waitForSelector('[data-connection="open"]', { timeout: 20_000 });
        assert.match(await page.textContent('.online-status'), /Connected/);
      }
      await waitPhase(host, ['turn']);
      await playRandomMove(host, seeded(5));
      await waitPhase(guest, ['turn']);
      await host.close();
      await guest.close();
    } finally {
      await own.stop();
    }
  });
});

describe('the CPU offer when the friend stays away', () => {
  let quick;
  before(async () => {
    // The same server with the offer after 1 s instead of 2 minutes (it checks every 5 s).
    quick = await startServer(['--cpu-offer-after', '1']);
  });
  after(async () => {
    await quick?.stop();
  });

  it('the friend leaves mid-arrangement; the offer comes, and taking it starts a CPU game', async () => {
    const { host, guest, url } = await roomWithFriend(quick.url);
    const token = await guest.evaluate(() => Object.entries(localStorage).find(([k]) => k.startsWith('gunjin.room.')));
    await guest.close();
    await host.waitForSelector('[data-presence="away"]');
    await host.waitForSelector('[data-focus-key="online-cpu-offer"]', { timeout: 20_000 });
    // How long by now: at least the server's delay (1 s here), counted when the offer came.
    assert.match(await host.textContent('.online-offer'), /Your friend has been away for [1-9]\d* s or more\./, 'the page says how long');
    assert.match(await host.textContent('.online-offer'), /keep waiting/);
    await host.click('[data-focus-key="online-cpu-offer"]');
    await host.waitForFunction(() => document.querySelector('.online-title') === null);
    await waitPhase(host, ['setup']);
    assert.equal(new URL(host.url()).searchParams.has('room'), false, 'the room left the address bar');
    assert.equal(await host.$('.online-offer'), null);
    await host.close();
    // The friend comes back to a closed room: its news, and no connection trouble of their own.
    assert.ok(token, 'the guest kept its seat token');
    const back = await openOnlinePage(browser, url);
    await back.evaluate(([k, v]) => localStorage.setItem(k, v), token);
    await back.reload();
    await back.waitForSelector('[data-online-message].warn');
    assert.match(await back.textContent('[data-online-message].warn'), /closed/i);
    assert.equal(await back.$('.online-status'), null, 'no connection line in a closed room');
    await back.close();
  });

  it('the friend leaves mid-game; the offer comes with the game waiting, and goes when the friend returns', async () => {
    const { host, guest, url } = await roomWithFriend(quick.url);
    await confirmArrangement(guest);
    await confirmArrangement(host);
    await waitPhase(host, ['turn']);
    await playRandomMove(host, seeded(7));
    await waitPhase(guest, ['turn']);
    // Closing the page ends its browser context too: keep its seat (the token) to come back with.
    const token = await guest.evaluate(() => Object.entries(localStorage).find(([k]) => k.startsWith('gunjin.room.')));
    await guest.close();
    await host.waitForSelector('[data-presence="away"]');
    await host.waitForSelector('[data-focus-key="online-cpu-offer"]', { timeout: 20_000 });
    const said = /Your friend has been away for [1-9]\d* s or more\./;
    assert.match(await host.textContent('.online-offer'), said);
    // Said once in the live region, not repeated by each redraw (a press on the board redraws).
    assert.match(await host.textContent('.live'), said);
    assert.equal(await host.$('.online-offer[role]'), null);
    assert.equal(await phase(host), 'moved', 'the game waits for the friend');
    assert.doesNotMatch(await host.textContent('.panel'), /Your friend is thinking/, 'a friend who is away is not said to think');
    // The friend comes back (same browser storage): the offer goes, the game goes on.
    assert.ok(token, 'the guest kept its seat token');
    const back = await openOnlinePage(browser, url);
    await back.evaluate(([k, v]) => localStorage.setItem(k, v), token);
    await back.reload();
    await back.waitForFunction(() => window.gunjinTest !== undefined);
    await waitPhase(back, ['turn']);
    await host.waitForSelector('[data-presence="connected"]');
    await host.waitForFunction(() => document.querySelector('.online-offer') === null);
    assert.match(await host.textContent('.live'), /Your friend is here\./);
    assert.match(await host.textContent('.panel'), /Your friend is thinking/);
    await playRandomMove(back, seeded(8));
    await waitPhase(host, ['turn']);
    await host.waitForFunction(() => /Your turn/.test(document.querySelector('.live').textContent));
    // Each report is a sentence of its own when read out.
    assert.match(await host.textContent('.live'), /^The enemy moved [^.]+\.( Your [a-z ]+ \([a-f0-9]+\)\.)? Your turn\.$/);
    await back.close();
    await host.close();
  });
});

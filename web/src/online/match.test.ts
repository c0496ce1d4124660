import { describe, expect, it } from 'vitest';
import { MemoryStorage, testEngine } from '../test-engine';
import { boardState } from '../state/board-state';
import type { Arrangement } from '../engine';
import type { SetupState } from '../state/setup';
import { FakeTimers, flush, harness, newMatch, ROOM, ROOM_SYNC, TOKEN, type Harness } from './fakes';
import type { OnlineMatch } from './match';
import { ANSWER_MS, backoffMs } from './client';
import { ROOM_LIFETIME_MS, SeatStore } from './lobby';

type RoomSync = typeof ROOM_SYNC;

/** A match opened from a room URL in a browser that holds a seat there. */
function seated(seat: 'host' | 'guest') {
  const storage = new MemoryStorage();
  storage.setItem(`gunjin.room.${ROOM}`, JSON.stringify({ seat, token: TOKEN }));
  const h = harness(storage);
  return { storage, h, m: newMatch(h, ROOM) };
}

/** The match's socket opens on `room`; `arrange` changes its arrangement, which is returned. */
function arrangingIn(h: Harness, m: OnlineMatch, room: RoomSync, arrange: (setup: SetupState) => void): Arrangement {
  h.sockets[0]!.open();
  h.sockets[0]!.receive({ t: 'sync', v: 1, room });
  const p = m.phase;
  if (p.kind !== 'setup') throw new Error('not arranging');
  arrange(p.setup);
  return { ...p.setup.arrangement };
}

/** The page reloaded on the same storage, back in the room (`room`) and arranging. */
function reloaded(storage: MemoryStorage, room: RoomSync): { m: OnlineMatch; setup: SetupState } {
  const h = harness(storage);
  const m = newMatch(h, ROOM);
  h.sockets[0]!.open();
  h.sockets[0]!.receive({ t: 'sync', v: 1, room });
  const p = m.phase;
  if (p.kind !== 'setup') throw new Error('not arranging');
  return { m, setup: p.setup };
}

/** A new room's match, connected and arranging in `room`. */
async function arrangingRoom(room: object = ROOM_SYNC) {
  const h = harness();
  const m = newMatch(h, null);
  await flush();
  const s = h.sockets[0]!;
  s.open();
  s.receive({ t: 'sync', v: 1, room });
  return { h, m, s };
}

describe('OnlineMatch', () => {
  it('creates a room, keeps the token, shows the room in the address, and arranges at once', async () => {
    const h = harness();
    const m = newMatch(h, null);
    expect(m.stage.kind).toBe('creating');
    await flush();
    expect(m.stage.kind).toBe('seated');
    expect(m.room).toBe(ROOM);
    expect(h.address).toEqual([ROOM]);
    expect(JSON.parse(h.storage.getItem(`gunjin.room.${ROOM}`) ?? '{}')).toMatchObject({ seat: 'host', token: TOKEN });
    const s = h.sockets[0]!;
    s.open();
    expect(s.sent[0]).toEqual({ t: 'hello', token: TOKEN, since: 0 });
    s.receive({ t: 'sync', v: 1, room: ROOM_SYNC });
    expect(m.phase.kind).toBe('setup');
    expect(m.viewer).toBe('sente');
    m.dispose();
  });

  it('an arrangement whose connection was lost before the server said it held it goes out again, unless the server had it', async () => {
    for (const arrived of [false, true]) {
      const { h, m, s } = await arrangingRoom({ ...ROOM_SYNC, opponent: 'connected' });
      expect(m.confirmSetup()).toBe(true);
      const sent = s.sent.at(-1);
      expect(sent?.['t']).toBe('arrange');
      h.goOffline();
      expect(m.waiting).toBe(true);
      (h.env.timers as FakeTimers).fire(backoffMs(1));
      const back = h.sockets[1]!;
      back.open();
      back.receive({ t: 'welcome', v: arrived ? 2 : 1, seat: 'host' });
      // Nothing goes out before the missed events are in.
      if (arrived) {
        expect(back.sent.filter((f) => f['t'] === 'arrange')).toEqual([]);
        back.receive({ t: 'ready', v: 2, who: 'you', ready: true });
        expect(back.sent.filter((f) => f['t'] === 'arrange')).toEqual([]);
      } else {
        expect(back.sent.filter((f) => f['t'] === 'arrange')).toEqual([sent]);
      }
      expect(m.waiting).toBe(true);
      m.dispose();
    }
  });

  it('an arrangement taken back while offline, whose answer was lost, is withdrawn on return if the server had it', async () => {
    for (const arrived of [false, true]) {
      const { h, m, s } = await arrangingRoom({ ...ROOM_SYNC, opponent: 'connected' });
      expect(m.confirmSetup()).toBe(true);
      expect(s.sent.at(-1)?.['t']).toBe('arrange');
      h.goOffline();
      expect(m.unarrange()).toBe(true);
      expect(m.phase.kind).toBe('setup');
      (h.env.timers as FakeTimers).fire(backoffMs(1));
      const back = h.sockets[1]!;
      back.open();
      back.receive({ t: 'welcome', v: arrived ? 2 : 1, seat: 'host' });
      const sentTypes = (): unknown[] => back.sent.map((f) => f['t']).filter((t) => t === 'arrange' || t === 'unarrange');
      if (arrived) {
        // Nothing before the missed events are in; then the server is asked to let it go.
        expect(sentTypes()).toEqual([]);
        back.receive({ t: 'ready', v: 2, who: 'you', ready: true });
        expect(sentTypes()).toEqual(['unarrange']);
        back.receive({ t: 'ready', v: 3, who: 'you', ready: false });
      }
      expect(sentTypes()).toEqual(arrived ? ['unarrange'] : []);
      expect(m.phase.kind).toBe('setup');
      m.dispose();
    }
  });

  it('a page shown again asks its connection for an answer, and reconnects at once if it was waiting', async () => {
    const { h, m, s } = await arrangingRoom({ ...ROOM_SYNC, opponent: 'connected' });
    const timers = h.env.timers as FakeTimers;
    h.show();
    expect(s.sent.at(-1)).toEqual({ t: 'ping' });
    // The connection died while the page slept: no answer within ANSWER_MS gives it up.
    timers.fire(ANSWER_MS);
    expect(m.connection?.kind).toBe('waiting');
    expect(s.closed).toBe(true);
    expect(h.sockets).toHaveLength(1);
    // Shown again while waiting: no wait for the backoff.
    h.show();
    expect(h.sockets).toHaveLength(2);
    m.dispose();
  });

  it('a page that let the seat go to another tab does not keep an arrangement to send later', async () => {
    const { m, s } = await arrangingRoom();
    s.receive({ t: 'error', code: 'replaced' });
    expect(m.confirmSetup()).toBe(false);
    expect(m.queued).toBe(false);
    expect(m.phase.kind).toBe('setup');
    m.dispose();
  });

  it('confirm and wait: sends the arrangement, shows it held, and re-arranging withdraws it', async () => {
    const { m, s } = await arrangingRoom();
    const p = m.phase;
    if (p.kind !== 'setup') throw new Error('not arranging');
    const arrangement = p.setup.arrangement;
    expect(m.confirmSetup()).toBe(true);
    expect(s.sent.at(-1)).toEqual({ t: 'arrange', setup: arrangement });
    expect(m.waiting).toBe(true);
    expect(m.phase.kind).toBe('moved');
    s.receive({ t: 'ready', v: 2, who: 'you', ready: true });
    expect(m.waiting).toBe(true);
    // The board shows the held arrangement, face up for its owner only.
    const board = boardState(m, (k) => k);
    expect(board.pieces).toHaveLength(Object.keys(arrangement).length);
    expect(board.pieces.every((pc) => pc.side === 'sente' && pc.kind !== undefined)).toBe(true);
    expect(m.unarrange()).toBe(true);
    expect(s.sent.at(-1)).toEqual({ t: 'unarrange' });
    s.receive({ t: 'ready', v: 3, who: 'you', ready: false });
    expect(m.phase.kind).toBe('setup');
    m.dispose();
  });

  it('confirmed while the connection is down: held here, taken back or sent once it is back', async () => {
    const h = harness();
    const m = newMatch(h, null);
    await flush();
    const first = h.sockets[0]!;
    first.open();
    first.receive({ t: 'sync', v: 1, room: ROOM_SYNC });
    first.drop();
    expect(m.connection?.kind).not.toBe('open');
    const p = m.phase;
    if (p.kind !== 'setup') throw new Error('not arranging');
    const arrangement = p.setup.arrangement;
    expect(m.confirmSetup()).toBe(true);
    expect(m.queued).toBe(true);
    expect(m.waiting).toBe(true);
    expect(m.arrangement('sente')).toEqual(arrangement);
    // "Re-arrange" takes it back without a connection, and it may be confirmed again.
    expect(m.unarrange()).toBe(true);
    expect(m.queued).toBe(false);
    expect(m.phase.kind).toBe('setup');
    expect(m.confirmSetup()).toBe(true);
    expect(first.types()).not.toContain('arrange');
    // Not yet with the server: a reload must still find it here.
    const place = `room:${ROOM}:${ROOM_SYNC.game}`;
    h.env.drafts?.open(place, 'sente').save(arrangement);
    expect(h.env.drafts?.loadFor(place, 'sente')).toEqual(arrangement);

    // The connection comes back: after the hello and the room, the arrangement goes out.
    (h.env.timers as FakeTimers).fire(500);
    const second = h.sockets[1]!;
    second.open();
    expect(second.types()).toEqual(['hello']);
    second.receive({ t: 'sync', v: 1, room: ROOM_SYNC });
    expect(second.sent.at(-1)).toEqual({ t: 'arrange', setup: arrangement });
    expect(m.queued).toBe(false);
    expect(m.waiting).toBe(true);
    // The server holds it now; the kept draft goes, whichever page wrote it.
    expect(h.env.drafts?.loadFor(place, 'sente')).toBeNull();
    second.receive({ t: 'ready', v: 2, who: 'you', ready: true });
    expect(second.types().filter((t) => t === 'arrange')).toHaveLength(1);
    m.dispose();
  });

  it('offers the arrangement confirmed in an earlier game as the previous one, also in a new room', async () => {
    const h = harness();
    const first = newMatch(h, null);
    await flush();
    h.sockets[0]!.open();
    h.sockets[0]!.receive({ t: 'sync', v: 1, room: ROOM_SYNC });
    const p = first.phase;
    if (p.kind !== 'setup') throw new Error('not arranging');
    p.setup.mirror();
    const confirmed = { ...p.setup.arrangement };
    expect(first.confirmSetup()).toBe(true);
    first.dispose();

    // A later room in the same browser: a fresh automatic arrangement, then "previous arrangement".
    const second = newMatch(h, null);
    await flush();
    h.sockets[1]!.open();
    h.sockets[1]!.receive({ t: 'sync', v: 1, room: ROOM_SYNC });
    const q = second.phase;
    if (q.kind !== 'setup') throw new Error('not arranging');
    q.setup.rearrange(99);
    expect(q.setup.arrangement).not.toEqual(confirmed);
    expect(second.loadPrevious()).toBe(true);
    expect(q.setup.arrangement).toEqual(confirmed);
    second.dispose();
  });

  /** A host's match connected to a game sente is to move in, with `pieces` and `legal` moves. */
  async function sentesTurn(pieces: object, legal: [string, string][]) {
    const h = harness();
    const m = newMatch(h, null);
    await flush();
    const s = h.sockets[0]!;
    s.open();
    const view = { side: 'sente', to_move: 'sente', plies_without_battle: 0, status: { state: 'ongoing' }, pieces, removed: { own: [], enemy_count: 0 }, history: [] };
    s.receive({ t: 'sync', v: 5, room: { ...ROOM_SYNC, phase: 'playing', opponent: 'connected', view, legal } });
    return { h, m, s };
  }

  it('a page whose seat another tab took sends no move and says why: the seat went elsewhere, not the network', async () => {
    const { m, s } = await sentesTurn({ b3: { side: 'sente', kind: 'tank' }, b4: { side: 'gote' } }, [['b3', 'b4'], ['b3', 'c3']]);
    m.press('b3');
    s.receive({ t: 'error', code: 'replaced' });
    expect(m.press('c3')).toEqual({ type: 'unsent', why: 'replaced' });
    expect(m.canSend).toBe(false);
    expect(s.sent.filter((f) => f['t'] === 'move')).toEqual([]);
    m.dispose();
  });

  it('a move whose connection was lost before its answer: the page waits to learn whether it arrived, and says when it did not', async () => {
    const pieces = { b3: { side: 'sente', kind: 'tank' }, b4: { side: 'gote' } };
    const { h, m, s } = await sentesTurn(pieces, [['b3', 'b4'], ['b3', 'c3']]);
    m.press('b3');
    expect(m.press('c3')).toEqual({ type: 'sent' });
    // The phone loses its signal: the socket is given up at once, not after 45 s of silence.
    h.goOffline();
    expect(s.closed).toBe(true);
    expect(m.connection?.kind).toBe('waiting');
    expect(m.phase.kind).toBe('moved');
    (h.env.timers as FakeTimers).fire(backoffMs(1));
    const back = h.sockets[1]!;
    back.open();
    // Back, but the missed events are still to come: not yet the player's turn again.
    back.receive({ t: 'welcome', v: 6, seat: 'host' });
    expect(m.phase.kind).toBe('moved');
    expect(m.undeliveredMove).toBeNull();
    back.receive({ t: 'moved', v: 6, ply: { side: 'sente', from: 'b3', to: 'c3', battle: null }, to_move: 'gote', status: { state: 'ongoing' } });
    expect(m.undeliveredMove).toBeNull();
    expect(m.phase.kind).toBe('moved');
    m.dispose();

    // The same, but the server never had it: the turn comes back, with the reason.
    const again = await sentesTurn(pieces, [['b3', 'b4'], ['b3', 'c3']]);
    again.m.press('b3');
    again.m.press('c3');
    again.s.drop(1006);
    (again.h.env.timers as FakeTimers).fire(backoffMs(1));
    again.h.sockets[1]!.open();
    again.h.sockets[1]!.receive({ t: 'welcome', v: 5, seat: 'host' });
    expect(again.m.undeliveredMove).toMatchObject({ from: 'b3', to: 'c3' });
    expect(again.m.phase.kind).toBe('turn');
    // Played again, the note goes.
    again.m.press('b3');
    expect(again.m.press('c3')).toEqual({ type: 'sent' });
    expect(again.m.undeliveredMove).toBeNull();
    again.m.dispose();
  });

  it('a move in flight is not ended by a refusal that stood before it, and is let go by a page whose seat went elsewhere', async () => {
    const pieces = { b3: { side: 'sente', kind: 'tank' }, b4: { side: 'gote' } };
    const { m, s } = await sentesTurn(pieces, [['b3', 'b4'], ['b3', 'c3']]);
    s.receive({ t: 'error', code: 'bad_request' });
    m.press('b3');
    expect(m.press('c3')).toEqual({ type: 'sent' });
    s.receive({ t: 'presence', opponent: 'connected' });
    expect(m.phase.kind).toBe('moved');
    s.receive({ t: 'error', code: 'replaced' });
    expect(m.phase.kind).toBe('turn');
    expect(m.undeliveredMove).toBeNull();
    m.dispose();
  });

  it('an arrangement taken back and changed while the connection was down replaces the one the server got', async () => {
    const { h, m, s } = await arrangingRoom({ ...ROOM_SYNC, opponent: 'connected' });
    expect(m.confirmSetup()).toBe(true);
    const first = s.sent.at(-1);
    h.goOffline();
    expect(m.unarrange()).toBe(true);
    const p = m.phase;
    if (p.kind !== 'setup') throw new Error('not arranging');
    p.setup.mirror();
    expect(m.confirmSetup()).toBe(true);
    const second = { t: 'arrange', setup: { ...p.setup.arrangement } };
    expect(second).not.toEqual(first);
    (h.env.timers as FakeTimers).fire(backoffMs(1));
    const back = h.sockets[1]!;
    back.open();
    // The server had the first.
    back.receive({ t: 'welcome', v: 2, seat: 'host' });
    back.receive({ t: 'ready', v: 2, who: 'you', ready: true });
    expect(back.sent.filter((f) => f['t'] === 'arrange')).toEqual([second]);
    m.dispose();
  });

  it('resigning needs the connection: without it the button is off (the connection line says why)', async () => {
    const { m, s } = await sentesTurn({ b3: { side: 'sente', kind: 'tank' }, b4: { side: 'gote' } }, [['b3', 'b4']]);
    expect(m.canResign).toBe(true);
    s.drop(1006);
    expect(m.canResign).toBe(false);
    m.dispose();
  });

  it('plays from the legal list: select, destinations, move sent; the confirmation is the moved event', async () => {
    const { h, m, s } = await sentesTurn(
      { b3: { side: 'sente', kind: 'tank' }, b4: { side: 'gote' }, a3: { side: 'sente', kind: 'spy' } },
      [['b3', 'b4'], ['b3', 'c3'], ['a3', 'a4']],
    );
    expect(m.phase.kind).toBe('turn');
    expect(m.legalMoves()).toEqual([['b3', 'b4'], ['b3', 'c3'], ['a3', 'a4']]);
    expect(m.press('b3')).toEqual({ type: 'selected', square: 'b3', destinations: { moves: ['c3'], attacks: ['b4'] } });
    // The connection drops: the move cannot go out, says so, and keeps its piece chosen.
    s.close();
    s.onclose?.({ code: 1006 });
    expect(m.press('b4')).toEqual({ type: 'unsent', why: 'offline' });
    expect(m.canSend).toBe(false);
    expect(m.selected?.square).toBe('b3');
    expect(s.sent.filter((f) => f['t'] === 'move')).toEqual([]);
    (h.env.timers as FakeTimers).fire(backoffMs(1));
    h.sockets[1]!.open();
    h.sockets[1]!.receive({ t: 'welcome', v: 5, seat: 'host' });
    const back = h.sockets[1]!;
    expect(m.canSend).toBe(true);
    expect(m.press('b4')).toEqual({ type: 'sent' });
    expect(back.sent.at(-1)).toEqual({ t: 'move', move: { from: 'b3', to: 'b4' }, v: 5 });
    expect(m.phase.kind).toBe('moved');
    expect(m.press('a3')).toEqual({ type: 'ignored' });
    back.receive({ t: 'moved', v: 6, ply: { side: 'sente', from: 'b3', to: 'b4', battle: { square: 'b4', outcome: 'defender' } }, to_move: 'gote', status: { state: 'ongoing' } });
    expect(m.phase.kind).toBe('moved');
    expect(m.takeAnnouncements()).toEqual([[
      { type: 'moved', mine: true, from: 'b3', to: 'b4' },
      { type: 'battle', result: 'lost', kind: 'tank', square: 'b4' },
    ]]);
    expect(m.takeAnnouncements()).toEqual([]);
    expect(m.view('sente')?.removed.own).toEqual(['tank']);
    expect(m.view('gote')).toBeNull();
    m.dispose();
  });

  it('a visitor looks, joins and takes the guest seat', async () => {
    const h = harness();
    const m = newMatch(h, ROOM);
    expect(m.stage.kind).toBe('looking');
    await flush();
    expect(m.stage).toEqual({ kind: 'invited', look: 'open' });
    expect(h.sockets).toHaveLength(0);
    m.join();
    await flush();
    expect(m.stage.kind).toBe('seated');
    expect(h.requests).toEqual([`GET /api/rooms/${ROOM}`, `POST /api/rooms/${ROOM}/join`]);
    expect(h.sockets).toHaveLength(1);
    m.dispose();
  });

  it('tells a third visitor that the room is full', async () => {
    const h = harness();
    h.answers.set(`GET /api/rooms/${ROOM}`, { status: 200, body: { room: ROOM, state: 'full' } });
    const m = newMatch(h, ROOM);
    await flush();
    expect(m.stage).toEqual({ kind: 'invited', look: 'full' });
    m.join();
    expect(h.requests).toHaveLength(1);
    m.dispose();
    // A join that loses the race to another visitor says the same.
    const h2 = harness();
    h2.answers.set(`POST /api/rooms/${ROOM}/join`, { status: 409, body: { error: { code: 'room_full', message: '' } } });
    const m2 = newMatch(h2, ROOM);
    await flush();
    m2.join();
    await flush();
    expect(m2.stage).toEqual({ kind: 'invited', look: 'full' });
    m2.dispose();
  });

  it('comes back to its seat after a refresh: the token from storage, no join', async () => {
    const { h, m } = seated('guest');
    expect(m.stage.kind).toBe('seated');
    expect(h.requests).toEqual([]);
    h.sockets[0]!.open();
    expect(h.sockets[0]!.sent[0]).toEqual({ t: 'hello', token: TOKEN, since: 0 });
    m.dispose();
  });

  it('forgets a token the server no longer knows', async () => {
    const { storage, h, m } = seated('guest');
    h.sockets[0]!.open();
    h.sockets[0]!.receive({ t: 'error', code: 'no_room', message: '' });
    expect(new SeatStore(storage).load(ROOM)).toBeNull();
    expect(m.stage).toEqual({ kind: 'invited', look: 'missing' });
    expect(h.sockets[0]!.closed).toBe(true);
    expect(h.sockets).toHaveLength(1);
    m.dispose();
  });

  it('a room gone while the page slept takes the game off the screen: nothing left to play', async () => {
    const { h, m } = seated('host');
    const s = h.sockets[0]!;
    s.open();
    const view = {
      side: 'sente',
      to_move: 'sente',
      plies_without_battle: 0,
      status: { state: 'ongoing' },
      pieces: { b3: { side: 'sente', kind: 'tank' }, b4: { side: 'gote' } },
      removed: { own: [], enemy_count: 0 },
      history: [],
    };
    s.receive({ t: 'sync', v: 5, room: { ...ROOM_SYNC, phase: 'playing', opponent: 'connected', view, legal: [['b3', 'b4']] } });
    expect(m.phase.kind).toBe('turn');
    // The laptop sleeps past the room's life; on waking the server no longer knows the room.
    s.close();
    s.onclose?.({ code: 1006 });
    (h.env.timers as FakeTimers).fire(backoffMs(1));
    const again = h.sockets[1]!;
    again.open();
    again.receive({ t: 'error', code: 'no_room', message: '' });
    expect(m.stage).toEqual({ kind: 'invited', look: 'missing' });
    expect(m.state).toBeNull();
    expect(m.viewer).toBeNull();
    expect(m.legalMoves()).toEqual([]);
    expect(m.press('b3')).toEqual({ type: 'ignored' });
    m.dispose();
  });

  it('a token the server refuses: forgotten, and the room shown as a visitor sees it', async () => {
    const { storage, h, m } = seated('guest');
    h.sockets[0]!.open();
    h.sockets[0]!.receive({ t: 'error', code: 'bad_token', message: '' });
    expect(new SeatStore(storage).load(ROOM)).toBeNull();
    await flush();
    // Not "no such room": the room is there, with a seat to join.
    expect(h.requests).toEqual([`GET /api/rooms/${ROOM}`]);
    expect(m.stage).toEqual({ kind: 'invited', look: 'open' });
    m.dispose();
  });

  it('a room closed while away is shown closed', async () => {
    const { h, m } = seated('guest');
    h.sockets[0]!.open();
    h.sockets[0]!.receive({ t: 'error', code: 'room_closed', message: '' });
    expect(m.stage).toEqual({ kind: 'invited', look: 'closed' });
    m.dispose();
  });

  it('reports a failed creation and retries it', async () => {
    const h = harness();
    const ok = h.answers.get('POST /api/rooms')!;
    h.answers.delete('POST /api/rooms');
    const m = newMatch(h, null);
    await flush();
    expect(m.stage).toEqual({ kind: 'failed', code: 'network', retry: 'create' });
    h.answers.set('POST /api/rooms', { status: 429, body: { error: { code: 'rate_limited', message: '' } } });
    m.retry();
    await flush();
    expect(m.stage).toEqual({ kind: 'failed', code: 'rate_limited', retry: 'create' });
    h.answers.set('POST /api/rooms', ok);
    m.retry();
    await flush();
    expect(m.stage.kind).toBe('seated');
    m.dispose();
  });

  it('tries a step that failed for want of a network again once the browser is online', async () => {
    const h = harness();
    h.answers.delete(`GET /api/rooms/${ROOM}`);
    const m = newMatch(h, ROOM);
    await flush();
    expect(m.stage).toEqual({ kind: 'failed', code: 'network', retry: 'look' });
    h.answers.set(`GET /api/rooms/${ROOM}`, { status: 200, body: { room: ROOM, state: 'open' } });
    h.goOnline();
    await flush();
    expect(m.stage).toEqual({ kind: 'invited', look: 'open' });
    // Once it worked, coming online again asks nothing more.
    h.goOnline();
    await flush();
    expect(h.requests.filter((r) => r.startsWith('GET'))).toHaveLength(2);
    m.dispose();
  });

  it('after a refresh while waiting: shows the held arrangement, and re-arranging starts from it', async () => {
    const { h, m } = seated('host');
    const s = h.sockets[0]!;
    s.open();
    const held = testEngine().autoArrangement('sente', 99);
    s.receive({ t: 'sync', v: 4, room: { ...ROOM_SYNC, opponent: 'connected', you_ready: true, setup: { side: 'sente', pieces: held } } });
    expect(m.waiting).toBe(true);
    expect(m.phase.kind).toBe('moved');
    expect(m.arrangement('sente')).toEqual(held);
    expect(m.arrangement('gote')).toBeUndefined();
    expect(m.unarrange()).toBe(true);
    s.receive({ t: 'ready', v: 5, who: 'you', ready: false });
    const p = m.phase;
    if (p.kind !== 'setup') throw new Error('not arranging');
    expect(p.setup.arrangement).toEqual(held);
    m.dispose();
  });

  it('after a refresh while arranging: the arrangement being made comes back, in this game only', async () => {
    const first = seated('host');
    const made = arrangingIn(first.h, first.m, ROOM_SYNC, (setup) => {
      setup.press('a3');
      setup.press('f3');
      setup.mirror();
    });
    // The page is reloaded (or the phone discarded the tab): a new match on the same storage.
    const again = reloaded(first.storage, ROOM_SYNC);
    expect(again.setup.arrangement).toEqual(made);
    expect(again.setup.canUndo).toBe(false);
    // The next game of the room (a rematch, the same side again) starts from a new arrangement.
    const next = reloaded(first.storage, { ...ROOM_SYNC, game: 3 });
    expect(next.setup.arrangement).not.toEqual(made);
    for (const m of [first.m, again.m, next.m]) m.dispose();
  });

  it('after a refresh, the arrangement the server holds wins over the one being made', async () => {
    const first = seated('host');
    arrangingIn(first.h, first.m, ROOM_SYNC, (setup) => setup.mirror());
    const held = testEngine().autoArrangement('sente', 99);
    const h2 = harness(first.storage);
    const m2 = newMatch(h2, ROOM);
    h2.sockets[0]!.open();
    h2.sockets[0]!.receive({ t: 'sync', v: 4, room: { ...ROOM_SYNC, opponent: 'connected', you_ready: true, setup: { side: 'sente', pieces: held } } });
    expect(m2.phase.kind).toBe('moved');
    expect(m2.arrangement('sente')).toEqual(held);
    expect(m2.unarrange()).toBe(true);
    h2.sockets[0]!.receive({ t: 'ready', v: 5, who: 'you', ready: false });
    const p2 = m2.phase;
    if (p2.kind !== 'setup') throw new Error('not arranging');
    expect(p2.setup.arrangement).toEqual(held);
    // Taken back from the server, it is kept here again: a reload then finds it.
    const again = reloaded(first.storage, ROOM_SYNC);
    expect(again.setup.arrangement).toEqual(held);
    for (const m of [first.m, m2, again.m]) m.dispose();
  });

  it('takes the CPU offer only while it stands', async () => {
    const h = harness();
    const m = newMatch(h, null);
    await flush();
    const s = h.sockets[0]!;
    s.open();
    s.receive({ t: 'sync', v: 1, room: { ...ROOM_SYNC, opponent: 'away' } });
    s.receive({ t: 'cpu_offer', away_s: 120 });
    expect(m.state?.cpuOffer).toBe(120);
    expect(new SeatStore(h.storage).lastRoom()).toBe(ROOM);
    expect(m.abandon()).toBe(true);
    // The room closes: the start screen no longer offers the way back to it.
    expect(new SeatStore(h.storage).lastRoom()).toBeNull();
    expect(s.sent.at(-1)).toEqual({ t: 'abandon' });
    s.receive({ t: 'closed', v: 2, reason: 'abandoned' });
    expect(m.state?.phase).toBe('closed');
    expect(m.connection?.kind).toBe('stopped');
    expect(m.abandon()).toBe(false);
    m.dispose();
  });

  it('asks for a rematch once the game is over, and only once', async () => {
    const h = harness();
    const m = newMatch(h, null);
    await flush();
    const s = h.sockets[0]!;
    s.open();
    const view = {
      side: 'sente',
      to_move: 'gote',
      plies_without_battle: 0,
      status: { state: 'won', winner: 'sente', reason: 'resignation' },
      pieces: { b3: { side: 'sente', kind: 'tank' }, b4: { side: 'gote', kind: 'spy' } },
      removed: { own: [], enemy_count: 0, enemy: [] },
      history: [],
    };
    s.receive({ t: 'sync', v: 9, room: { ...ROOM_SYNC, phase: 'finished', opponent: 'connected', view } });
    expect(m.phase).toEqual({ kind: 'over', side: 'sente', status: view.status });
    m.restart();
    expect(s.types().filter((t) => t === 'rematch')).toHaveLength(1);
    s.receive({ t: 'rematch', v: 10, who: 'you' });
    m.restart();
    expect(s.types().filter((t) => t === 'rematch')).toHaveLength(1);
    s.receive({ t: 'rematch', v: 11, who: 'opponent' });
    s.receive({ t: 'arranging', v: 12, game: 2, side: 'gote' });
    const p = m.phase;
    expect(p.kind).toBe('setup');
    expect(p.side).toBe('gote');
    m.dispose();
  });
});

describe('SeatStore.lastRoom', () => {
  it('names the room of the last seat taken while the seat is kept and the room may still stand', () => {
    const storage = new MemoryStorage();
    let now = 1_000_000;
    const seats = new SeatStore(storage, () => now);
    expect(seats.lastRoom()).toBeNull();
    seats.save({ room: ROOM, seat: 'host', token: TOKEN });
    expect(seats.lastRoom()).toBe(ROOM);
    const other = 'B'.repeat(22);
    seats.save({ room: other, seat: 'guest', token: TOKEN });
    expect(seats.lastRoom()).toBe(other);
    // Forgetting another room leaves it; forgetting this one takes it away.
    seats.forget(ROOM);
    expect(seats.lastRoom()).toBe(other);
    now += ROOM_LIFETIME_MS - 1;
    expect(seats.lastRoom()).toBe(other);
    now += 1;
    expect(seats.lastRoom()).toBeNull();
    now -= 10;
    seats.forget(other);
    expect(seats.lastRoom()).toBeNull();
    // What does not read as a kept room is no room.
    storage.setItem('gunjin.lastRoom', '{"room":7,"at":"x"}');
    expect(seats.lastRoom()).toBeNull();
  });
});

describe('SeatStore.save', () => {
  it('drops the seats of rooms that cannot stand any more, and dates the undated', () => {
    const storage = new MemoryStorage();
    let now = 5_000_000;
    const seats = new SeatStore(storage, () => now);
    const [a, b, c] = ['A', 'B', 'C'].map((x) => x.repeat(22));
    seats.save({ room: a!, seat: 'host', token: 'ta' });
    // Kept by an older page, without the time it was taken.
    storage.setItem(`gunjin.room.${c}`, JSON.stringify({ seat: 'guest', token: 'tc' }));
    now += ROOM_LIFETIME_MS - 1;
    seats.save({ room: b!, seat: 'guest', token: 'tb' });
    // Not a day old yet: both kept; the undated one is dated now.
    expect(seats.load(a!)?.token).toBe('ta');
    expect(seats.load(c!)?.token).toBe('tc');
    now += 1;
    seats.save({ room: b!, seat: 'guest', token: 'tb' });
    // A's room has lasted as long as a room can: its secret token goes.
    expect(seats.load(a!)).toBeNull();
    expect(storage.getItem(`gunjin.room.${a}`)).toBeNull();
    expect(seats.load(b!)?.token).toBe('tb');
    expect(seats.load(c!)?.token).toBe('tc');
    now += ROOM_LIFETIME_MS;
    seats.save({ room: a!, seat: 'host', token: 'ta2' });
    expect(seats.load(c!)).toBeNull();
    expect(seats.load(a!)?.token).toBe('ta2');
  });
});

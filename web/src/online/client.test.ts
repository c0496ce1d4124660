import { describe, expect, it } from 'vitest';
import type { View } from '../engine';
import { ANSWER_MS, backoffMs, CONNECT_MS, PING_MS, RoomClient, SILENCE_MS } from './client';
import { FakeSocket, FakeTimers, ROOM_SYNC } from './fakes';
import { parseServerMessage } from './protocol';

/** A client on fake sockets and timers; `online` is the browser's word on its network. */
function setup(online?: () => boolean): { client: RoomClient; sockets: FakeSocket[]; timers: FakeTimers } {
  const sockets: FakeSocket[] = [];
  const timers = new FakeTimers();
  const client = new RoomClient('tok', {
    connect: () => {
      const s = new FakeSocket();
      sockets.push(s);
      return s;
    },
    timers,
    ...(online === undefined ? {} : { online }),
  });
  return { client, sockets, timers };
}

/** Sente's view with a few pieces: own kinds known, the enemy's not. */
const VIEW: View = {
  side: 'sente',
  to_move: 'sente',
  plies_without_battle: 4,
  status: { state: 'ongoing' },
  pieces: {
    b3: { side: 'sente', kind: 'tank' },
    c3: { side: 'sente', kind: 'spy' },
    a3: { side: 'sente', kind: 'major' },
    b4: { side: 'gote' },
    c4: { side: 'gote' },
    a4: { side: 'gote' },
  },
  removed: { own: [], enemy_count: 0 },
  history: [],
};

function playing(v = 10): { client: RoomClient; socket: FakeSocket; sockets: FakeSocket[]; timers: FakeTimers } {
  const { client, sockets, timers } = setup();
  const socket = sockets[0]!;
  socket.open();
  socket.receive({
    t: 'sync',
    v,
    room: { ...ROOM_SYNC, phase: 'playing', opponent: 'connected', view: VIEW, legal: [['b3', 'b4'], ['c3', 'c4']] },
  });
  return { client, socket, sockets, timers };
}

describe('RoomClient', () => {
  it('says hello with the token, then builds the room from sync', () => {
    const { client, sockets } = setup();
    expect(client.connection.kind).toBe('connecting');
    const s = sockets[0]!;
    s.open();
    expect(s.sent).toEqual([{ t: 'hello', token: 'tok', since: 0 }]);
    s.receive({ t: 'sync', v: 3, room: ROOM_SYNC });
    expect(client.connection.kind).toBe('open');
    expect(client.v).toBe(3);
    expect(client.state?.phase).toBe('arranging');
    expect(client.state?.side).toBe('sente');
    expect(client.state?.opponent).toBe('none');
  });

  it('applies events in order, ignores repeats and asks for a sync on a gap', () => {
    const { client, sockets } = setup();
    const s = sockets[0]!;
    s.open();
    s.receive({ t: 'sync', v: 1, room: ROOM_SYNC });
    s.receive({ t: 'joined', v: 2 });
    // Seated, but its page is not connected yet: `presence` says when it is. Arriving, not gone.
    expect(client.state?.opponent).toBe('away');
    expect(client.state?.arriving).toBe(true);
    s.receive({ t: 'presence', opponent: 'connected' });
    expect(client.state?.opponent).toBe('connected');
    expect(client.state?.arriving).toBe(false);
    s.receive({ t: 'ready', v: 3, who: 'opponent', ready: true });
    expect(client.state?.opponentReady).toBe(true);
    s.receive({ t: 'ready', v: 3, who: 'opponent', ready: false });
    expect(client.state?.opponentReady).toBe(true);
    expect(client.v).toBe(3);
    s.receive({ t: 'ready', v: 5, who: 'opponent', ready: false });
    expect(client.v).toBe(3);
    expect(client.state?.opponentReady).toBe(true);
    expect(s.types().at(-1)).toBe('sync');
  });

  it('holds what it sent as the arrangement once the server confirms it, and drops it on withdrawal', () => {
    const { client, sockets } = setup();
    const s = sockets[0]!;
    s.open();
    s.receive({ t: 'sync', v: 1, room: ROOM_SYNC });
    const arr = { a1: 'general' };
    expect(client.arrange(arr)).toBe(true);
    expect(s.sent.at(-1)).toEqual({ t: 'arrange', setup: arr });
    s.receive({ t: 'ready', v: 2, who: 'you', ready: true });
    expect(client.state?.youReady).toBe(true);
    expect(client.state?.held).toEqual(arr);
    client.unarrange();
    expect(s.sent.at(-1)).toEqual({ t: 'unarrange' });
    s.receive({ t: 'ready', v: 3, who: 'you', ready: false });
    expect(client.state?.held).toBeNull();
  });

  it('sends nothing while the socket is not open', () => {
    const { client, sockets } = setup();
    expect(client.resign()).toBe(false);
    sockets[0]!.open();
    expect(client.resign()).toBe(false); // hello sent, no answer yet
    expect(sockets[0]!.types()).toEqual(['hello']);
  });

  it('without a network it waits the longest and says it is offline, rather than trying every half second', () => {
    let online = true;
    const { client, sockets } = setup(() => online);
    sockets[0]!.open();
    sockets[0]!.receive({ t: 'sync', v: 1, room: ROOM_SYNC });
    online = false;
    client.connectionLost();
    expect(client.connection).toEqual({ kind: 'waiting', attempt: 1, retryMs: backoffMs(Infinity), offline: true });
    // The network back: at once.
    online = true;
    client.reconnectNow();
    expect(client.connection.kind).toBe('connecting');
    expect(sockets).toHaveLength(2);
    client.dispose();
  });

  it('a hello turned away for now (rate_limited) is tried again later, and the refusal goes with the welcome', () => {
    const { client, sockets, timers } = setup();
    sockets[0]!.open();
    sockets[0]!.receive({ t: 'error', code: 'rate_limited' });
    expect(client.connection.kind).toBe('waiting');
    expect(sockets[0]!.closed).toBe(true);
    timers.fire(backoffMs(1));
    sockets[1]!.open();
    expect(sockets[1]!.sent[0]).toMatchObject({ t: 'hello', token: 'tok' });
    sockets[1]!.receive({ t: 'sync', v: 1, room: ROOM_SYNC });
    expect(client.connection.kind).toBe('open');
    expect(client.lastError).toBeNull();
    // A seat that is gone is not asked for again.
    const gone = setup();
    gone.sockets[0]!.open();
    gone.sockets[0]!.receive({ t: 'error', code: 'bad_token' });
    expect(gone.client.connection.kind).toBe('stopped');
    client.dispose();
    gone.client.dispose();
  });

  it('reconnects with backoff after a drop and replays from its version', () => {
    const { client, sockets, timers } = playing(10);
    sockets[0]!.drop();
    expect(client.connection).toEqual({ kind: 'waiting', attempt: 1, retryMs: 500 });
    timers.fire(500);
    expect(sockets).toHaveLength(2);
    // The second attempt fails before opening: the delay doubles.
    sockets[1]!.drop();
    expect(client.connection).toEqual({ kind: 'waiting', attempt: 2, retryMs: 1000 });
    timers.fire(1000);
    const s = sockets[2]!;
    s.open();
    expect(s.sent[0]).toEqual({ t: 'hello', token: 'tok', since: 10 });
    s.receive({ t: 'welcome', v: 11, seat: 'host' });
    expect(client.connection.kind).toBe('open');
    s.receive({ t: 'moved', v: 11, ply: { side: 'sente', from: 'b3', to: 'b4', battle: null }, to_move: 'gote', status: { state: 'ongoing' } });
    expect(client.v).toBe(11);
    // After a success the backoff starts again from the beginning.
    s.drop();
    expect(client.connection).toEqual({ kind: 'waiting', attempt: 1, retryMs: 500 });
  });

  it('says the server is restarting after a close as going away, until a connection opens again', () => {
    const { client, sockets, timers } = playing(10);
    sockets[0]!.drop(1001);
    expect(client.connection).toEqual({ kind: 'waiting', attempt: 1, retryMs: 500, restarting: true });
    // The new server is not up yet: still restarting, with the usual backoff.
    timers.fire(500);
    sockets[1]!.drop(1006);
    expect(client.connection).toEqual({ kind: 'waiting', attempt: 2, retryMs: 1000, restarting: true });
    timers.fire(1000);
    sockets[2]!.open();
    sockets[2]!.receive({ t: 'welcome', v: 10, seat: 'host' });
    expect(client.connection.kind).toBe('open');
    // A later drop is an ordinary one.
    sockets[2]!.drop(1006);
    expect(client.connection).toEqual({ kind: 'waiting', attempt: 1, retryMs: 500 });
    expect('restarting' in client.connection).toBe(false);
  });

  it('lets another tab keep the seat it took, and takes it back only when asked', () => {
    const { client, sockets, timers } = playing(10);
    sockets[0]!.receive({ t: 'error', code: 'replaced', message: 'this seat was taken by a newer connection' });
    sockets[0]!.drop();
    expect(client.connection).toEqual({ kind: 'replaced' });
    // No reconnection of its own: the two tabs would take the seat from each other for ever.
    expect(timers.delays()).toEqual([]);
    client.reconnectNow();
    expect(sockets).toHaveLength(1);
    expect(client.resign()).toBe(false);
    client.takeSeatBack();
    expect(sockets).toHaveLength(2);
    sockets[1]!.open();
    expect(sockets[1]!.sent[0]).toEqual({ t: 'hello', token: 'tok', since: 10 });
    sockets[1]!.receive({ t: 'welcome', v: 10, seat: 'host' });
    expect(client.connection.kind).toBe('open');
  });

  it('backs off from 0.5 s up to 10 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(backoffMs)).toEqual([500, 1000, 2000, 4000, 8000, 10000, 10000]);
  });

  it('treats a long silence as a dead connection, and pings to keep it alive', () => {
    // An idle page (waiting for the friend's move) finds out within half a minute, after two
    // pings went unanswered.
    expect(SILENCE_MS).toBeLessThanOrEqual(30_000);
    expect(2 * PING_MS).toBeLessThan(SILENCE_MS);
    const { client, sockets, timers } = playing();
    timers.fire(PING_MS);
    expect(sockets[0]!.types().at(-1)).toBe('ping');
    timers.fire(SILENCE_MS);
    expect(sockets[0]!.closed).toBe(true);
    expect(client.connection.kind).toBe('waiting');
  });

  it('finds out within ANSWER_MS that a request went into a dead connection', () => {
    const { client, socket, timers } = playing();
    expect(client.move('b3', 'b4')).toBe(true);
    expect(socket.types().slice(-2)).toEqual(['ping', 'move']);
    expect(timers.delays()).toContain(ANSWER_MS);
    // No answer, not even the pong: the socket is given up long before the silence limit.
    timers.fire(ANSWER_MS);
    expect(socket.closed).toBe(true);
    expect(client.connection.kind).toBe('waiting');
  });

  it('keeps a connection that answers a request, and asks with one ping at a time', () => {
    const { client, socket, timers } = playing();
    client.move('b3', 'b4');
    client.resign();
    expect(socket.types().slice(-3)).toEqual(['ping', 'move', 'resign']);
    socket.receive({ t: 'pong' });
    expect(timers.delays()).not.toContain(ANSWER_MS);
    timers.fire(ANSWER_MS);
    expect(client.connection.kind).toBe('open');
    expect(socket.closed).toBe(false);
  });

  it('gives up on a socket that does not open in time, and tries again', () => {
    const { client, sockets, timers } = setup();
    expect(client.connection.kind).toBe('connecting');
    timers.fire(CONNECT_MS);
    expect(sockets[0]!.closed).toBe(true);
    expect(client.connection.kind).toBe('waiting');
    timers.fire(backoffMs(1));
    expect(sockets).toHaveLength(2);
    // Once open, the longer silence limit applies instead.
    sockets[1]!.open();
    sockets[1]!.receive({ t: 'sync', v: 1, room: ROOM_SYNC });
    timers.fire(CONNECT_MS);
    expect(client.connection.kind).toBe('open');
    expect(sockets[1]!.closed).toBe(false);
  });

  it('moves pieces as the referee says: no battle, attacker wins, defender wins, both removed', () => {
    const { client, socket } = playing(10);
    socket.receive({ t: 'moved', v: 11, ply: { side: 'sente', from: 'b3', to: 'b4', battle: { square: 'b4', outcome: 'attacker' } }, to_move: 'gote', status: { state: 'ongoing' } });
    let view = client.state!.view!;
    expect(view.pieces['b4']).toEqual({ side: 'sente', kind: 'tank' });
    expect(view.pieces['b3']).toBeUndefined();
    expect(view.removed).toEqual({ own: [], enemy_count: 1 });
    expect(view.plies_without_battle).toBe(0);
    expect(client.state!.reports).toEqual([
      { type: 'moved', mine: true, from: 'b3', to: 'b4' },
      { type: 'battle', result: 'won', kind: 'tank', square: 'b4' },
    ]);
    expect(client.state!.legal).toEqual([]);
    socket.receive({ t: 'moved', v: 12, ply: { side: 'gote', from: 'c4', to: 'c3', battle: { square: 'c3', outcome: 'defender' } }, to_move: 'sente', status: { state: 'ongoing' }, legal: [['a3', 'a4']] });
    view = client.state!.view!;
    expect(view.pieces['c4']).toBeUndefined();
    expect(view.pieces['c3']).toEqual({ side: 'sente', kind: 'spy' });
    expect(view.removed.enemy_count).toBe(2);
    expect(client.state!.reports.at(-1)).toEqual({ type: 'battle', result: 'won', kind: 'spy', square: 'c3' });
    expect(client.state!.legal).toEqual([['a3', 'a4']]);
    socket.receive({ t: 'moved', v: 13, ply: { side: 'sente', from: 'a3', to: 'a4', battle: { square: 'a4', outcome: 'both' } }, to_move: 'gote', status: { state: 'ongoing' } });
    view = client.state!.view!;
    expect(view.pieces['a3']).toBeUndefined();
    expect(view.pieces['a4']).toBeUndefined();
    expect(view.removed).toEqual({ own: ['major'], enemy_count: 3 });
    expect(view.history).toHaveLength(3);
    socket.receive({ t: 'moved', v: 14, ply: { side: 'gote', from: 'x', to: 'c2', battle: null }, to_move: 'sente', status: { state: 'ongoing' } });
    expect(client.state!.view!.plies_without_battle).toBe(1);
  });

  it('asks for the whole room after a garbled event, rather than go on out of step', () => {
    const { client, socket } = playing(10);
    const before = client.state;
    // A `moved` without its ply: nothing applied, the version kept, a sync asked for.
    socket.receive({ t: 'moved', v: 11, to_move: 'gote', status: { state: 'ongoing' } });
    expect(client.v).toBe(10);
    expect(client.state).toBe(before);
    expect(socket.types().at(-1)).toBe('sync');
    // The next event does not apply over the gap either.
    socket.receive({ t: 'moved', v: 12, ply: { side: 'gote', from: 'c4', to: 'c3', battle: null }, to_move: 'sente', status: { state: 'ongoing' } });
    expect(client.v).toBe(10);
    // A sync whose room lacks what the page reads is no room at all.
    socket.receive({ t: 'sync', v: 12, room: { ...ROOM_SYNC, rematch: undefined } });
    expect(client.v).toBe(10);
    expect(client.state).toBe(before);
  });

  it('sends a move with its latest version, and resyncs after stale_version', () => {
    const { client, socket } = playing(10);
    expect(client.move('b3', 'b4')).toBe(true);
    expect(socket.sent.at(-1)).toEqual({ t: 'move', move: { from: 'b3', to: 'b4' }, v: 10 });
    socket.receive({ t: 'error', code: 'stale_version', message: 'x', details: { v: 12 } });
    expect(client.lastError).toEqual({ code: 'stale_version' });
    expect(socket.types().at(-1)).toBe('sync');
  });

  it('stops for good on a refused token and on a closed room', () => {
    const a = setup();
    a.sockets[0]!.open();
    a.sockets[0]!.receive({ t: 'error', code: 'bad_token', message: 'x' });
    expect(a.client.connection.kind).toBe('stopped');
    expect(a.timers.delays()).toEqual([]);
    const b = playing(10);
    b.socket.receive({ t: 'closed', v: 11, reason: 'expired' });
    expect(b.client.state?.phase).toBe('closed');
    expect(b.client.state?.closed).toBe('expired');
    expect(b.client.connection.kind).toBe('stopped');
    expect(b.timers.delays()).toEqual([]);
  });

  it('shows the CPU offer until the opponent comes back', () => {
    const { client, socket } = playing();
    socket.receive({ t: 'presence', opponent: 'away' });
    expect(client.state?.opponent).toBe('away');
    socket.receive({ t: 'cpu_offer', away_s: 90 });
    expect(client.state?.cpuOffer).toBe(90);
    socket.receive({ t: 'presence', opponent: 'connected' });
    expect(client.state?.cpuOffer).toBe(null);
  });

  it('takes the CPU offer and its delay from a sync, and ignores an offer without a delay', () => {
    const { client, socket } = playing();
    socket.receive({ t: 'sync', v: 12, room: { ...ROOM_SYNC, phase: 'playing', opponent: 'away', view: VIEW, cpu_offer: true, cpu_offer_after_s: 45 } });
    expect(client.state?.cpuOffer).toBe(45);
    socket.receive({ t: 'presence', opponent: 'connected' });
    socket.receive({ t: 'cpu_offer' });
    expect(client.state?.cpuOffer).toBe(null);
  });

  it('ends with the revealed view and records rematch requests; a new arranging clears the game', () => {
    const { client, socket } = playing(10);
    const revealed = { ...VIEW, status: { state: 'won', winner: 'gote', reason: 'resignation' } };
    const setups = { sente: { side: 'sente', pieces: { a1: 'general' } }, gote: { side: 'gote', pieces: { a8: 'spy' } } };
    expect(client.state?.setups).toBeNull();
    socket.receive({ t: 'ended', v: 11, status: revealed.status, view: revealed, setups });
    expect(client.state?.phase).toBe('finished');
    expect(client.state?.view?.status).toEqual(revealed.status);
    expect(client.state?.setups).toEqual({ sente: { a1: 'general' }, gote: { a8: 'spy' } });
    // Set-ups of another shape leave the review out; nothing breaks.
    for (const odd of [null, 'x', { sente: 1 }, { sente: { pieces: { a1: 3 } }, gote: setups.gote }]) {
      const other = playing(10);
      other.socket.receive({ t: 'ended', v: 11, status: revealed.status, view: revealed, setups: odd });
      expect(other.client.state?.phase).toBe('finished');
      expect(other.client.state?.setups).toBeNull();
    }
    socket.receive({ t: 'rematch', v: 12, who: 'opponent' });
    expect(client.state?.rematch).toEqual({ you: false, opponent: true });
    socket.receive({ t: 'arranging', v: 13, game: 2, side: 'gote' });
    expect(client.state?.phase).toBe('arranging');
    expect(client.state?.side).toBe('gote');
    expect(client.state?.view).toBeNull();
    expect(client.state?.setups).toBeNull();
    expect(client.state?.rematch).toEqual({ you: false, opponent: false });
  });

  it('stops reconnecting once disposed', () => {
    const { client, sockets, timers } = playing();
    client.dispose();
    expect(sockets[0]!.closed).toBe(true);
    expect(timers.delays()).toEqual([]);
  });
});

describe('parseServerMessage', () => {
  it('keeps known messages and turns anything else into unknown', () => {
    expect(parseServerMessage('{"t":"pong"}')).toEqual({ t: 'pong' });
    expect(parseServerMessage('{"t":"moved"}').t).toBe('unknown');
    expect(parseServerMessage('{"t":"teleport","v":1}').t).toBe('unknown');
    expect(parseServerMessage('not json').t).toBe('unknown');
    expect(parseServerMessage(new ArrayBuffer(2)).t).toBe('unknown');
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PanelKit } from '../app';
import { I18n } from '../i18n';
import { testEngine } from '../test-engine';
import { FakeSocket, flush, harness, newMatch, ROOM_SYNC } from './fakes';
import type { OnlineMatch } from './match';
import { announce, AWAY_GRACE_MS, failureText } from './screen';

describe('failureText', () => {
  it('tells an unreachable server from a busy one and from one that answered with an error', () => {
    const ja = new I18n(testEngine().kinds, undefined, ['ja']);
    expect(failureText(ja, 'network')).toBe(ja.t('onlineUnreachable'));
    expect(failureText(ja, 'network')).not.toMatch(/network/);
    expect(failureText(ja, 'rate_limited')).toBe(ja.t('onlineBusy'));
    // Any other code is the server's answer: named, so that it can be reported.
    expect(failureText(ja, 'internal')).toContain('internal');
    expect(failureText(ja, 'internal')).not.toBe(ja.t('onlineUnreachable'));
  });
});

describe('announce', () => {
  const view = {
    side: 'sente',
    to_move: 'gote',
    plies_without_battle: 0,
    status: { state: 'ongoing' },
    pieces: { b3: { side: 'sente', kind: 'tank' }, b6: { side: 'gote' } },
    removed: { own: [], enemy_count: 0 },
    history: [],
  };

  /** A host's match connected to a room as `room` describes it, with what is said to it. */
  async function connected(room: object, v: number): Promise<{ match: OnlineMatch; socket: FakeSocket; said: string[]; kit: PanelKit; en: I18n }> {
    const h = harness();
    const match = newMatch(h, null);
    await flush();
    const socket = h.sockets[0]!;
    socket.open();
    socket.receive({ t: 'sync', v, room });
    const said: string[] = [];
    const en = new I18n(testEngine().kinds, undefined, ['en']);
    const kit = { i18n: en, say: (text: string) => said.push(text), reportText: () => '' } as unknown as PanelKit;
    announce(match, kit);
    return { match, socket, said, kit, en };
  }

  function playing(): ReturnType<typeof connected> {
    return connected({ ...ROOM_SYNC, phase: 'playing', opponent: 'connected', view, legal: [] }, 5);
  }

  afterEach(() => {
    vi.useRealTimers();
  });

  it('tells what a sighted player sees come: the URL to send, the arrangement confirmed, the game begun', async () => {
    const { match, socket, said, kit, en } = await connected({ ...ROOM_SYNC }, 1);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(en.t('onlineShareTitle'));
    announce(match, kit);
    expect(said).toHaveLength(1);
    socket.receive({ t: 'sync', v: 2, room: { ...ROOM_SYNC, opponent: 'connected', you_ready: true, setup: { pieces: { a1: 'mine' } } } });
    announce(match, kit);
    expect(said.at(-1)).toContain(en.t('onlineWaitingTitle'));
    expect(said.at(-1)).not.toContain(en.t('onlineShareTitle'));
    socket.receive({ t: 'sync', v: 3, room: { ...ROOM_SYNC, phase: 'playing', opponent: 'connected', view: { ...view, to_move: 'sente' }, legal: [] } });
    announce(match, kit);
    expect(said.at(-1)).toContain(en.t('onlineYourTurn'));
    expect(said).toHaveLength(3);
    match.dispose();
  });

  it('says the friend is gone only once they stay away: a return within the grace is no news', async () => {
    const { match, socket, said, kit, en } = await playing();
    vi.useFakeTimers();
    // A server restart: the friend is away for a few seconds, then back. Nothing is said.
    socket.receive({ t: 'presence', opponent: 'away' });
    announce(match, kit);
    vi.advanceTimersByTime(AWAY_GRACE_MS / 2);
    socket.receive({ t: 'presence', opponent: 'connected' });
    announce(match, kit);
    vi.advanceTimersByTime(AWAY_GRACE_MS);
    expect(said).toEqual([]);
    // Gone for good: said once the grace is over, and their return is news then.
    socket.receive({ t: 'presence', opponent: 'away' });
    announce(match, kit);
    expect(said).toEqual([]);
    vi.advanceTimersByTime(AWAY_GRACE_MS);
    expect(said).toEqual([en.t('onlineOpponentAway')]);
    socket.receive({ t: 'presence', opponent: 'connected' });
    announce(match, kit);
    expect(said).toEqual([en.t('onlineOpponentAway'), en.t('onlineOpponentConnected')]);
    match.dispose();
  });

  it('a friend away on the player’s move is not said to hold the game up: the move can be played', async () => {
    const { match, socket, said, kit, en } = await connected({ ...ROOM_SYNC, phase: 'playing', opponent: 'connected', view: { ...view, to_move: 'sente' }, legal: [] }, 5);
    vi.useFakeTimers();
    socket.receive({ t: 'presence', opponent: 'away' });
    announce(match, kit);
    vi.advanceTimersByTime(AWAY_GRACE_MS);
    expect(said.at(-1)).toBe(en.t('onlineOpponentAwayYourMove'));
    expect(said.at(-1)).not.toBe(en.t('onlineOpponentAway'));
    match.dispose();
  });

  it('tells the player arranging that the friend has confirmed, once', async () => {
    const { match, socket, said, kit, en } = await connected({ ...ROOM_SYNC, opponent: 'connected' }, 1);
    said.length = 0;
    socket.receive({ t: 'ready', v: 2, who: 'opponent', ready: true });
    announce(match, kit);
    announce(match, kit);
    expect(said).toEqual([en.t('onlineFriendReady')]);
    // Taken back to be changed: said too, or the player would still think the friend ready.
    socket.receive({ t: 'ready', v: 3, who: 'opponent', ready: false });
    announce(match, kit);
    expect(said).toEqual([en.t('onlineFriendReady'), en.t('onlineFriendUnready')]);
    match.dispose();
  });

  it('confirming after the friend has confirmed says no wait for the friend: the game starts', async () => {
    const { match, socket, said, kit, en } = await connected({ ...ROOM_SYNC, opponent: 'connected', opponent_ready: true }, 1);
    said.length = 0;
    expect(match.confirmSetup()).toBe(true);
    socket.receive({ t: 'ready', v: 2, who: 'you', ready: true });
    announce(match, kit);
    expect(said.join(' ')).not.toContain(en.t('onlineWaitingTitle'));
    // With the friend still arranging, the wait is said.
    const alone = await connected({ ...ROOM_SYNC, opponent: 'connected' }, 1);
    alone.said.length = 0;
    expect(alone.match.confirmSetup()).toBe(true);
    alone.socket.receive({ t: 'ready', v: 2, who: 'you', ready: true });
    announce(alone.match, alone.kit);
    expect(alone.said).toEqual([alone.en.sentences([alone.en.t('onlineWaitingTitle'), alone.en.t('onlineWaitingHint')])]);
    match.dispose();
    alone.match.dispose();
  });

  it('after the game, a friend gone is only gone: nothing waits for them', async () => {
    const { match, socket, said, kit, en } = await playing();
    vi.useFakeTimers();
    socket.receive({ t: 'ended', v: 6, status: { state: 'won', winner: 'sente', reason: 'resignation' }, view, setups: {} });
    socket.receive({ t: 'presence', opponent: 'away' });
    announce(match, kit);
    vi.advanceTimersByTime(AWAY_GRACE_MS);
    expect(said.at(-1)).toBe(en.t('onlineOpponentGone'));
    expect(en.t('onlineOpponentGone')).not.toMatch(/wait/);
    match.dispose();
  });
});

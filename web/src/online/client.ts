/**
 * One seat's connection to a room: the WebSocket with `hello`, automatic reconnection with
 * backoff, gapless versions (replay after a reconnection, `sync` on any gap) and the room as this
 * seat knows it, built from `sync` and updated by events. Holds no rule: plies come from the
 * referee with their outcomes; the page only moves pieces the way the referee says.
 *
 * The socket and the timers are injected, so the state machine is tested with fakes.
 */
import type { Arrangement, Side, Square, View } from '../engine';
import { asArrangement, isRecord } from '../json';
import { ownPieces } from '../state/match';
import { reportLastPly, reportPly, type Report } from '../state/messages';
import { piecesAfter } from '../state/ply';
import type { Setups } from '../state/review';
import {
  isEvent,
  parseServerMessage,
  type ClientMessage,
  type CloseReason,
  type Legal,
  type Presence,
  type RoomEvent,
  type RoomPhase,
  type RoomSync,
  type Seat,
  type ServerMessage,
  type WireSetups,
} from './protocol';

/** The part of a WebSocket the client uses. */
export interface SocketLike {
  onopen: (() => void) | null;
  onmessage: ((ev: { readonly data: unknown }) => void) | null;
  /** `code` 1001 ("going away"): the server is stopping, to start again. */
  onclose: ((ev?: { readonly code?: number }) => void) | null;
  onerror: (() => void) | null;
  send(text: string): void;
  close(): void;
}

export interface Timers {
  set(fn: () => void, ms: number): number;
  clear(handle: number): void;
}

/** The room as this seat knows it. */
export interface RoomState {
  readonly seat: Seat;
  readonly phase: RoomPhase;
  readonly game: number;
  readonly side: Side;
  readonly opponent: Presence;
  /** The friend has just taken the seat and their page is not connected yet (`joined`, no `presence` since). */
  readonly arriving: boolean;
  readonly youReady: boolean;
  readonly opponentReady: boolean;
  /** The arrangement the server holds for this seat (arranging, ready). */
  readonly held: Arrangement | null;
  readonly view: View | null;
  /** Both sides' arrangements as the game started, once it is over (the server sends them then). */
  readonly setups: Setups | null;
  readonly legal: Legal;
  readonly rematch: { readonly you: boolean; readonly opponent: boolean };
  readonly closed: CloseReason | null;
  /** While the CPU offer stands: how long the opponent has been away, in seconds. */
  readonly cpuOffer: number | null;
  /** What this player was told about the latest ply (empty after a sync). */
  readonly reports: readonly Report[];
}

export type Connection =
  | { readonly kind: 'connecting'; readonly attempt: number }
  | { readonly kind: 'open' }
  /** `restarting`: the server said it was going away (a restart), and has not answered since. */
  /** `offline`: the browser says it has no network; tried again when it has (and now and then). */
  | { readonly kind: 'waiting'; readonly attempt: number; readonly retryMs: number; readonly restarting?: true; readonly offline?: true }
  /** No more reconnections: the room is closed, the token refused, or the client disposed. */
  | { readonly kind: 'stopped' }
  /** Another tab or device took this seat; it is taken back only when the player asks. */
  | { readonly kind: 'replaced' };

/**
 * The client will not connect again by itself: the room is done with it, or the player let the
 * seat go to another tab. Anything it holds to send is moot.
 */
export function givenUp(conn: Connection): boolean {
  return conn.kind === 'stopped' || conn.kind === 'replaced';
}

/** Reconnection delays: 0.5 s doubling up to 10 s. */
export function backoffMs(attempt: number): number {
  return Math.min(10_000, 500 * 2 ** Math.max(0, attempt - 1));
}

/** The close code of a server that is stopping (to start again): see docs/protocol.md §3. */
const GOING_AWAY = 1001;

/**
 * How often a ping goes out, and how long the page waits for any frame before reconnecting: two
 * pings unanswered. A player waiting for the friend's move on a connection that died without
 * closing would otherwise wait that long for nothing.
 */
export const PING_MS = 12_000;
export const SILENCE_MS = 30_000;
/**
 * How long the page waits for any frame after a request of the player's (a move, an arrangement):
 * a connection that died without closing would otherwise hold the move for the whole silence.
 */
export const ANSWER_MS = 10_000;
/** How long opening a socket may take: a handshake lost on a changing network never ends. */
export const CONNECT_MS = 15_000;

/** Errors that end the seat for good (the token holds no seat, the room is gone). */
const FATAL = new Set(['bad_token', 'no_room', 'room_closed']);

/** Both set-ups from the server, or null when absent or not shaped as set-ups (the review is then left out). */
function setupsOf(w: WireSetups | undefined): Setups | null {
  const pieces = (x: unknown): Arrangement | null => (isRecord(x) ? asArrangement(x['pieces']) : null);
  // Typed as the protocol says, but it comes from the network: checked all the same.
  const both: unknown = w;
  if (!isRecord(both)) return null;
  const sente = pieces(both['sente']);
  const gote = pieces(both['gote']);
  return sente === null || gote === null ? null : { sente, gote };
}

/** The view after a ply whose outcome the referee told: pieces moved or removed as it says. */
export function applyPly(view: View, ply: RoomEvent & { t: 'moved' }): View {
  const removedOwn = [...view.removed.own];
  let enemyCount = view.removed.enemy_count;
  const pieces = piecesAfter(view.pieces, ply.ply, (p) => {
    if (p.side === view.side && p.kind !== undefined) removedOwn.push(p.kind);
    else if (p.side !== view.side) enemyCount += 1;
  });
  const battle = ply.ply.battle;
  return {
    ...view,
    to_move: ply.to_move,
    status: ply.status,
    plies_without_battle: battle === null ? view.plies_without_battle + 1 : 0,
    pieces,
    removed: { ...view.removed, own: removedOwn, enemy_count: enemyCount },
    history: [...view.history, ply.ply],
  };
}

function fromSync(room: RoomSync): RoomState {
  return {
    seat: room.seat,
    phase: room.phase,
    game: room.game,
    side: room.side,
    opponent: room.opponent,
    arriving: false,
    youReady: room.you_ready,
    opponentReady: room.opponent_ready,
    held: room.setup?.pieces ?? null,
    view: room.view ?? null,
    setups: setupsOf(room.setups),
    legal: room.legal ?? [],
    rematch: room.rematch,
    closed: room.closed ?? null,
    cpuOffer: room.cpu_offer ? room.cpu_offer_after_s : null,
    reports: room.view === undefined ? [] : reportLastPly(room.view),
  };
}

/** Applies one event in order (the version has been checked). */
export function applyEvent(s: RoomState, e: RoomEvent, sent: Arrangement | null): RoomState {
  switch (e.t) {
    case 'arranging':
      return {
        ...s,
        phase: 'arranging',
        game: e.game,
        side: e.side,
        youReady: false,
        opponentReady: false,
        held: null,
        view: null,
        setups: null,
        legal: [],
        rematch: { you: false, opponent: false },
        reports: [],
      };
    case 'joined':
      // Seated, not yet connected: `presence` says when the friend's page is here.
      return s.opponent === 'none' ? { ...s, opponent: 'away', arriving: true } : s;
    case 'ready':
      if (e.who === 'opponent') return { ...s, opponentReady: e.ready };
      return { ...s, youReady: e.ready, held: e.ready ? sent ?? s.held : null };
    case 'started':
      return {
        ...s,
        phase: 'playing',
        game: e.game,
        side: e.side,
        youReady: false,
        opponentReady: false,
        held: null,
        view: e.view,
        setups: null,
        legal: e.legal ?? [],
        reports: [],
      };
    case 'moved': {
      if (s.view === null) return s;
      const reports = reportPly(s.side, e.ply, ownPieces(s.view));
      return { ...s, view: applyPly(s.view, e), legal: e.legal ?? [], reports };
    }
    case 'ended':
      return { ...s, phase: 'finished', view: e.view, setups: setupsOf(e.setups), legal: [], cpuOffer: null };
    case 'rematch':
      return { ...s, rematch: { ...s.rematch, [e.who]: true } };
    case 'closed':
      return { ...s, phase: 'closed', closed: e.reason, legal: [], cpuOffer: null };
  }
}

export interface ClientDeps {
  /** Opens the room's WebSocket. */
  readonly connect: () => SocketLike;
  readonly timers: Timers;
  /** Whether the browser says it has a network (`navigator.onLine`). */
  readonly online?: () => boolean;
}

export class RoomClient {
  private socket: SocketLike | null = null;
  private conn: Connection = { kind: 'connecting', attempt: 1 };
  private attempt = 1;
  /** The server closed the socket as going away (1001), and no connection has opened since. */
  private restarting = false;
  private room: RoomState | null = null;
  private version = 0;
  /** The version the server said this connection brings the page up to (`welcome`, `sync`). */
  private awaited = 0;
  private error: { readonly code: string } | null = null;
  private sentArrangement: Arrangement | null = null;
  private retryTimer: number | null = null;
  private pingTimer: number | null = null;
  private silenceTimer: number | null = null;
  /** A request went out and the silence limit is the shorter `ANSWER_MS` until a frame comes. */
  private probing = false;
  private readonly listeners = new Set<() => void>();
  private disposed = false;

  constructor(
    private readonly token: string,
    private readonly deps: ClientDeps,
  ) {
    this.open();
  }

  get state(): RoomState | null {
    return this.room;
  }

  get connection(): Connection {
    return this.conn;
  }

  /** The latest version applied. */
  get v(): number {
    return this.version;
  }

  /**
   * Connected, with every event missed while away applied: what the page shows is what the
   * server holds (after a `welcome`, the missed events follow it).
   */
  get caughtUp(): boolean {
    return this.conn.kind === 'open' && this.version >= this.awaited;
  }

  /** The latest refused request, until the next change of the room. */
  get lastError(): { readonly code: string } | null {
    return this.error;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // ---- requests ------------------------------------------------------------------------------

  /** "Confirm and wait": the server holds the arrangement until the game can start. */
  arrange(arrangement: Arrangement): boolean {
    this.sentArrangement = arrangement;
    return this.send({ t: 'arrange', setup: arrangement });
  }

  /** "Re-arrange": withdraws the held arrangement. */
  unarrange(): boolean {
    return this.send({ t: 'unarrange' });
  }

  move(from: Square, to: Square): boolean {
    return this.send({ t: 'move', move: { from, to }, v: this.version });
  }

  resign(): boolean {
    return this.send({ t: 'resign' });
  }

  rematch(): boolean {
    return this.send({ t: 'rematch' });
  }

  abandon(): boolean {
    return this.send({ t: 'abandon' });
  }

  /** Takes the seat back from the tab or device that took it. */
  takeSeatBack(): void {
    if (this.conn.kind !== 'replaced' || this.disposed) return;
    this.attempt = 1;
    this.open();
  }

  /**
   * The browser says the network is gone: the socket is dead even if it has not closed (a phone
   * that lost its signal closes nothing, and the silence would take 30 s to tell). Waits for the
   * network to come back (`reconnectNow`), trying now and then meanwhile.
   */
  connectionLost(): void {
    if (this.conn.kind !== 'open' && this.conn.kind !== 'connecting') return;
    this.lost();
  }

  /**
   * The page is shown again (a phone woken, a tab brought back): its connection may have died
   * while it slept, so it is asked for an answer within `ANSWER_MS`; one that was waiting to
   * reconnect does so at once.
   */
  checkConnection(): void {
    if (this.conn.kind === 'waiting') {
      this.reconnectNow();
      return;
    }
    if (this.conn.kind === 'open' && !this.probing && this.send({ t: 'ping' })) this.expectAnswer();
  }

  /** Reconnects at once (the browser came back online). */
  reconnectNow(): void {
    if (this.conn.kind !== 'waiting') return;
    this.clearTimer('retry');
    this.open();
  }

  dispose(): void {
    this.disposed = true;
    this.stop();
    this.listeners.clear();
  }

  // ---- the socket ----------------------------------------------------------------------------

  private send(msg: ClientMessage): boolean {
    if (this.conn.kind !== 'open' || this.socket === null) return false;
    // Not every request is answered to this socket (a rematch waits for the friend); a ping
    // always is, so a live connection answers in time and a dead one is found out.
    const probe = msg.t !== 'ping' && !this.probing;
    try {
      if (probe) this.socket.send(JSON.stringify({ t: 'ping' }));
      this.socket.send(JSON.stringify(msg));
    } catch {
      return false;
    }
    if (probe) this.expectAnswer();
    return true;
  }

  private expectAnswer(): void {
    this.armSilence(ANSWER_MS);
    this.probing = true;
  }

  private open(): void {
    if (this.disposed) return;
    this.conn = { kind: 'connecting', attempt: this.attempt };
    let socket: SocketLike;
    try {
      socket = this.deps.connect();
    } catch {
      this.lost();
      return;
    }
    this.socket = socket;
    this.armSilence(CONNECT_MS);
    socket.onopen = () => {
      if (this.socket !== socket) return;
      // `since` replays what this page missed; with no room yet it asks for a full sync.
      socket.send(JSON.stringify({ t: 'hello', token: this.token, since: this.room === null ? 0 : this.version }));
      this.armSilence();
    };
    socket.onmessage = (ev) => {
      if (this.socket !== socket) return;
      this.armSilence();
      this.receive(parseServerMessage(ev.data));
    };
    socket.onclose = (ev) => {
      if (this.socket !== socket) return;
      if (ev?.code === GOING_AWAY) this.restarting = true;
      this.lost();
    };
    socket.onerror = () => {
      // A close follows.
    };
    this.changed();
  }

  private lost(): void {
    this.dropSocket();
    if (this.disposed || this.conn.kind === 'stopped') return;
    // Without a network every try fails at once: the longest wait, said as such (the page had
    // flickered "connecting" at each try). The browser's word that it is back comes as
    // `reconnectNow`; the tries go on in case that word never comes.
    const offline = this.deps.online?.() === false;
    const retryMs = offline ? backoffMs(Infinity) : backoffMs(this.attempt);
    this.conn = {
      kind: 'waiting',
      attempt: this.attempt,
      retryMs,
      ...(this.restarting ? { restarting: true as const } : {}),
      ...(offline ? { offline: true as const } : {}),
    };
    this.attempt += 1;
    this.retryTimer = this.deps.timers.set(() => {
      this.retryTimer = null;
      this.open();
    }, retryMs);
    this.changed();
  }

  private stop(): void {
    this.conn = { kind: 'stopped' };
    this.clearTimer('retry');
    this.dropSocket();
  }

  private dropSocket(): void {
    this.clearTimer('ping');
    this.clearTimer('silence');
    const s = this.socket;
    this.socket = null;
    if (s !== null) {
      s.onopen = null;
      s.onmessage = null;
      s.onclose = null;
      s.onerror = null;
      try {
        s.close();
      } catch {
        // Already closed.
      }
    }
  }

  private clearTimer(which: 'retry' | 'ping' | 'silence'): void {
    const key = `${which}Timer` as const;
    const handle = this[key];
    if (handle !== null) this.deps.timers.clear(handle);
    this[key] = null;
  }

  /** Any frame proves the connection alive; a long silence means it is dead (a network change). */
  private armSilence(ms = SILENCE_MS): void {
    this.clearTimer('silence');
    this.probing = false;
    this.silenceTimer = this.deps.timers.set(() => {
      this.silenceTimer = null;
      this.lost();
    }, ms);
  }

  private armPing(): void {
    this.clearTimer('ping');
    this.pingTimer = this.deps.timers.set(() => {
      this.pingTimer = null;
      this.send({ t: 'ping' });
      this.armPing();
    }, PING_MS);
  }

  // ---- messages ------------------------------------------------------------------------------

  private receive(m: ServerMessage): void {
    if (isEvent(m)) {
      this.event(m);
      return;
    }
    switch (m.t) {
      case 'welcome':
        // Events after `since` follow; none if the page is up to date.
        this.awaited = m.v;
        this.accepted();
        // A refusal of the last connection (its `hello` turned away for now) is over.
        this.error = null;
        break;
      case 'sync': {
        let room: RoomState;
        try {
          room = fromSync(m.room);
        } catch {
          // Garbled past what the parser checks: the room stays as it was.
          return;
        }
        this.awaited = m.v;
        this.accepted();
        this.version = m.v;
        this.room = room;
        this.error = null;
        if (this.room.phase === 'closed') this.stop();
        break;
      }
      case 'presence':
        if (this.room !== null) {
          const cpuOffer = m.opponent === 'connected' ? null : this.room.cpuOffer;
          this.room = { ...this.room, opponent: m.opponent, arriving: false, cpuOffer };
        }
        break;
      case 'cpu_offer':
        if (this.room !== null) this.room = { ...this.room, cpuOffer: m.away_s };
        break;
      case 'pong':
      case 'unknown':
        return;
      case 'error':
        if (this.conn.kind === 'connecting' && !FATAL.has(m.code) && m.code !== 'replaced') {
          // `hello` turned away for now (too many requests from this address): the server keeps
          // the socket until its hello timeout, and this page would say nothing more on it. Try
          // again later, as after a lost connection.
          this.lost();
          return;
        }
        this.error = { code: m.code };
        if (m.code === 'stale_version') this.send({ t: 'sync' });
        if (FATAL.has(m.code)) this.stop();
        if (m.code === 'replaced') {
          // Reconnecting on its own would take the seat from the other tab, and that one would
          // take it back: the two would trade it for ever.
          this.stop();
          this.conn = { kind: 'replaced' };
        }
        break;
    }
    this.changed();
  }

  private accepted(): void {
    if (this.conn.kind !== 'open') {
      this.conn = { kind: 'open' };
      this.attempt = 1;
      this.restarting = false;
      this.armPing();
    }
  }

  private event(e: RoomEvent): void {
    if (e.v <= this.version) return; // already applied (a replay overlapping what we hold)
    if (this.room === null || e.v !== this.version + 1) {
      // A gap: something was missed. Ask for the whole room.
      this.send({ t: 'sync' });
      return;
    }
    let next: RoomState;
    try {
      next = applyEvent(this.room, e, this.sentArrangement);
    } catch {
      // A garbled event (a server of another version?): applied in part, it would leave the
      // room out of step for good. The whole room is asked for instead.
      this.send({ t: 'sync' });
      return;
    }
    this.version = e.v;
    this.room = next;
    if (e.t !== 'ready') this.error = null;
    if (e.t === 'closed') this.stop();
    this.changed();
  }

  private changed(): void {
    for (const l of [...this.listeners]) l();
  }
}


/**
 * Fakes for the online unit tests: a socket the test drives, timers the test fires, and a whole
 * room environment (HTTP answers, sockets, seat storage) around a match.
 */
import { ArrangementStore, SetupDraftStore } from '../state/setup';
import { MemoryStorage, testEngine } from '../test-engine';
import type { SocketLike, Timers } from './client';
import { SeatStore, type HttpAnswer } from './lobby';
import { OnlineMatch, type OnlineEnv } from './match';

export class FakeSocket implements SocketLike {
  onopen: (() => void) | null = null;
  onmessage: ((ev: { readonly data: unknown }) => void) | null = null;
  onclose: ((ev?: { readonly code?: number }) => void) | null = null;
  onerror: (() => void) | null = null;
  readonly sent: Record<string, unknown>[] = [];
  closed = false;

  send(text: string): void {
    if (this.closed) throw new Error('send on a closed socket');
    this.sent.push(JSON.parse(text) as Record<string, unknown>);
  }

  close(): void {
    this.closed = true;
  }

  /** The server side: the socket opens. */
  open(): void {
    this.onopen?.();
  }

  /** The server side: one frame arrives. */
  receive(msg: unknown): void {
    this.onmessage?.({ data: JSON.stringify(msg) });
  }

  /** The network drops the connection (or the server closes it with `code`). */
  drop(code?: number): void {
    this.closed = true;
    this.onclose?.(code === undefined ? undefined : { code });
  }

  /** Types of the messages sent, in order. */
  types(): string[] {
    return this.sent.map((m) => String(m['t']));
  }
}

export class FakeTimers implements Timers {
  private next = 1;
  private readonly pending = new Map<number, { fn: () => void; ms: number }>();

  set(fn: () => void, ms: number): number {
    const id = this.next++;
    this.pending.set(id, { fn, ms });
    return id;
  }

  clear(handle: number): void {
    this.pending.delete(handle);
  }

  /** Delays of the pending timers. */
  delays(): number[] {
    return [...this.pending.values()].map((t) => t.ms);
  }

  /** Fires every pending timer with this delay. */
  fire(ms: number): void {
    for (const [id, t] of [...this.pending]) {
      if (t.ms === ms) {
        this.pending.delete(id);
        t.fn();
      }
    }
  }
}

export const ROOM = 'AAAAAAAAAAAAAAAAAAAAAA';
export const TOKEN = 't'.repeat(43);

export interface Harness {
  env: OnlineEnv;
  sockets: FakeSocket[];
  requests: string[];
  address: (string | null)[];
  storage: MemoryStorage;
  answers: Map<string, HttpAnswer>;
  /** The browser says it is online again. */
  goOnline: () => void;
  /** The browser goes offline (a phone loses its signal). */
  goOffline: () => void;
  /** The page is shown again (a tab brought back, a phone woken). */
  show: () => void;
}

export function harness(storage = new MemoryStorage()): Harness {
  const sockets: FakeSocket[] = [];
  const requests: string[] = [];
  const address: (string | null)[] = [];
  const answers = new Map<string, HttpAnswer>([
    ['POST /api/rooms', { status: 201, body: { room: ROOM, seat: 'host', token: TOKEN } }],
    [`GET /api/rooms/${ROOM}`, { status: 200, body: { room: ROOM, state: 'open' } }],
    [`POST /api/rooms/${ROOM}/join`, { status: 200, body: { room: ROOM, seat: 'guest', token: TOKEN } }],
  ]);
  const env: OnlineEnv = {
    http: (method, path) => {
      requests.push(`${method} ${path}`);
      const a = answers.get(`${method} ${path}`);
      return a === undefined ? Promise.reject(new Error('offline')) : Promise.resolve(a);
    },
    socket: () => {
      const s = new FakeSocket();
      sockets.push(s);
      return s;
    },
    timers: new FakeTimers(),
    seats: new SeatStore(storage),
    drafts: new SetupDraftStore(storage, testEngine()),
    setAddress: (room) => address.push(room),
    onOnline: (fn) => {
      online.add(fn);
      return () => online.delete(fn);
    },
    onOffline: (fn) => {
      offline.add(fn);
      return () => offline.delete(fn);
    },
    onVisible: (fn) => {
      visible.add(fn);
      return () => visible.delete(fn);
    },
  };
  const online = new Set<() => void>();
  const offline = new Set<() => void>();
  const visible = new Set<() => void>();
  return {
    env,
    sockets,
    requests,
    address,
    storage,
    answers,
    goOnline: () => online.forEach((fn) => fn()),
    goOffline: () => offline.forEach((fn) => fn()),
    show: () => visible.forEach((fn) => fn()),
  };
}

export function newMatch(h: Harness, room: string | null): OnlineMatch {
  let seed = 7;
  return new OnlineMatch(testEngine(), new ArrangementStore(h.storage, testEngine()), () => seed++, h.env, room);
}

export const flush = (): Promise<void> => new Promise((ok) => setTimeout(ok, 0));

export const ROOM_SYNC = {
  seat: 'host',
  phase: 'arranging',
  game: 1,
  side: 'sente',
  opponent: 'none',
  you_ready: false,
  opponent_ready: false,
  rematch: { you: false, opponent: false },
  cpu_offer: false,
  cpu_offer_after_s: 120,
};

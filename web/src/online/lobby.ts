/**
 * The room endpoints over HTTP (create, look, join) and the seat tokens kept in the browser.
 * A token is a secret: it stays in `localStorage` and never goes into a URL.
 */
import { isRecord } from '../json';
import { isRoomId, type Seat, type SeatAnswer } from './protocol';
import { keysStartingWith, readJson, removeKey, writeJson, type KeyValueStorage } from '../storage';

export interface HttpAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** `fetch` reduced to what the lobby needs (injected for tests). */
export type Http = (method: 'GET' | 'POST', path: string) => Promise<HttpAnswer>;

export type RoomLook = 'open' | 'full' | 'closed' | 'missing';

export type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly code: string };

function errorCode(body: unknown): string {
  if (isRecord(body) && isRecord(body.error) && typeof body.error.code === 'string') return body.error.code;
  return 'internal';
}

function seatAnswer(body: unknown): SeatAnswer | null {
  if (!isRecord(body)) return null;
  const { room, seat, token } = body;
  if (typeof room !== 'string' || !isRoomId(room) || typeof token !== 'string') return null;
  if (seat !== 'host' && seat !== 'guest') return null;
  return { room, seat, token };
}

async function call(http: Http, method: 'GET' | 'POST', path: string): Promise<HttpAnswer | null> {
  try {
    return await http(method, path);
  } catch {
    return null;
  }
}

/** `POST /api/rooms`: a new room with this page in the host seat. */
export async function createRoom(http: Http): Promise<Outcome<SeatAnswer>> {
  const a = await call(http, 'POST', '/api/rooms');
  if (a === null) return { ok: false, code: 'network' };
  const seat = a.status === 201 || a.status === 200 ? seatAnswer(a.body) : null;
  return seat === null ? { ok: false, code: errorCode(a.body) } : { ok: true, value: seat };
}

/** `GET /api/rooms/{id}`: whether the room can be joined. */
export async function lookRoom(http: Http, id: string): Promise<Outcome<RoomLook>> {
  if (!isRoomId(id)) return { ok: true, value: 'missing' };
  const a = await call(http, 'GET', `/api/rooms/${id}`);
  if (a === null) return { ok: false, code: 'network' };
  if (a.status === 404) return { ok: true, value: 'missing' };
  const state = (a.body as { state?: unknown } | null)?.state;
  if (a.status === 200 && (state === 'open' || state === 'full' || state === 'closed')) return { ok: true, value: state };
  return { ok: false, code: errorCode(a.body) };
}

/** `POST /api/rooms/{id}/join`: the guest seat. `room_full` tells a third visitor. */
export async function joinRoom(http: Http, id: string): Promise<Outcome<SeatAnswer>> {
  const a = await call(http, 'POST', `/api/rooms/${id}/join`);
  if (a === null) return { ok: false, code: 'network' };
  const seat = a.status === 200 ? seatAnswer(a.body) : null;
  return seat === null ? { ok: false, code: errorCode(a.body) } : { ok: true, value: seat };
}

/** How long a room lasts at most on the server (docs/protocol.md §7): a seat older is gone. */
export const ROOM_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** Seat tokens per room, in `localStorage["gunjin.room.<id>"]`. */
export class SeatStore {
  private static readonly LAST = 'gunjin.lastRoom';

  constructor(
    private readonly storage: KeyValueStorage | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  private static readonly PREFIX = 'gunjin.room.';

  private key(room: string): string {
    return `${SeatStore.PREFIX}${room}`;
  }

  /**
   * The room this browser last took a seat in, while that seat is kept and the room may still
   * be there: the start screen offers the way back to it (the address left with the mode).
   */
  lastRoom(): string | null {
    const v = readJson(this.storage, SeatStore.LAST);
    if (!isRecord(v) || typeof v['room'] !== 'string' || typeof v['at'] !== 'number') return null;
    const age = this.now() - v['at'];
    if (age < 0 || age >= ROOM_LIFETIME_MS || this.load(v['room']) === null) return null;
    return v['room'];
  }

  load(room: string): { readonly seat: Seat; readonly token: string } | null {
    const v = readJson(this.storage, this.key(room));
    if (!isRecord(v)) return null;
    const { seat, token } = v;
    return (seat === 'host' || seat === 'guest') && typeof token === 'string' ? { seat, token } : null;
  }

  /** Without storage a refresh loses the seat; the game still works in this tab. */
  save(answer: SeatAnswer): void {
    this.dropExpired();
    const at = this.now();
    writeJson(this.storage, this.key(answer.room), { seat: answer.seat, token: answer.token, at });
    writeJson(this.storage, SeatStore.LAST, { room: answer.room, at });
  }

  /**
   * Removes the seats of rooms that cannot be there any more (taken longer ago than a room
   * lasts): a finished game's or a room left to expire would keep its secret token for ever. A
   * seat kept before the time was written down is given a day from now.
   */
  private dropExpired(): void {
    const now = this.now();
    for (const key of keysStartingWith(this.storage, SeatStore.PREFIX)) {
      const v = readJson(this.storage, key);
      if (!isRecord(v)) continue;
      const at = v['at'];
      if (typeof at !== 'number') writeJson(this.storage, key, { ...v, at: now });
      else if (now - at >= ROOM_LIFETIME_MS || now < at) removeKey(this.storage, key);
    }
  }

  forget(room: string): void {
    removeKey(this.storage, this.key(room));
    const last = readJson(this.storage, SeatStore.LAST);
    if (isRecord(last) && last['room'] === room) removeKey(this.storage, SeatStore.LAST);
  }
}

/**
 * The rooms protocol as the page sees it (`docs/protocol.md`): the server's messages, parsed once
 * at the edge into a closed set (anything else becomes `unknown`), and the client's messages.
 */
import type { Arrangement, Ply, Side, Square, Status, View } from '../engine';
import { isRecord } from '../json';

export type Seat = 'host' | 'guest';
export type Presence = 'none' | 'connected' | 'away';
export type CloseReason = 'abandoned' | 'expired';
export type RoomPhase = 'arranging' | 'playing' | 'finished' | 'closed';
export type Who = 'you' | 'opponent';
export type Legal = readonly (readonly [Square, Square])[];

/** Both sides' set-ups as the server reveals them after the end. */
export interface WireSetups {
  readonly sente: { readonly side: Side; readonly pieces: Arrangement };
  readonly gote: { readonly side: Side; readonly pieces: Arrangement };
}

/** `sync.room`: the whole room as this seat may know it. */
export interface RoomSync {
  readonly seat: Seat;
  readonly phase: RoomPhase;
  readonly game: number;
  readonly side: Side;
  readonly opponent: Presence;
  readonly you_ready: boolean;
  readonly opponent_ready: boolean;
  readonly setup?: { readonly side: Side; readonly pieces: Arrangement };
  readonly view?: View;
  /** Both sides' set-ups, once the game is over. */
  readonly setups?: WireSetups;
  readonly legal?: Legal;
  readonly rematch: { readonly you: boolean; readonly opponent: boolean };
  readonly closed?: CloseReason;
  readonly cpu_offer: boolean;
  /** How long the opponent must be away before the offer stands (the server's setting). */
  readonly cpu_offer_after_s: number;
}

/** Versioned events (one gapless sequence per seat). */
export type RoomEvent =
  | { readonly t: 'arranging'; readonly v: number; readonly game: number; readonly side: Side }
  | { readonly t: 'joined'; readonly v: number }
  | { readonly t: 'ready'; readonly v: number; readonly who: Who; readonly ready: boolean }
  | {
      readonly t: 'started';
      readonly v: number;
      readonly game: number;
      readonly side: Side;
      readonly view: View;
      readonly legal?: Legal;
    }
  | {
      readonly t: 'moved';
      readonly v: number;
      readonly ply: Ply;
      readonly to_move: Side;
      readonly status: Status;
      readonly legal?: Legal;
    }
  | { readonly t: 'ended'; readonly v: number; readonly status: Status; readonly view: View; readonly setups?: WireSetups }
  | { readonly t: 'rematch'; readonly v: number; readonly who: Who }
  | { readonly t: 'closed'; readonly v: number; readonly reason: CloseReason };

/** Replies and notices (no version). */
export type RoomNotice =
  | { readonly t: 'welcome'; readonly v: number; readonly seat: Seat }
  | { readonly t: 'sync'; readonly v: number; readonly room: RoomSync }
  | { readonly t: 'presence'; readonly opponent: Presence }
  | { readonly t: 'cpu_offer'; readonly away_s: number }
  | { readonly t: 'pong' }
  | { readonly t: 'error'; readonly code: string; readonly message?: string; readonly details?: unknown };

export type ServerMessage = RoomEvent | RoomNotice | { readonly t: 'unknown'; readonly text: string };

export type ClientMessage =
  | { readonly t: 'hello'; readonly token: string; readonly since: number }
  | { readonly t: 'arrange'; readonly setup: Arrangement }
  | { readonly t: 'unarrange' }
  | { readonly t: 'move'; readonly move: { readonly from: Square; readonly to: Square }; readonly v: number }
  | { readonly t: 'resign' }
  | { readonly t: 'rematch' }
  | { readonly t: 'abandon' }
  | { readonly t: 'sync' }
  | { readonly t: 'ping' };

const EVENT_TYPES = new Set(['arranging', 'joined', 'ready', 'started', 'moved', 'ended', 'rematch', 'closed']);
const NOTICE_TYPES = new Set(['welcome', 'sync', 'presence', 'cpu_offer', 'pong', 'error']);

/**
 * Parses one text frame. The server is trusted for the shapes of known messages (it is the
 * referee); the checks here only keep a garbled or unexpected frame from breaking the page.
 */
export function parseServerMessage(text: unknown): ServerMessage {
  if (typeof text !== 'string') return { t: 'unknown', text: '' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { t: 'unknown', text };
  }
  if (!isRecord(value) || typeof value['t'] !== 'string') return { t: 'unknown', text };
  const t = value['t'];
  if (EVENT_TYPES.has(t)) {
    if (typeof value['v'] !== 'number') return { t: 'unknown', text };
    return value as unknown as RoomEvent;
  }
  if (NOTICE_TYPES.has(t)) {
    if ((t === 'welcome' || t === 'sync') && typeof value['v'] !== 'number') return { t: 'unknown', text };
    if (t === 'sync' && !isSyncRoom(value['room'])) return { t: 'unknown', text };
    if (t === 'error' && typeof value['code'] !== 'string') return { t: 'unknown', text };
    if (t === 'cpu_offer' && typeof value['away_s'] !== 'number') return { t: 'unknown', text };
    return value as unknown as RoomNotice;
  }
  return { t: 'unknown', text };
}

/** The fields of a synced room the page reads without looking first. */
function isSyncRoom(room: unknown): boolean {
  return isRecord(room) && typeof room['phase'] === 'string' && typeof room['side'] === 'string' && isRecord(room['rematch']);
}

export function isEvent(m: ServerMessage): m is RoomEvent {
  return EVENT_TYPES.has(m.t);
}

/** The answer of the room endpoints (`POST /api/rooms`, `POST /api/rooms/{id}/join`). */
export interface SeatAnswer {
  readonly room: string;
  readonly seat: Seat;
  readonly token: string;
}

/** A room id as the server issues them: 22 URL-safe characters. */
export function isRoomId(id: string): boolean {
  return /^[A-Za-z0-9_-]{22}$/.test(id);
}

/** The browser's parts for an online match: fetch, WebSocket, timers, storage, address bar. */
import type { SocketLike } from './client';
import { browserStorage } from '../storage';
import { SeatStore } from './lobby';
import type { OnlineEnv } from './match';

/** The query parameter naming a room in the page's URL: `/?room=<id>`. */
export const ROOM_PARAM = 'room';

/** The room named in a page URL, if any. */
export function roomFromUrl(href: string): string | null {
  try {
    const id = new URL(href).searchParams.get(ROOM_PARAM);
    return id !== null && id.length > 0 ? id : null;
  } catch {
    return null;
  }
}

/** The URL to send a friend: this page's origin and path with the room, nothing else. */
export function roomUrl(href: string, room: string): string {
  const url = new URL(href);
  const out = new URL(url.pathname, url.origin);
  out.searchParams.set(ROOM_PARAM, room);
  return out.toString();
}

/** How long a room request (create, join, look up) may take before it counts as failed. */
const HTTP_MS = 15_000;


export function browserEnv(): OnlineEnv {
  return {
    http: async (method, path) => {
      // A server that never answers (a proxy holding the request) must not leave "creating a
      // room…" on the screen for ever: given up, it fails as a network error, with a retry.
      const res = await fetch(path, { method, headers: { accept: 'application/json' }, signal: AbortSignal.timeout(HTTP_MS) });
      let body: unknown = null;
      try {
        body = await res.json();
      } catch {
        body = null;
      }
      return { status: res.status, body };
    },
    socket: (room) => {
      const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
      return new WebSocket(`${scheme}//${location.host}/ws/rooms/${encodeURIComponent(room)}`) as unknown as SocketLike;
    },
    timers: {
      set: (fn, ms) => window.setTimeout(fn, ms),
      clear: (h) => window.clearTimeout(h),
    },
    seats: new SeatStore(browserStorage()),
    setAddress: (room) => {
      const url = new URL(location.href);
      if (room === null) url.searchParams.delete(ROOM_PARAM);
      else url.searchParams.set(ROOM_PARAM, room);
      history.replaceState(history.state, '', url.toString());
    },
    onOnline: (fn) => {
      window.addEventListener('online', fn);
      return () => window.removeEventListener('online', fn);
    },
    onOffline: (fn) => {
      window.addEventListener('offline', fn);
      return () => window.removeEventListener('offline', fn);
    },
    onVisible: (fn) => {
      const shown = (): void => {
        if (document.visibilityState === 'visible') fn();
      };
      document.addEventListener('visibilitychange', shown);
      return () => document.removeEventListener('visibilitychange', shown);
    },
    isOnline: () => navigator.onLine,
  };
}

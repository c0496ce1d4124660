/** The friend mode of the start screen, and the same mode opened from a room URL. */
import type { Mode } from '../modes';
import './online.css';
import { browserEnv, roomUrl } from './browser';
import { OnlineMatch } from './match';
import { isOnline, onlinePanel, type ScreenEnv } from './screen';

function screenEnv(): ScreenEnv {
  return {
    roomUrl: (room) => roomUrl(location.href, room),
    leaveAddress: () => browserEnv().setAddress(null),
  };
}

/**
 * Plays a friend through the server. `room` null creates a new room; otherwise opens that room
 * (back to this browser's seat, or the invitation to join).
 */
export function friendMode(room: string | null): Mode {
  return {
    id: 'friend',
    title: 'modeFriend',
    description: 'modeFriendDesc',
    create: (ctx) => new OnlineMatch(ctx.engine, ctx.store, ctx.random, { ...browserEnv(), drafts: ctx.drafts }, room),
    panel: (match, kit) => (isOnline(match) ? onlinePanel(match, kit, screenEnv()) : null),
  };
}

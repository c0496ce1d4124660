/**
 * The online panel: the room's URL to send, the connection and the friend's presence, the
 * invitation for a visitor, arranging and waiting, the turn, the end and the rematch, the CPU
 * offer. The board itself is the page's (through the `Match` interface).
 */
import type { PanelKit } from '../app';
import { opponent } from '../engine';
import type { Mode } from '../modes';
import type { I18n, MessageKey } from '../i18n';
import type { Match } from '../state/match';
import { button, h, sideBadge, withBadge } from '../ui/dom';
import type { Connection, RoomState } from './client';
import type { OnlineMatch } from './match';

/** The CPU mode to switch to ("play the CPU without waiting", the 2-minute offer), if any. */
function cpuMode(modes: readonly Mode[]): Mode | undefined {
  return modes.find((m) => m.id === 'cpu-intermediate') ?? modes.find((m) => m.id.startsWith('cpu'));
}

/** The connection's line: what a button disabled while offline points to as its reason. */
const CONNECTION_ID = 'online-connection';

/** A button that needs the connection says, while disabled, that the connection is why. */
function offline<T extends Node>(b: T): T {
  if (b instanceof HTMLButtonElement && b.disabled) b.setAttribute('aria-describedby', CONNECTION_ID);
  return b;
}

/**
 * Puts the focus on `el` once it is in the page, if the focus was lost (the pressed button went
 * away with the old panel), so keyboard players land on the next thing to do.
 */
function focusIfLost<T extends HTMLElement>(el: T): T {
  queueMicrotask(() => {
    const active = document.activeElement;
    if ((active === null || active === document.body) && el.isConnected) el.focus();
  });
  return el;
}

export interface ScreenEnv {
  /** The URL to send the friend. */
  readonly roomUrl: (room: string) => string;
  /** Removes the room from the address bar when leaving it. */
  readonly leaveAddress: () => void;
}

export function onlinePanel(match: OnlineMatch, kit: PanelKit, env: ScreenEnv): Node[] {
  return drawPanel(match, kit, env).filter((n): n is Node => n !== null);
}

/** What the player was last told of the room, to announce only what changed. */
interface Told {
  connection: string | null;
  /** The connection was lost since it was last open (so its return is news). */
  lost: boolean;
  opponent: string | null;
  offer: boolean;
  rematchAsked: boolean;
  /** The friend's absence was told (said gone, or the CPU offer), so their return is news. */
  absenceTold: boolean;
  /** The friend has been connected while this page watched: a first arrival is always news. */
  met: boolean;
  /** The room's phase (arranging, playing, …): the start of play is news. */
  phase: string | null;
  /** This seat's arrangement is held by the server. */
  held: boolean;
  /** The invitation (the URL to send) is on the panel. */
  inviting: boolean;
  /** This seat has asked for the next game. */
  rematchSent: boolean;
  /** The friend has confirmed their arrangement (arranging). */
  friendReady: boolean;
  /** The player's move that never reached the server (the same object while it stands). */
  undelivered: { readonly from: string; readonly to: string } | null;
}

const told = new WeakMap<OnlineMatch, Told>();

/**
 * How long the friend must stay away before it is said. A server restart drops both players and
 * the one back first sees the other away for a few seconds; so does a phone switching networks.
 * The presence line shows it at once.
 */
export const AWAY_GRACE_MS = 10_000;
const awayTimers = new WeakMap<OnlineMatch, ReturnType<typeof setTimeout>>();

/**
 * The friend is away: the game waits for them, or goes on with the player's move (the friend is
 * sent it on their return), or, once it is over, they are only gone.
 */
function awayText(t: PanelKit['i18n'], match: OnlineMatch): string {
  const s = match.state;
  if (s?.phase === 'finished' || s?.phase === 'closed') return t.t('onlineOpponentGone');
  return t.t(s?.phase === 'playing' && s.view?.to_move === s.side ? 'onlineOpponentAwayYourMove' : 'onlineOpponentAway');
}

/** Says the friend is away once they have been for `AWAY_GRACE_MS`, unless they are back by then. */
function sayAwayLater(match: OnlineMatch, kit: PanelKit): void {
  clearTimeout(awayTimers.get(match));
  awayTimers.set(
    match,
    setTimeout(() => {
      awayTimers.delete(match);
      const now = told.get(match);
      if (now === undefined || now.opponent !== 'away' || match.state?.opponent !== 'away' || now.absenceTold) return;
      told.set(match, { ...now, absenceTold: true });
      kit.say(awayText(kit.i18n, match));
    }, AWAY_GRACE_MS),
  );
}

/**
 * Says in the live region what changed in the room since the last redraw: the friend's moves
 * (and that it is the player’s turn again), the connection lost and back, the friend leaving or
 * coming back, the CPU offer, a rematch request. The panel is redrawn often, so its own regions
 * would repeat or go unheard.
 */
export function announce(match: OnlineMatch, kit: PanelKit): void {
  const t = kit.i18n;
  const s = match.state;
  const lines: string[] = [];
  const moves = match.takeAnnouncements();
  for (const reports of moves) lines.push(...reports.map((r) => kit.reportText(r)));
  if (moves.length > 0 && s?.phase === 'playing' && s.view?.to_move === s.side) lines.push(t.t('onlineYourTurnSpoken'));
  const before = told.get(match) ?? {
    connection: null,
    lost: false,
    opponent: null,
    offer: false,
    rematchAsked: false,
    absenceTold: false,
    met: false,
    phase: null,
    held: false,
    inviting: false,
    rematchSent: false,
    friendReady: false,
    undelivered: null,
  };
  const now: Told = {
    connection: match.connection?.kind ?? null,
    lost: before.lost && match.connection?.kind !== 'open',
    opponent: s?.opponent ?? null,
    offer: s?.cpuOffer !== null && s?.cpuOffer !== undefined,
    rematchAsked: s?.rematch.opponent === true && !s.rematch.you,
    absenceTold: before.absenceTold && s?.opponent !== 'connected',
    met: before.met || s?.opponent === 'connected',
    phase: s?.phase ?? null,
    held: s !== null && s.phase === 'arranging' && s.held !== null,
    inviting: s !== null && s.seat === 'host' && s.opponent === 'none' && s.phase === 'arranging',
    rematchSent: s?.rematch.you === true && s.rematch.opponent !== true,
    friendReady: s !== null && s.phase === 'arranging' && s.opponentReady,
    undelivered: match.undeliveredMove,
  };
  // What a sighted player sees come and a blind one must be told: the URL to send, the
  // arrangement confirmed, the game begun and whose move it is, the next game asked for.
  if (now.inviting && !before.inviting) lines.push(t.t('onlineShareTitle'));
  // (With the friend's arrangement confirmed, the game starts at once: nothing to wait for.)
  if (now.held && !before.held && !now.friendReady) lines.push(t.t('onlineWaitingTitle'), t.t(waitingHint(s)));
  if (s !== null && before.phase === 'arranging' && now.phase === 'playing' && moves.length === 0) {
    lines.push(t.t(s.view?.to_move === s.side ? 'onlineYourTurnSpoken' : 'onlineTheirTurnSpoken'));
  }
  if (now.rematchSent && !before.rematchSent) lines.push(t.t('onlineRematchSent'));
  if (now.undelivered !== null && now.undelivered !== before.undelivered) lines.push(t.t('onlineMoveUndelivered', now.undelivered));
  if (now.friendReady && !before.friendReady) lines.push(t.t('onlineFriendReady'));
  else if (before.friendReady && !now.friendReady && now.phase === 'arranging') lines.push(t.t('onlineFriendUnready'));
  // The connection: only when it is lost or back, not each second of the count-down.
  const c = match.connection;
  if (now.connection !== before.connection) {
    if (c?.kind === 'open' && before.lost) lines.push(t.t('onlineReconnected'));
    else if (c?.kind === 'waiting' && !before.lost) {
      lines.push(waitingText(t, c));
      now.lost = true;
    } else if (c?.kind === 'stopped') {
      lines.push(t.t('onlineStopped'));
      now.lost = true;
    } else if (c?.kind === 'replaced') {
      lines.push(t.t('onlineReplaced'));
      now.lost = true;
    }
  }
  if (s !== null && before.opponent !== null && now.opponent !== before.opponent) {
    // Arrived, or back after their absence was told (a return within the grace is no news).
    // The first time is news even if the friend was seated a moment before their page connected.
    if (now.opponent === 'connected') {
      clearTimeout(awayTimers.get(match));
      if (!before.met || before.absenceTold) lines.push(t.t('onlineOpponentConnected'));
    }
    // Lost, not a friend still on the way from the invitation (seated a moment before connecting).
    else if (now.opponent === 'away' && before.opponent === 'connected') sayAwayLater(match, kit);
  }
  if (now.offer && !before.offer && s?.cpuOffer !== null && s?.cpuOffer !== undefined) {
    lines.push(t.t('onlineCpuOffer', { time: t.duration(s.cpuOffer) }));
    now.absenceTold = true;
  }
  if (now.rematchAsked && !before.rematchAsked) lines.push(t.t('onlineRematchAsked'));
  told.set(match, now);
  if (lines.length > 0) kit.say(t.sentences(lines));
}

/** What the player whose arrangement is held waits for: the friend's, or first the friend. */
function waitingHint(s: RoomState | null): MessageKey {
  return s?.opponent === 'none' ? 'onlineWaitingHintNoFriend' : 'onlineWaitingHint';
}

/** Why a room could not be created, looked at or joined: the network, a busy server, or its code. */
export function failureText(t: I18n, code: string): string {
  if (code === 'network') return t.t('onlineUnreachable');
  if (code === 'rate_limited') return t.t('onlineBusy');
  return t.t('onlineFailed', { code });
}

function drawPanel(match: OnlineMatch, kit: PanelKit, env: ScreenEnv): (Node | null)[] {
  const t = kit.i18n;
  announce(match, kit);
  const out: (Node | null)[] = [h('h2', { class: 'online-title', text: t.t('onlineTitle') })];
  const stage = match.stage;
  const leave = (): void => {
    env.leaveAddress();
    kit.chooseModeAgain();
  };
  const footer = h('div', { class: 'game-buttons' }, button(t.t('chooseModeAgain'), leave, { key: 'choose-mode' }));
  const msg = (text: string, tone = ''): Node => h('p', { class: `online-message ${tone}`.trim(), text, attrs: { 'data-online-message': '' } });
  // News of the friend the strip under (or beside) the board carries too, on a phone.
  const friendNews = (text: string): Node => h('p', { class: 'online-message', text, attrs: { 'data-online-message': '', 'data-friend-news': '' } });

  switch (stage.kind) {
    case 'creating':
      return [...out, msg(t.t('onlineCreating')), footer];
    case 'looking':
      return [...out, msg(t.t('onlineLooking')), footer];
    case 'joining':
      return [...out, msg(t.t('onlineJoining')), footer];
    case 'failed':
      return [
        ...out,
        msg(failureText(t, stage.code), 'warn'),
        focusIfLost(button(t.t('onlineRetry'), () => match.retry(), { key: 'online-retry', class: 'btn primary wide' })),
        footer,
      ];
    case 'invited':
      switch (stage.look) {
        case 'open':
          return [
            ...out,
            h('h3', { text: t.t('onlineInviteTitle') }),
            msg(t.t('onlineInviteText', { side: t.side('gote') })),
            focusIfLost(button(t.t('onlineJoin'), () => match.join(), { key: 'online-join', class: 'btn primary wide' })),
            footer,
          ];
        case 'full':
          return [...out, msg(t.t('onlineFull'), 'warn room-full'), footer];
        case 'closed':
          return [...out, msg(t.t('onlineRoomClosed'), 'warn'), footer];
        case 'missing':
          return [...out, msg(t.t('onlineMissing'), 'warn'), footer];
      }
      break;
    case 'seated':
      break;
  }

  // A closed room has no connection to speak of: a red "disconnected" there read as a fault of
  // the player's own network, beside the room's own news.
  if (match.state?.phase !== 'closed') out.push(connectionEl(match, kit));
  const s = match.state;
  if (s === null) {
    const err = match.lastError;
    if (err?.code === 'no_room' || err?.code === 'bad_token') out.push(msg(t.t('onlineMissing'), 'warn'));
    else if (err?.code === 'room_closed') out.push(msg(t.t('onlineRoomClosed'), 'warn'));
    else out.push(msg(t.t('onlineLoading')));
    return [...out, footer];
  }
  const side = t.side(s.side);
  const connected = match.connection?.kind === 'open';
  const cpu = cpuMode(kit.modes);
  // Leaving for the CPU while arranging keeps the arrangement made so far (or the one sent).
  const current = match.phase;
  const arranged =
    s.phase !== 'arranging'
      ? undefined
      : current.kind === 'setup'
        ? { side: current.side, arrangement: current.setup.arrangement }
        : s.held !== null
          ? { side: s.side, arrangement: s.held }
          : undefined;

  if (s.seat === 'host' && s.opponent === 'none' && s.phase === 'arranging' && match.room !== null) {
    out.push(inviteEl(env.roomUrl(match.room), kit));
  }
  if (s.cpuOffer !== null && (s.phase === 'arranging' || s.phase === 'playing')) {
    out.push(
      h(
        'div',
        // Announced once, when it comes (see `announce`): a role here would repeat at each redraw.
        { class: 'online-offer' },
        h('p', { text: t.t('onlineCpuOffer', { time: t.duration(s.cpuOffer) }) }),
        cpu === undefined
          ? null
          : button(t.t('onlineCpuOfferTake'), () => {
              match.abandon();
              env.leaveAddress();
              kit.startMode(cpu, arranged);
            }, { key: 'online-cpu-offer', class: 'btn primary wide' }),
        h('p', { class: 'hint', text: t.t('onlineCpuOfferWait') }),
      ),
    );
  }

  const err = match.lastError;
  // A stale version is mended by a sync, and a seat taken elsewhere is said on the connection's line.
  // So is an arrangement that went out as the game began without it (sent again after a lost
  // connection, or from a tab that took the seat back): the game is there to play.
  const stale = err?.code === 'not_arranging' && s.phase !== 'arranging';
  const refused = err !== null && err.code !== 'stale_version' && err.code !== 'replaced' && !stale ? msg(t.t('onlineRefused', { code: err.code }), 'warn') : null;

  switch (s.phase) {
    case 'arranging': {
      const p = match.phase;
      if (p.kind === 'setup') {
        out.push(
          h('h2', { text: t.t('onlineSetupTitle', { side }) }),
          h('p', { class: 'hint', text: t.t('onlineSetupHint') }),
          kit.notice(),
          refused,
          kit.setupTools(match, p.setup),
          // Once the friend has confirmed, confirming starts the game: no waiting to announce.
          button(t.t(s.opponentReady ? 'confirm' : 'onlineConfirm'), () => {
            const why = connected ? 'onlineConfirmFailed' : match.connection?.kind === 'replaced' ? 'onlineReplacedMove' : 'onlineNotConnected';
            if (!match.confirmSetup()) kit.note((t) => t.t(why), 'warn');
            kit.update();
          }, { key: 'confirm', class: 'btn primary wide' }),
          // Under the button, not above it: the news comes when it will, often as the player
          // reaches for "confirm", and the button must not slide from under the pointer.
          s.opponentReady ? friendNews(t.t('onlineFriendReady')) : null,
        );
      } else {
        out.push(
          h('h2', { text: t.t('onlineWaitingTitle') }),
          h('p', { class: 'hint', text: t.t(waitingHint(s)) }),
          match.queued ? msg(t.t('onlineQueued'), 'warn') : null,
          // A friend who has not come yet is not arranging: the line on who is here says so.
          s.opponent === 'none' ? null : msg(t.t(s.opponentReady ? 'onlineFriendReady' : 'onlineFriendArranging')),
          offline(focusIfLost(button(t.t('onlineRearrange'), () => {
            match.unarrange();
            kit.update();
          }, { key: 'unarrange', class: 'btn wide', disabled: !connected && !match.queued }))),
        );
      }
      if (s.seat === 'host' && s.opponent === 'none' && cpu !== undefined) {
        out.push(button(t.t('onlineCpuNow'), () => {
          // Closes the room, so the link already sent says the game will not happen.
          match.abandon();
          env.leaveAddress();
          kit.startMode(cpu, arranged);
        }, { key: 'online-cpu-now', class: 'btn wide' }));
      }
      break;
    }
    case 'playing': {
      const p = match.phase;
      const lost = match.undeliveredMove;
      const mine = s.view?.to_move === s.side;
      const title = mine ? (p.kind === 'turn' ? 'onlineYourTurn' : 'onlineSending') : 'onlineTheirTurn';
      // Whose move, under the badge of the side to move, as the other modes write it ("your
      // move (sente)"): the badge before the words had read "sente your turn" in the strip.
      const mover = mine ? s.side : opponent(s.side);
      const moverName = t.side(mover);
      const heading = t.t('titleWithSide', { title: t.t(title), side: moverName });
      out.push(
        h('h2', {}, ...withBadge(heading, moverName, sideBadge(mover, moverName))),
        // A friend who is away is not thinking: the line on who is here says the game waits.
        mine || s.opponent !== 'away' ? h('p', { class: 'hint', text: t.t(mine ? 'onlineTurnHint' : 'onlineTheirHint') }) : null,
        kit.notice(),
        refused,
        lost === null ? null : msg(t.t('onlineMoveUndelivered', lost), 'warn'),
        kit.reports(match.reports),
      );
      if (s.view !== null) out.push(kit.removed(s.view));
      out.push(offline(kit.resign(match)));
      break;
    }
    case 'finished': {
      const status = s.view?.status;
      out.push(kit.result(status, s.side), kit.reports(match.reports));
      if (s.view !== null) out.push(...kit.revealedRemoved(s.view));
      if (s.rematch.opponent && !s.rematch.you) out.push(friendNews(t.t('onlineRematchAsked')));
      if (s.rematch.you) {
        out.push(msg(t.t('onlineRematchSent')));
        // Nobody is there to accept: say so, and where the way out is.
        if (s.opponent !== 'connected') out.push(msg(t.t('onlineRematchFriendAway'), 'warn'));
      }
      else {
        out.push(offline(button(t.t('onlineRematch'), () => {
          match.restart();
          kit.update();
        }, { key: 'rematch', class: 'btn primary wide', disabled: !connected })));
      }
      break;
    }
    case 'closed':
      out.push(msg(t.t(s.closed === 'abandoned' ? 'onlineClosedAbandoned' : 'onlineClosedExpired'), 'warn'));
      break;
  }
  if (s.phase === 'playing' || s.phase === 'finished') out.push(kit.log(match));
  out.push(footer);
  return out;
}

/** What the page says while it waits to reconnect. */
function waitingText(t: I18n, c: Extract<Connection, { kind: 'waiting' }>): string {
  if (c.offline) return t.t('onlineOffline');
  return t.t(c.restarting ? 'onlineRestarting' : 'onlineReconnecting', { seconds: Math.ceil(c.retryMs / 1000) });
}

function connectionEl(match: OnlineMatch, kit: PanelKit): Node {
  const t = kit.i18n;
  const c = match.connection;
  const s = match.state;
  let text: string;
  let cls: string;
  switch (c?.kind ?? 'connecting') {
    case 'open':
      text = t.t('onlineConnected');
      cls = 'open';
      break;
    case 'waiting':
      text = c?.kind === 'waiting' ? waitingText(t, c) : '';
      cls = 'waiting';
      break;
    case 'stopped':
      text = t.t('onlineStopped');
      cls = 'stopped';
      break;
    case 'replaced':
      text = t.t('onlineReplaced');
      cls = 'stopped';
      break;
    default:
      text = t.t('onlineConnecting');
      cls = 'connecting';
  }
  const presence =
    s === null || c?.kind !== 'open'
      ? null
      : s.opponent === 'none'
        ? t.t('onlineOpponentNone')
        : s.opponent === 'connected'
          ? t.t('onlineOpponentConnected')
          : s.arriving
            ? t.t('onlineOpponentArriving')
            : awayText(t, match);
  return h(
    'div',
    // Not a live region: it is drawn anew at each redraw; `announce` says what changes.
    { class: 'online-status', attrs: { 'data-connection': cls } },
    h('p', { attrs: { id: CONNECTION_ID } }, h('span', { class: `online-dot ${cls}`, attrs: { 'aria-hidden': 'true' } }), ' ', text),
    c?.kind === 'waiting' ? button(t.t('onlineReconnectNow'), () => match.reconnectNow(), { key: 'reconnect', class: 'btn ghost' }) : null,
    c?.kind === 'replaced' ? button(t.t('onlinePlayHere'), () => match.takeSeatBack(), { key: 'play-here', class: 'btn primary' }) : null,
    s === null ? null : h('p', { class: 'small', text: t.t('onlineYouPlay', { side: t.side(s.side) }) }),
    presence === null ? null : h('p', { class: 'small', attrs: { 'data-presence': s?.opponent ?? '' }, text: presence }),
  );
}

/**
 * The outcome of the last "copy" of a room's URL. It belongs to the invitation, so it goes away
 * with it when the friend arrives instead of lingering in the set-up panel.
 */
let copied: { readonly url: string; readonly ok: boolean } | null = null;

function inviteEl(url: string, kit: PanelKit): Node {
  const t = kit.i18n;
  const input = h('input', { class: 'online-url', attrs: { type: 'text', readonly: '', value: url, 'aria-label': t.t('onlineUrlLabel') } });
  input.dataset['focusKey'] = 'room-url';
  input.addEventListener('focus', () => input.select());
  const copy = button(t.t('onlineCopy'), () => {
    const done = (ok: boolean): void => {
      if (!ok) input.select();
      copied = { url, ok };
      kit.say(t.t(ok ? 'onlineCopied' : 'onlineCopyFailed'));
      kit.update();
    };
    if (navigator.clipboard === undefined) done(false);
    else navigator.clipboard.writeText(url).then(() => done(true), () => done(false));
  }, { key: 'copy-url', class: 'btn primary' });
  const share =
    typeof navigator.share === 'function'
      ? button(t.t('onlineShare'), () => {
          navigator.share({ title: t.t('appTitle'), text: t.t('onlineShareText'), url }).catch(() => {
            // Cancelled by the player, or refused: the URL is still there to copy.
          });
        }, { key: 'share-url', class: 'btn' })
      : null;
  return h(
    'div',
    { class: 'online-invite' },
    h('h3', { text: t.t('onlineShareTitle') }),
    h('label', { class: 'online-url-label' }, h('span', { class: 'sr-only', text: t.t('onlineUrlLabel') }), input),
    h('div', { class: 'button-row' }, copy, share),
    copied?.url === url
      ? h('p', { class: `notice ${copied.ok ? 'info' : 'warn'}`, text: t.t(copied.ok ? 'onlineCopied' : 'onlineCopyFailed'), attrs: { 'data-copy-result': '' } })
      : null,
  );
}

/** Narrows a match to the online one (the panel only draws those). */
export function isOnline(match: Match): match is OnlineMatch {
  return 'stage' in match && 'takeAnnouncements' in match;
}

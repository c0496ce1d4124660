/**
 * A game against a friend through the server: the `Match` the page draws, fed by the room's
 * client. No curtains (each player has their own screen); the board shows only this player's
 * view, which is all the server sends. Arranging reuses `SetupState`; every rule stays with the
 * engine (arranging) and the referee (playing).
 */
import type { Arrangement, Destinations, Engine, Side, Square, Status, View } from '../engine';
import { loadPreviousArrangement, pressOnTurn, type Match, type Phase, type TurnEvent } from '../state/match';
import type { Report } from '../state/messages';
import type { Setups } from '../state/review';
import { sameArrangement, SetupState, type ArrangementStore, type DraftSink, type SetupDraftStore } from '../state/setup';
import { givenUp, RoomClient, type ClientDeps, type Connection, type RoomState, type SocketLike, type Timers } from './client';
import { createRoom, joinRoom, lookRoom, SeatStore, type Http, type RoomLook } from './lobby';
import type { Legal, SeatAnswer } from './protocol';

/** What an online match needs from the browser (fakes in tests). */
export interface OnlineEnv {
  readonly http: Http;
  /** Opens `/ws/rooms/{id}`. */
  readonly socket: (room: string) => SocketLike;
  readonly timers: Timers;
  readonly seats: SeatStore;
  /** Shows the room in the address bar (so a refresh comes back), or removes it (null). */
  readonly setAddress: (room: string | null) => void;
  /** Where the arrangement being made is kept, so a reload finds it again. */
  readonly drafts?: SetupDraftStore;
  /** Calls back when the device is online again (a network change); returns a remover. */
  readonly onOnline?: (fn: () => void) => () => void;
  /** Calls back when the device goes offline; returns a remover. */
  readonly onOffline?: (fn: () => void) => () => void;
  /** Calls back when the page is shown again (a tab or phone brought back); returns a remover. */
  readonly onVisible?: (fn: () => void) => () => void;
  /** Whether the device says it has a network. */
  readonly isOnline?: () => boolean;
}

/** Where the online match is, before and around the room's own phases. */
export type Stage =
  | { readonly kind: 'creating' }
  | { readonly kind: 'looking' }
  /** A visitor with no seat here: `open` offers "Join"; the others explain why not. */
  | { readonly kind: 'invited'; readonly look: RoomLook }
  | { readonly kind: 'joining' }
  | { readonly kind: 'seated' }
  | { readonly kind: 'failed'; readonly code: string; readonly retry: 'create' | 'look' | 'join' };

function waitingView(side: Side, arrangement: Arrangement): View {
  const pieces: Record<Square, { side: Side; kind: string }> = {};
  for (const [sq, kind] of Object.entries(arrangement)) pieces[sq] = { side, kind };
  return {
    side,
    to_move: 'sente',
    plies_without_battle: 0,
    status: { state: 'ongoing' },
    pieces,
    removed: { own: [], enemy_count: 0 },
    history: [],
  };
}

/** Where the piece on `square` may go, from the legal moves the server sent (the referee's list). */
function destinationsFrom(view: View, legal: Legal, square: Square): Destinations {
  const moves: Square[] = [];
  const attacks: Square[] = [];
  for (const [from, to] of legal) {
    if (from !== square) continue;
    const there = view.pieces[to];
    if (there === undefined) moves.push(to);
    else if (there.side !== view.side) attacks.push(to);
  }
  return { moves, attacks };
}

export class OnlineMatch implements Match {
  private stageNow: Stage;
  private roomId: string | null;
  private client: RoomClient | null = null;
  private offClient: () => void = () => {};
  private setup: SetupState | null = null;
  /** Where the arrangement being made is kept for a reload, until it is confirmed. */
  private draft: DraftSink | undefined;
  private setupGame = 0;
  /** An `arrange` went out and its `ready` has not come back yet. */
  private arrangeSent: Arrangement | null = null;
  /**
   * Confirmed while the connection was down: sent as soon as it is back. `wentOut`: it went out
   * once already, on a connection lost before its answer (the server may hold it).
   */
  private arrangeQueued: { readonly arrangement: Arrangement; readonly wentOut: boolean } | null = null;
  /**
   * Taken back while the connection was down, after it had gone out unanswered: the server may
   * hold it, and is asked to let it go once the page has caught up.
   */
  private withdrawOnReturn = false;
  /**
   * A move sent whose answer has not come. `cut`: its connection was lost before the answer, so
   * whether the server has it is known only once the page has caught up again.
   */
  private moveInFlight: {
    readonly from: Square;
    readonly to: Square;
    readonly plies: number;
    /** The refusal standing when it was sent: not this move's. */
    readonly errorBefore: { readonly code: string } | null;
    cut: boolean;
  } | null = null;
  /** A move the server never received (its connection was lost), until the next ply. */
  private undelivered: { readonly from: Square; readonly to: Square; readonly plies: number } | null = null;
  private selection: { square: Square; destinations: Destinations } | null = null;
  private lastReports: readonly Report[] = [];
  private readonly announcements: Report[][] = [];
  private readonly listeners = new Set<() => void>();
  private disposed = false;
  private readonly offOnlineRetry: () => void;

  /**
   * `room` null: creates a new room (this page takes the host seat). Otherwise opens that room:
   * with a seat token kept in this browser it reconnects to the seat; without one it looks
   * whether the room can be joined.
   */
  constructor(
    private readonly engine: Engine,
    private readonly store: ArrangementStore,
    private readonly nextSeed: () => number,
    private readonly env: OnlineEnv,
    room: string | null,
  ) {
    this.roomId = room;
    // A step that failed for want of a network is tried again once the browser is back online
    // (the seated client reconnects on its own, see `seat`).
    this.offOnlineRetry =
      env.onOnline?.(() => {
        if (this.stageNow.kind === 'failed' && this.stageNow.code === 'network') this.retry();
      }) ?? (() => {});
    if (room === null) {
      this.stageNow = { kind: 'creating' };
      void this.create();
    } else {
      const seat = env.seats.load(room);
      if (seat !== null) {
        this.stageNow = { kind: 'seated' };
        // Opened from the start screen's way back, the address names the room again.
        env.setAddress(room);
        this.seat(seat.token);
      } else {
        this.stageNow = { kind: 'looking' };
        void this.look();
      }
    }
  }

  // ---- online facts for the page -------------------------------------------------------------

  get stage(): Stage {
    return this.stageNow;
  }

  get room(): string | null {
    return this.roomId;
  }

  get state(): RoomState | null {
    return this.client?.state ?? null;
  }

  get connection(): Connection | null {
    return this.client?.connection ?? null;
  }

  get canSend(): boolean {
    return this.connection?.kind === 'open';
  }

  get lastError(): { readonly code: string } | null {
    return this.client?.lastError ?? null;
  }

  /** The held arrangement is on its way or held by the server: waiting for the game to start. */
  get waiting(): boolean {
    const s = this.state;
    return s !== null && s.phase === 'arranging' && (s.youReady || this.arrangeSent !== null || this.arrangeQueued !== null);
  }

  /** Confirmed while the connection is down: it goes out once the connection is back. */
  get queued(): boolean {
    return this.waiting && this.arrangeQueued !== null;
  }

  /** Reports of plies not yet announced, oldest first (the page reads them out once). */
  takeAnnouncements(): Report[][] {
    return this.announcements.splice(0);
  }

  /** "Re-arrange" while waiting: withdraws the held arrangement. */
  unarrange(): boolean {
    if (!this.waiting) return false;
    if (this.arrangeQueued !== null) {
      // Not sent since the connection went: only one that went out before may be held there.
      this.withdrawOnReturn = this.arrangeQueued.wentOut;
      this.arrangeQueued = null;
      this.changed();
      return true;
    }
    if (!(this.client?.unarrange() ?? false)) return false;
    this.arrangeSent = null;
    // Taken back from the server, it is the one being made again: a reload must find it here.
    if (this.setup !== null) this.draft?.save(this.setup.arrangement);
    this.changed();
    return true;
  }

  /** "Join" on the invitation. */
  join(): void {
    if (this.stageNow.kind !== 'invited' || this.stageNow.look !== 'open') return;
    void this.doJoin();
  }

  /** Tries the failed step again. */
  retry(): void {
    const s = this.stageNow;
    if (s.kind !== 'failed') return;
    if (s.retry === 'create') void this.create();
    else if (s.retry === 'look') void this.look();
    else void this.doJoin();
  }

  /** "New game against the CPU (ends this game)": closes the room for both. */
  abandon(): boolean {
    if (!(this.client?.abandon() ?? false)) return false;
    // The room closes for both: no seat to offer a way back to.
    if (this.roomId !== null) this.env.seats.forget(this.roomId);
    return true;
  }

  /** Reconnects at once (the browser says it is online again). */
  reconnectNow(): void {
    this.client?.reconnectNow();
  }

  /** Plays here again after another tab or device took the seat. */
  takeSeatBack(): void {
    this.client?.takeSeatBack();
  }

  // ---- Match ---------------------------------------------------------------------------------

  get phase(): Phase {
    const s = this.state;
    if (s === null) return { kind: 'moved', side: 'sente' };
    switch (s.phase) {
      case 'arranging': {
        const setup = this.setupFor(s);
        if (this.waiting) return { kind: 'moved', side: s.side };
        return { kind: 'setup', side: s.side, setup };
      }
      case 'playing': {
        const view = s.view;
        const myTurn = view !== null && view.to_move === s.side && s.legal.length > 0 && this.moveInFlight === null;
        return { kind: myTurn ? 'turn' : 'moved', side: s.side };
      }
      case 'finished':
        return { kind: 'over', side: s.side, status: s.view?.status ?? { state: 'ongoing' } };
      case 'closed':
        return { kind: 'moved', side: s.side };
    }
  }

  get viewer(): Side | null {
    return this.state?.side ?? null;
  }

  get selected(): { readonly square: Square; readonly destinations: Destinations } | null {
    return this.phase.kind === 'turn' ? this.selection : null;
  }

  get reports(): readonly Report[] {
    const s = this.state;
    return s !== null && (s.phase === 'playing' || s.phase === 'finished') ? s.reports : [];
  }

  /** This player's held arrangement; never the opponent's (the server does not send it). */
  arrangement(side: Side): Arrangement | undefined {
    const s = this.state;
    if (s === null || side !== s.side) return undefined;
    return s.held ?? this.arrangeSent ?? this.arrangeQueued?.arrangement ?? undefined;
  }

  view(side: Side): View | null {
    const s = this.state;
    if (s === null || side !== s.side) return null;
    if (s.view !== null) return s.view;
    const held = this.arrangement(side);
    return s.phase === 'arranging' && this.waiting && held !== undefined ? waitingView(s.side, held) : null;
  }

  setups(): Setups | null {
    const s = this.state;
    return s !== null && s.phase === 'finished' ? s.setups : null;
  }

  legalMoves(): [Square, Square][] {
    const s = this.state;
    if (s === null || this.phase.kind !== 'turn') return [];
    return s.legal.map(([a, b]) => [a, b]);
  }

  reveal(): void {
    // No curtain online.
  }

  loadPrevious(): boolean {
    return loadPreviousArrangement(this.phase, this.store);
  }

  /**
   * "Confirm and wait": sends the arrangement; the server holds it until the game can start.
   * With the connection down it waits here and goes out once the connection is back; until
   * then "re-arrange" takes it back as well.
   */
  confirmSetup(): boolean {
    const p = this.phase;
    if (p.kind !== 'setup' || this.client === null) return false;
    // A page that let the game go to another tab keeps nothing to send: the other tab plays.
    if (givenUp(this.client.connection)) return false;
    const arrangement = p.setup.arrangement;
    if (this.engine.validate(p.side, arrangement).length > 0) return false;
    if (this.client.connection.kind === 'open') {
      if (!this.client.arrange(arrangement)) return false;
      this.arrangeSent = arrangement;
      // The server holds it now: a reload finds it there. (One queued below is kept here.)
      this.draft?.clear(arrangement);
    } else {
      this.arrangeQueued = { arrangement, wentOut: false };
    }
    // It replaces whatever the server may hold (the server takes a new one in its place).
    this.withdrawOnReturn = false;
    this.store.save(p.side, arrangement);
    this.changed();
    return true;
  }

  press(square: Square): TurnEvent {
    const s = this.state;
    if (s === null || s.view === null || this.phase.kind !== 'turn') return { type: 'ignored' };
    const view = s.view;
    const held = this.selection;
    const { next, result } = pressOnTurn(view, held, square, (sq) => destinationsFrom(view, s.legal, sq));
    this.selection = next;
    if (result.type !== 'play') return result;
    // The server answers with the move (or an error); until then the page waits. A move that
    // cannot go out keeps its piece chosen, to be played again once the connection is back.
    if (!(this.client?.move(result.from, result.to) ?? false)) {
      this.selection = held;
      return { type: 'unsent', why: this.connection?.kind === 'replaced' ? 'replaced' : 'offline' };
    }
    this.moveInFlight = { from: result.from, to: result.to, plies: view.history.length, errorBefore: this.client?.lastError ?? null, cut: false };
    this.undelivered = null;
    return { type: 'sent' };
  }

  handOver(): void {
    // Nothing to hand over: the friend has their own screen.
  }

  /** Only where it can reach the server: a press that went nowhere said nothing. */
  get canResign(): boolean {
    return this.state?.phase === 'playing' && this.canSend;
  }

  /** The player's move that never reached the server (the connection was lost), to play again. */
  get undeliveredMove(): { readonly from: Square; readonly to: Square } | null {
    return this.undelivered;
  }

  /** Resigns; the result comes back from the server (`ended`), so nothing is known yet. */
  resign(): Status | null {
    if (!this.canResign) return null;
    this.client?.resign();
    return null;
  }

  /** "Swap sides and play again": asks for a rematch; it starts when the friend asks too. */
  restart(): void {
    const s = this.state;
    if (s === null || s.phase !== 'finished' || s.rematch.you) return;
    this.client?.rematch();
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  dispose(): void {
    this.disposed = true;
    this.offOnlineRetry();
    this.dropClient();
    this.listeners.clear();
  }

  // ---- inside --------------------------------------------------------------------------------

  private setupFor(s: RoomState): SetupState {
    if (this.setup === null || this.setupGame !== s.game || this.setup.side !== s.side) {
      // A reload comes back to the arrangement the server holds, or else to the one being made.
      const place = `room:${this.roomId ?? ''}:${s.game}`;
      const draft = this.env.drafts?.loadFor(place, s.side) ?? null;
      this.draft = this.env.drafts?.open(place, s.side);
      this.setup = new SetupState(this.engine, s.side, this.nextSeed(), this.draft);
      this.setupGame = s.game;
      const held = s.held ?? draft;
      if (held !== null) this.setup.begin(held);
    }
    return this.setup;
  }

  private async create(): Promise<void> {
    this.stageNow = { kind: 'creating' };
    this.changed();
    const answer = await createRoom(this.env.http);
    if (this.disposed) return;
    if (!answer.ok) {
      this.stageNow = { kind: 'failed', code: answer.code, retry: 'create' };
      this.changed();
      return;
    }
    this.took(answer.value);
  }

  private async look(): Promise<void> {
    const room = this.roomId;
    if (room === null) return;
    this.stageNow = { kind: 'looking' };
    this.changed();
    const answer = await lookRoom(this.env.http, room);
    if (this.disposed) return;
    this.stageNow = answer.ok ? { kind: 'invited', look: answer.value } : { kind: 'failed', code: answer.code, retry: 'look' };
    this.changed();
  }

  private async doJoin(): Promise<void> {
    const room = this.roomId;
    if (room === null) return;
    this.stageNow = { kind: 'joining' };
    this.changed();
    const answer = await joinRoom(this.env.http, room);
    if (this.disposed) return;
    if (answer.ok) {
      this.took(answer.value);
      return;
    }
    const code = answer.code;
    if (code === 'room_full') this.stageNow = { kind: 'invited', look: 'full' };
    else if (code === 'room_closed') this.stageNow = { kind: 'invited', look: 'closed' };
    else if (code === 'no_room') this.stageNow = { kind: 'invited', look: 'missing' };
    else this.stageNow = { kind: 'failed', code, retry: 'join' };
    this.changed();
  }

  /** A seat was given: keep its token first (it cannot be asked for again), then connect. */
  private took(answer: SeatAnswer): void {
    this.env.seats.save(answer);
    this.roomId = answer.room;
    this.env.setAddress(answer.room);
    this.stageNow = { kind: 'seated' };
    this.seat(answer.token);
    this.changed();
  }

  private seat(token: string): void {
    const room = this.roomId;
    if (room === null) return;
    const deps: ClientDeps = { connect: () => this.env.socket(room), timers: this.env.timers, ...(this.env.isOnline ? { online: this.env.isOnline } : {}) };
    const client = new RoomClient(token, deps);
    this.client = client;
    const offChange = client.onChange(() => this.fromClient());
    const offOnline = this.env.onOnline?.(() => client.reconnectNow()) ?? (() => {});
    const offOffline = this.env.onOffline?.(() => client.connectionLost()) ?? (() => {});
    const offVisible = this.env.onVisible?.(() => client.checkConnection()) ?? (() => {});
    this.offClient = () => {
      offChange();
      offOnline();
      offOffline();
      offVisible();
    };
  }

  private fromClient(): void {
    const c = this.client;
    if (c === null) return;
    const s = c.state;
    this.followMove(c);
    if (s !== null) {
      // Sent on a connection that was lost before the server said it held it: it goes out again
      // once the connection is back (the server may have it: the page then learns so first).
      const reconnecting = c.connection.kind !== 'open' && !givenUp(c.connection);
      if (this.arrangeSent !== null && reconnecting && s.phase === 'arranging' && !s.youReady && this.arrangeQueued === null) {
        this.arrangeQueued = { arrangement: this.arrangeSent, wentOut: true };
        // Kept for a reload meanwhile, as an arrangement being made is (its draft went when it
        // was sent).
        this.draft?.save(this.arrangeSent);
      }
      if (s.youReady || c.lastError !== null || s.phase !== 'arranging' || c.connection.kind !== 'open') {
        this.arrangeSent = null;
      }
      // Held by the server already (the same one: a player may have taken it back and confirmed
      // another while the connection was down, which then replaces it).
      const held = s.youReady && s.held !== null && this.arrangeQueued !== null && sameArrangement(s.held, this.arrangeQueued.arrangement);
      if (this.arrangeQueued !== null && (s.phase !== 'arranging' || held)) this.arrangeQueued = null;
      // Back online after confirming without a connection: the arrangement goes out now, once
      // the events missed meanwhile are in (the game may have started without it).
      const queued = this.arrangeQueued?.arrangement ?? null;
      if (queued !== null && c.caughtUp && c.arrange(queued)) {
        this.arrangeQueued = null;
        this.arrangeSent = queued;
        this.draft?.clear(queued);
      }
      if (this.withdrawOnReturn && c.caughtUp) {
        // The server got the one taken back after all: it lets it go, and the player goes on
        // with the arrangement being made.
        if (s.phase === 'arranging' && s.youReady && this.arrangeQueued === null) c.unarrange();
        this.withdrawOnReturn = false;
      }
      if (s.reports !== this.lastReports) {
        this.lastReports = s.reports;
        if (s.reports.length > 0) this.announcements.push([...s.reports]);
      }
      if (s.view === null || s.phase !== 'playing') this.selection = null;
    }
    // A closed room (abandoned, expired) has no seat to come back to.
    if (s?.phase === 'closed' && this.roomId !== null) this.env.seats.forget(this.roomId);
    const err = c.lastError?.code;
    if (c.connection.kind === 'stopped' && (err === 'bad_token' || err === 'no_room' || err === 'room_closed')) {
      // The seat is gone (a room that expired while this page slept, a token of another
      // browser's): what stood on the screen is no game any more. Forget the token, and show the
      // room as a visitor sees it: a token refused may still leave a seat to join.
      if (this.roomId !== null) this.env.seats.forget(this.roomId);
      this.dropClient();
      if (err === 'bad_token') {
        void this.look();
        return;
      }
      this.stageNow = { kind: 'invited', look: err === 'no_room' ? 'missing' : 'closed' };
    }
    this.changed();
  }

  /** What became of the move in flight: played, refused, or lost with its connection. */
  private followMove(c: RoomClient): void {
    const s = c.state;
    const plies = s?.view?.history.length ?? 0;
    if (this.undelivered !== null && (s?.phase !== 'playing' || plies !== this.undelivered.plies)) this.undelivered = null;
    const flight = this.moveInFlight;
    if (flight === null) return;
    const refused = c.lastError !== null && c.lastError !== flight.errorBefore;
    // A page that let the seat go learns nothing more: the tab that took it plays on.
    if (s === null || s.phase !== 'playing' || plies > flight.plies || refused || givenUp(c.connection)) {
      this.moveInFlight = null;
    } else if (c.connection.kind !== 'open') {
      flight.cut = true;
    } else if (flight.cut && c.caughtUp) {
      // Back with everything missed applied, and the move is not among the plies: it never
      // arrived. The player's turn again, told why.
      this.moveInFlight = null;
      this.undelivered = { from: flight.from, to: flight.to, plies };
    }
  }

  private dropClient(): void {
    const client = this.client;
    this.offClient();
    this.offClient = () => {};
    this.client = null;
    this.selection = null;
    client?.dispose();
  }

  private changed(): void {
    for (const l of [...this.listeners]) l();
  }
}

/**
 * The two-players-on-one-device match: setup behind a curtain for each side, then turns, each
 * behind a curtain, and the end with everything revealed. Holds no rule: the engine decides
 * destinations, battles and the end.
 */
import {
  opponent,
  type Arrangement,
  type Destinations,
  type Engine,
  type EngineGame,
  type KindId,
  type Ply,
  type Side,
  type Square,
  type Status,
  type View,
} from '../engine';
import type { MessageKey } from '../i18n';
import { reportLastPly, reportPly, type Report } from './messages';
import type { CpuGameStore } from '../cpu/saved';
import type { ResultStore } from './results';
import type { Setups } from './review';
import { pliesOf, replayPlies, type LocalGameStore, type SavedLocalGame } from './saved';
import { ArrangementStore, SetupState, type SetupDraftStore } from './setup';

export type Phase =
  | { readonly kind: 'setup-curtain'; readonly side: Side }
  /** `note`, if any, says why the player arranges again (a kept game that could not go on). */
  | { readonly kind: 'setup'; readonly side: Side; readonly setup: SetupState; readonly note?: MessageKey }
  | { readonly kind: 'turn-curtain'; readonly side: Side }
  | { readonly kind: 'turn'; readonly side: Side }
  | { readonly kind: 'moved'; readonly side: Side }
  /** The viewer watches the board while the opponent (the CPU) decides; `note` says so. */
  | { readonly kind: 'waiting'; readonly side: Side; readonly note: MessageKey }
  | { readonly kind: 'over'; readonly side: Side; readonly status: Status };

export type TurnEvent =
  | { readonly type: 'ignored' }
  | { readonly type: 'selected'; readonly square: Square; readonly destinations: Destinations }
  | { readonly type: 'deselected' }
  /**
   * A move asked for that could not go out (online): nothing played. `offline`: the connection is
   * down; `replaced`: another tab or device took the seat.
   */
  | { readonly type: 'unsent'; readonly why: 'offline' | 'replaced' }
  /** A move gone out to the referee (online), its answer still to come. */
  | { readonly type: 'sent' }
  | { readonly type: 'moved'; readonly ply: Ply; readonly reports: readonly Report[]; readonly status: Status };

/**
 * What the page needs from a match, whatever drives it: this one-device match, and later a match
 * against the CPU or a friend online (which skip the curtains and may change on their own: they
 * call the `onChange` listeners so the page redraws).
 */
export interface Match {
  readonly phase: Phase;
  /** Who is looking at the screen now; null while a curtain is down. */
  readonly viewer: Side | null;
  readonly selected: { readonly square: Square; readonly destinations: Destinations } | null;
  readonly reports: readonly Report[];
  arrangement(side: Side): Arrangement | undefined;
  view(side: Side): View | null;
  /** Both arrangements as the game started, once it is over (to look back over it); else null. */
  setups(): Setups | null;
  legalMoves(): [Square, Square][];
  reveal(): void;
  /**
   * Calls up the arrangement last confirmed in a CPU or online game for the side setting up;
   * absent where that would show one player another's arrangement (two people at one device).
   */
  loadPrevious?(): boolean;
  confirmSetup(): boolean;
  press(square: Square): TurnEvent;
  handOver(): void;
  /** Whether `resign` would end a game now (there is a game, and it is on). */
  readonly canResign: boolean;
  resign(): Status | null;
  restart(): void;
  /** Registers a listener for changes that do not come from the page's own calls. */
  onChange?(listener: () => void): () => void;
  /** Whether a move pressed now could go out (online: the connection is open); absent: always. */
  readonly canSend?: boolean;
  /** A warning that stands over the game while it lasts (it is no longer kept, say). */
  readonly caution?: MessageKey | undefined;
  dispose(): void;
}

/** What a mode's match is built from. */
export interface MatchContext {
  readonly engine: Engine;
  readonly store: ArrangementStore;
  /** The player's results against each CPU mode. */
  readonly results: ResultStore;
  /** The unfinished CPU game kept in the browser. */
  readonly cpuGames: CpuGameStore;
  /** The unfinished two-player game on this device kept in the browser. */
  readonly localGames: LocalGameStore;
  /** The arrangement being made, kept while it changes (not for two people at one device). */
  readonly drafts?: SetupDraftStore;
  /** Go on with the kept unfinished game of this mode instead of starting a new one. */
  readonly resume?: boolean;
  /** Seeds for automatic arrangements. */
  readonly random: () => number;
  /** An arrangement the player was making in another mode, to set up from instead of a new one. */
  readonly startWith?: CarriedArrangement;
  /** Resolves once every board shows the last move (see `BoardView.settled`). */
  readonly boardsSettled?: () => Promise<void>;
}

/** An arrangement as its side placed it (carried to the other side if the new mode needs that). */
export interface CarriedArrangement {
  readonly side: Side;
  readonly arrangement: Arrangement;
}

/** The viewer's own pieces in a view: square → kind. */
export function ownPieces(view: View): Record<Square, KindId> {
  const out: Record<Square, KindId> = {};
  for (const [sq, p] of Object.entries(view.pieces)) {
    if (p.side === view.side && p.kind !== undefined) out[sq] = p.kind;
  }
  return out;
}

/** A selected own piece and where it may go. */
export interface Selection {
  readonly square: Square;
  readonly destinations: Destinations;
}

/** What a press on a square during a turn does: a move to play, or a change of the selection. */
export type PressResult =
  | Exclude<TurnEvent, { readonly type: 'moved' }>
  | { readonly type: 'play'; readonly from: Square; readonly to: Square };

/**
 * The one rule of pressing, shared by every mode: a destination of the selected piece moves it,
 * another own piece is selected instead (unless it cannot move), anything else lets go of the
 * selection. Returns the selection after the press (none once a move is asked for).
 */
export function pressOnTurn(
  view: View,
  selection: Selection | null,
  square: Square,
  destinationsOf: (square: Square) => Destinations,
): { readonly next: Selection | null; readonly result: PressResult } {
  if (selection !== null) {
    const { moves, attacks } = selection.destinations;
    if (moves.includes(square) || attacks.includes(square)) {
      return { next: null, result: { type: 'play', from: selection.square, to: square } };
    }
  }
  const piece = view.pieces[square];
  if (piece !== undefined && piece.side === view.side && selection?.square !== square) {
    const destinations = destinationsOf(square);
    // A piece with nowhere to go (a mine, the flag, one boxed in) is reported but not held: held,
    // the next press on it would only "let go" of a choice that never was one.
    const movable = destinations.moves.length + destinations.attacks.length > 0;
    return { next: movable ? { square, destinations } : null, result: { type: 'selected', square, destinations } };
  }
  return { next: null, result: selection === null ? { type: 'ignored' } : { type: 'deselected' } };
}

/** Loads the arrangement last confirmed in a CPU or online game into the side setting up. */
export function loadPreviousArrangement(phase: Phase, store: ArrangementStore): boolean {
  if (phase.kind !== 'setup') return false;
  const saved = store.load(phase.side);
  return saved !== null && phase.setup.load(saved);
}

export class LocalMatch implements Match {
  private current: Phase = { kind: 'setup-curtain', side: 'sente' };
  private game: EngineGame | null = null;
  private readonly arrangements: { sente?: Arrangement; gote?: Arrangement } = {};
  private selection: { square: Square; destinations: Destinations } | null = null;
  private reportList: Report[] = [];
  /** Whether the kept game in the browser is this match's. */
  private keeping = false;
  /** The storage refused to keep the game at its last move. */
  private refused = false;
  /** Another tab's two-player game took the kept game's place: this one goes on unkept. */
  private keptElsewhere = false;

  /**
   * `kept` keeps the unfinished game for a reload to go on with, as `owner`'s (this tab's: another
   * tab's game there is neither overwritten by an older game nor cleared); with `resume` the match
   * starts from the game kept there (if it still replays) instead of new arrangements.
   */
  constructor(
    private readonly engine: Engine,
    private readonly nextSeed: () => number,
    private readonly kept?: LocalGameStore,
    resume = false,
    private readonly owner = '',
  ) {
    const saved = resume ? kept?.load() : null;
    if (saved !== null && saved !== undefined && !this.resume(saved)) {
      kept?.clear();
      // Said once the curtain lifts, to sente arranging the new game.
      this.droppedNote = 'keptGameUnreadable';
    }
  }

  /** Why the first arrangement is a new game: the kept one could not go on. */
  private droppedNote: MessageKey | undefined;

  /**
   * Goes on with a kept game behind the curtain of the side to move; false (and a new game) if it
   * does not replay: its arrangements are judged like any others, its moves must be legal and
   * announce the battles as they were.
   */
  private resume(saved: SavedLocalGame): boolean {
    const { sente, gote, moves } = saved;
    if (this.engine.validate('sente', sente).length > 0) return false;
    if (gote === null) {
      // Sente had confirmed; gote arranges again behind its curtain.
      this.arrangements.sente = sente;
      this.current = { kind: 'setup-curtain', side: 'gote' };
      this.keep(true);
      return true;
    }
    if (this.engine.validate('gote', gote).length > 0) return false;
    let game: EngineGame;
    try {
      game = this.engine.newGame(sente, gote);
    } catch {
      return false;
    }
    if (!replayPlies(game, moves)) {
      game.dispose();
      return false;
    }
    this.game = game;
    this.arrangements.sente = sente;
    this.arrangements.gote = gote;
    this.current = { kind: 'turn-curtain', side: game.toMove() };
    // Resumed here, the game is this tab's now.
    this.keep(true);
    return true;
  }

  /**
   * Keeps the game so far (while it goes on) for a reload, or forgets it once it is over or left.
   * A kept game of another match is only replaced once this one has a game to keep (`claim`: a
   * game begun or resumed); a later move of this one is not kept once another tab claimed the place.
   */
  private keep(claim = false): void {
    const { sente, gote } = this.arrangements;
    const ongoing = this.game !== null && this.game.status().state === 'ongoing' && gote !== undefined;
    // Between the two arrangements: sente's is kept, so a reload brings gote back to arranging.
    const between = this.game === null && gote === undefined && this.current.kind === 'setup-curtain' && this.current.side === 'gote';
    // Sente's arrangement alone never takes the place of a game kept there (the one "play again"
    // set aside, another tab's): only another arrangement kept alone.
    if (between && (this.kept?.load()?.gote ?? null) !== null) return;
    if (sente !== undefined && (ongoing || between)) {
      if (claim) this.keptElsewhere = false;
      if (this.keptElsewhere || this.kept === undefined) return;
      const game = { sente, gote: gote ?? null, moves: this.game === null ? [] : pliesOf(this.game) };
      const result = this.kept.save(game, this.owner, claim);
      // The storage may refuse it (full, blocked): tried again at the next move, and said meanwhile.
      this.refused = result === 'refused';
      this.keptElsewhere = result === 'taken';
      this.keeping = result !== 'taken';
    } else if (this.keeping) {
      this.kept?.clear(this.owner);
      this.keeping = false;
    }
  }

  get phase(): Phase {
    return this.current;
  }

  /** A warning that stands while the game goes on: it is not kept for a reload. */
  get caution(): MessageKey | undefined {
    if (this.current.kind === 'over' || this.game === null) return undefined;
    if (this.keptElsewhere) return 'localKeptElsewhere';
    return this.refused ? 'gameNotKept' : undefined;
  }

  /** Who is looking at the screen now; null while a curtain is down. */
  get viewer(): Side | null {
    switch (this.current.kind) {
      case 'setup-curtain':
      case 'turn-curtain':
        return null;
      default:
        return this.current.side;
    }
  }

  get selected(): { readonly square: Square; readonly destinations: Destinations } | null {
    return this.selection;
  }

  /** What the player looking now has been told (cleared at every curtain). */
  get reports(): readonly Report[] {
    return this.reportList;
  }

  /** The confirmed arrangement of a side, if any (hidden from the other side by the page). */
  arrangement(side: Side): Arrangement | undefined {
    return this.arrangements[side];
  }

  /** The view of `side`, once the game has started. */
  view(side: Side): View | null {
    return this.game?.view(side) ?? null;
  }

  setups(): Setups | null {
    const { sente, gote } = this.arrangements;
    return this.current.kind === 'over' && sente !== undefined && gote !== undefined ? { sente, gote } : null;
  }

  /** Legal moves of the side to move while its curtain is up (for tests and tools; the page does
   * not need it). None after the move: the other side's moves would tell the one still looking
   * where the other's planes and immobile pieces stand. */
  legalMoves(): [Square, Square][] {
    return this.current.kind === 'turn' ? (this.game?.legalMoves() ?? []) : [];
  }

  /** Lifts the curtain: the named side starts arranging or playing. */
  reveal(): void {
    const p = this.current;
    if (p.kind === 'setup-curtain') {
      const setup = new SetupState(this.engine, p.side, this.nextSeed());
      const note = this.droppedNote;
      this.droppedNote = undefined;
      this.current = note === undefined ? { kind: 'setup', side: p.side, setup } : { kind: 'setup', side: p.side, setup, note };
      this.reportList = [];
    } else if (p.kind === 'turn-curtain' && this.game !== null) {
      // What the side is told of the opponent's last ply, rebuilt from its view (also after a reload).
      this.reportList = reportLastPly(this.game.view(p.side));
      this.current = { kind: 'turn', side: p.side };
    }
  }

  /**
   * Confirms the arrangement of the side setting up. Not remembered, and no `loadPrevious`: the
   * arrangement saved in this browser is one person's (from CPU and online games), and with two
   * people at one device the second could call up the very arrangement the first just confirmed.
   * The match is not even given the store.
   */
  confirmSetup(): boolean {
    const p = this.current;
    if (p.kind !== 'setup') return false;
    const arrangement = p.setup.arrangement;
    if (this.engine.validate(p.side, arrangement).length > 0) return false;
    this.arrangements[p.side] = arrangement;
    const { sente, gote } = this.arrangements;
    if (sente !== undefined && gote !== undefined) {
      this.game?.dispose();
      this.game = this.engine.newGame(sente, gote);
      this.current = { kind: 'turn-curtain', side: 'sente' };
      this.keep(true);
    } else {
      this.current = { kind: 'setup-curtain', side: opponent(p.side) };
      this.keep(true);
    }
    this.reportList = [];
    return true;
  }

  /** A press on a square during a turn: select, re-select, deselect or move. */
  press(square: Square): TurnEvent {
    const p = this.current;
    const game = this.game;
    if (p.kind !== 'turn' || game === null) return { type: 'ignored' };
    const { next, result } = pressOnTurn(game.view(p.side), this.selection, square, (sq) =>
      game.destinations(p.side, sq),
    );
    this.selection = next;
    return result.type === 'play' ? this.move(p.side, game, result.from, result.to) : result;
  }

  private move(side: Side, game: EngineGame, from: Square, to: Square): TurnEvent {
    const before = ownPieces(game.view(side));
    const answer = game.play(from, to);
    this.selection = null;
    const reports = reportPly(side, answer.ply, before);
    this.reportList = reports;
    this.current =
      answer.status.state === 'ongoing'
        ? { kind: 'moved', side }
        : { kind: 'over', side, status: answer.status };
    this.keep();
    return { type: 'moved', ply: answer.ply, reports, status: answer.status };
  }

  /** After looking at the result of a move: the curtain comes down for the other side. */
  handOver(): void {
    const p = this.current;
    if (p.kind !== 'moved') return;
    this.reportList = [];
    this.current = { kind: 'turn-curtain', side: opponent(p.side) };
  }

  get canResign(): boolean {
    const p = this.current;
    return (p.kind === 'turn' || p.kind === 'moved') && this.game !== null;
  }

  /** The player looking now resigns. */
  resign(): Status | null {
    const p = this.current;
    if (!this.canResign || this.game === null) return null;
    const status = this.game.resign(p.side);
    this.selection = null;
    this.current = { kind: 'over', side: p.side, status };
    this.keep();
    return status;
  }

  /** Back to the arrangements of a new game. */
  restart(): void {
    this.game?.dispose();
    this.game = null;
    delete this.arrangements.sente;
    delete this.arrangements.gote;
    this.selection = null;
    this.reportList = [];
    this.current = { kind: 'setup-curtain', side: 'sente' };
    this.keep();
  }

  /**
   * Leaving the match (another mode, or the start screen). An unfinished game stays kept: the
   * start screen offers to go on with it, and a new two-player game takes its place once it begins.
   */
  dispose(): void {
    this.game?.dispose();
    this.game = null;
  }
}

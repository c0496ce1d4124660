/**
 * A match against the CPU on this device: no curtain (only the human looks at the screen), the
 * human arranges with the same tools as in the one-device match, the CPU's deployment and moves
 * come from the CPU worker, which is only ever given the CPU's own view. The page is only ever
 * given the human's view, so no enemy kind reaches it before the end.
 */
import {
  opponent,
  type Arrangement,
  type Destinations,
  type Engine,
  type EngineGame,
  type KindId,
  type Side,
  type Square,
  type Status,
  type View,
} from '../engine';
import {
  loadPreviousArrangement,
  ownPieces,
  type CarriedArrangement,
  pressOnTurn,
  type Match,
  type Phase,
  type TurnEvent,
} from '../state/match';
import type { MessageKey } from '../i18n';
import { reportPly, type Report } from '../state/messages';
import type { Setups } from '../state/review';
import { pliesOf, replayPlies, replayPly, type SavedPly } from '../state/saved';
import { ArrangementStore, SetupState, type DraftSink } from '../state/setup';
import type { CpuPlayer } from './client';
import type { CpuLevel } from './protocol';
import type { SavedCpuGame } from './saved';
import type { KeepResult } from '../storage';

export interface CpuMatchOptions {
  /** The human's side (sente moves first). */
  readonly human: Side;
  readonly level: CpuLevel;
  /** Thinking time per CPU move, in milliseconds. */
  readonly thinkMs: number;
  /** The thinking indicator shows at least this long, so the CPU's move can be seen. */
  readonly minDelayMs: number;
  /**
   * Resolves once the boards show the player's move: the CPU's answer waits for it (at most
   * `SETTLE_CAP_MS`), so that the turn does not come back while the 3D board still plays out the
   * player's battle and holds the answer back.
   */
  readonly boardsSettled?: (() => Promise<void>) | undefined;
  /** Milliseconds from any origin (defaults to `performance.now`). */
  readonly now?: () => number;
  /** Waits `ms` milliseconds (defaults to `setTimeout`). */
  readonly sleep?: (ms: number) => Promise<void>;
  /** The human's arrangement from another mode, to set up the first game from. */
  readonly startWith?: CarriedArrangement;
  /** Called once when a game ends (by a move or a resignation), with how it ended. */
  readonly onEnd?: (status: Status) => void;
  /**
   * Where the unfinished game is kept after every move (and forgotten once it ends). `save` with
   * `claim` for a game begun or resumed; `taken` when the place was since claimed by another
   * game (another tab's): this one is not kept.
   */
  readonly persist?: {
    save(game: SavedCpuGame, claim: boolean): KeepResult;
    /** Forgets this game's kept copy (not another tab's). */
    clear(): void;
    /** Forgets the kept game whoever kept it: one that cannot be played on. */
    discard(): void;
  };
  /** Where the arrangement being made is kept while it changes, until it is confirmed. */
  readonly draft?: DraftSink;
  /** An unfinished game of this mode to go on with instead of a new one. */
  readonly resume?: SavedCpuGame;
}

const MAX_THINK_MARKS = 1000;

/**
 * Leaves each CPU decision on the page's performance timeline (`gunjin-cpu-think`), for the
 * browser bench: the time the worker measured and the time from request to move, in ms.
 */
function markThink(level: CpuLevel, thinkMs: number, totalMs: number): void {
  try {
    // A long session would keep every one: the bench reads far fewer than this.
    if (performance.getEntriesByName('gunjin-cpu-think').length >= MAX_THINK_MARKS) performance.clearMarks('gunjin-cpu-think');
    performance.mark('gunjin-cpu-think', { detail: { level, thinkMs, totalMs } });
  } catch {
    // A timeline is a convenience for measuring only.
  }
}

const defaultSleep = (ms: number): Promise<void> => new Promise((ok) => setTimeout(ok, ms));

/** The longest the CPU's answer waits for the boards (a battle plays out in under a second). */
export const SETTLE_CAP_MS = 3000;

export class CpuMatch implements Match {
  readonly human: Side;
  readonly cpuSide: Side;
  private current: Phase;
  private game: EngineGame | null = null;
  private humanArrangement: Arrangement | undefined;
  private cpuArrangement: Arrangement | undefined;
  /** The human has confirmed; the game starts as soon as the CPU's deployment is here. */
  private startWhenReady = false;
  private selection: { square: Square; destinations: Destinations } | null = null;
  private reportList: Report[] = [];
  /** Bumped by every restart, resignation and dispose: late CPU answers of older games are dropped. */
  private epoch = 0;
  private readonly listeners = new Set<() => void>();
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  /** The arrangement brought from another mode, until the first set-up takes it. */
  private carried: CarriedArrangement | undefined;
  /** The unfinished game to go on with, until the first set-up takes it. */
  private resumeFrom: SavedCpuGame | undefined;
  /** Another tab's game took the place this game was kept in. */
  private keptElsewhere = false;
  /** The storage refused to keep the game at its last move. */
  private refused = false;
  /** The seed of the CPU's deployment in this game (kept with the game instead of the deployment). */
  private cpuSeed = 0;
  /** Whether this match has kept its game (so only its own is forgotten when it is left). */
  private kept = false;
  /** Think times (ms) of the CPU's moves in this game, as the worker measured them. */
  readonly thinkTimes: number[] = [];

  constructor(
    private readonly engine: Engine,
    private readonly store: ArrangementStore,
    private readonly nextSeed: () => number,
    private readonly cpu: CpuPlayer,
    private readonly options: CpuMatchOptions,
  ) {
    this.human = options.human;
    this.carried = options.startWith;
    this.resumeFrom = options.resume;
    this.cpuSide = opponent(options.human);
    this.now = options.now ?? (() => performance.now());
    this.sleep = options.sleep ?? defaultSleep;
    this.current = this.setupPhase();
  }

  get phase(): Phase {
    return this.current;
  }

  /** Only the human looks at this screen. */
  get viewer(): Side {
    return this.human;
  }

  get level(): CpuLevel {
    return this.options.level;
  }

  get selected(): { readonly square: Square; readonly destinations: Destinations } | null {
    return this.selection;
  }

  /** What the human has been told since their last move: their move and the CPU's answer. */
  get reports(): readonly Report[] {
    return this.reportList;
  }

  /** The human's confirmed arrangement; never the CPU's. */
  arrangement(side: Side): Arrangement | undefined {
    return side === this.human ? this.humanArrangement : undefined;
  }

  /** The human's view; the CPU's side only once the game is over. */
  view(side: Side): View | null {
    if (this.game === null) return null;
    if (side !== this.human && this.current.kind !== 'over') return null;
    return this.game.view(side);
  }

  /** Both arrangements, the CPU's too, once the game is over. */
  setups(): Setups | null {
    const human = this.humanArrangement;
    const cpu = this.cpuArrangement;
    if (this.current.kind !== 'over' || human === undefined || cpu === undefined) return null;
    return this.human === 'sente' ? { sente: human, gote: cpu } : { sente: cpu, gote: human };
  }

  /** The human's legal moves on their turn (for tests); nothing otherwise. */
  legalMoves(): [Square, Square][] {
    return this.current.kind === 'turn' ? (this.game?.legalMoves() ?? []) : [];
  }

  /** No curtain in this mode. */
  reveal(): void {}

  loadPrevious(): boolean {
    return loadPreviousArrangement(this.current, this.store);
  }

  confirmSetup(): boolean {
    const p = this.current;
    if (p.kind !== 'setup' || this.startWhenReady) return false;
    const arrangement = p.setup.arrangement;
    if (this.engine.validate(p.side, arrangement).length > 0) return false;
    this.humanArrangement = arrangement;
    this.store.save(p.side, arrangement);
    // Until the CPU's deployment is here too and the game begins, a reload offers it.
    this.options.draft?.save(arrangement);
    if (this.cpuArrangement !== undefined) this.startGame();
    else {
      this.startWhenReady = true;
      this.current = { kind: 'waiting', side: this.human, note: 'cpuThinking' };
    }
    return true;
  }

  press(square: Square): TurnEvent {
    const p = this.current;
    const game = this.game;
    if (p.kind !== 'turn' || game === null) return { type: 'ignored' };
    const { next, result } = pressOnTurn(game.view(this.human), this.selection, square, (sq) =>
      game.destinations(this.human, sq),
    );
    this.selection = next;
    return result.type === 'play' ? this.humanMove(game, result.from, result.to) : result;
  }

  /** Nothing to hand over: the CPU answers on its own. */
  handOver(): void {}

  /** Not before the game exists: after the human's arrangement the CPU's may still be on its way. */
  get canResign(): boolean {
    const p = this.current;
    return (p.kind === 'turn' || p.kind === 'waiting') && this.game !== null;
  }

  resign(): Status | null {
    if (!this.canResign || this.game === null) return null;
    this.epoch++;
    const status = this.game.resign(this.human);
    this.selection = null;
    this.end(status);
    return status;
  }

  /** Back to the human's arrangement for a new game against a newly deployed CPU. */
  restart(): void {
    this.epoch++;
    this.forget();
    this.options.draft?.clear();
    this.game?.dispose();
    this.game = null;
    this.humanArrangement = undefined;
    this.cpuArrangement = undefined;
    this.startWhenReady = false;
    this.selection = null;
    this.reportList = [];
    this.thinkTimes.length = 0;
    this.current = this.setupPhase();
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Leaving the match (the start screen, another mode). An unfinished game stays kept: the start
   * screen offers to go on with it, so a mistaken press loses nothing, and a new game against the
   * CPU takes its place once it begins.
   */
  dispose(): void {
    this.epoch++;
    this.options.draft?.clear();
    this.listeners.clear();
    this.game?.dispose();
    this.game = null;
    this.cpu.dispose();
  }

  // ---- internals ------------------------------------------------------------------------------

  private changed(): void {
    for (const l of [...this.listeners]) l();
  }

  /**
   * A fresh arrangement for the human, and the CPU's deployment asked for meanwhile; `note` says
   * why the player is arranging again.
   */
  private setupPhase(note?: MessageKey): Phase {
    const saved = this.resumeFrom;
    this.resumeFrom = undefined;
    if (saved !== undefined) {
      if (saved.human === this.human && saved.level === this.options.level) return this.resumePhase(saved);
      // Kept under this mode but not playable in it (another version's level or side): offered
      // again at every visit unless dropped, so it is dropped, and said, as an unreplayable one.
      this.options.persist?.discard();
      if (this.accepts(saved.arrangement)) this.carried = { side: saved.human, arrangement: saved.arrangement };
      note = 'cpuResumeDropped';
    }
    const epoch = this.epoch;
    const side = this.cpuSide;
    this.cpuSeed = this.nextSeed();
    void this.cpu.chooseDeployment(side, this.options.level, this.cpuSeed).then(
      (arrangement) => {
        if (epoch !== this.epoch) return;
        this.cpuArrangement = arrangement;
        if (this.startWhenReady) {
          this.startGame();
          this.changed();
        }
      },
      (e: unknown) => this.fail(epoch, e),
    );
    const setup = new SetupState(this.engine, this.human, this.nextSeed(), this.options.draft);
    const carried = this.carried;
    this.carried = undefined;
    if (carried !== undefined) {
      const { side: from, arrangement } = carried;
      try {
        setup.begin(from === this.human ? arrangement : this.engine.turnAround(from, arrangement));
      } catch {
        // Not an arrangement of that side after all: the automatic one stays.
      }
    }
    return note === undefined ? { kind: 'setup', side: this.human, setup } : { kind: 'setup', side: this.human, setup, note };
  }

  private startGame(): void {
    const mine = this.humanArrangement;
    const theirs = this.cpuArrangement;
    if (mine === undefined || theirs === undefined) return;
    this.startWhenReady = false;
    // Kept with the game from now on; until then a reload (the CPU still deploying) offers it.
    this.options.draft?.clear(mine);
    this.playOn(this.newGame(mine, theirs), []);
  }

  /** Plays on with `game` (new or replayed): kept, and the turn to whoever moves next. */
  private playOn(game: EngineGame, reports: Report[]): void {
    this.game?.dispose();
    this.game = game;
    this.reportList = reports;
    this.keptElsewhere = false;
    this.keep(game, true);
    if (game.toMove() === this.human) this.current = { kind: 'turn', side: this.human };
    else this.cpuTurn(game);
  }

  private humanMove(game: EngineGame, from: Square, to: Square): TurnEvent {
    const before = ownPieces(game.view(this.human));
    const answer = game.play(from, to);
    this.selection = null;
    const reports = reportPly(this.human, answer.ply, before);
    this.reportList = reports;
    if (answer.status.state === 'ongoing') {
      this.keep(game);
      this.cpuTurn(game);
    } else this.end(answer.status);
    return { type: 'moved', ply: answer.ply, reports, status: answer.status };
  }

  /** The CPU thinks (in the worker) on its own view only; its move is played after a short pause. */
  private cpuTurn(game: EngineGame): void {
    this.current = { kind: 'waiting', side: this.human, note: 'cpuThinking' };
    const epoch = this.epoch;
    const started = this.now();
    const view = game.view(this.cpuSide);
    void this.cpu.chooseMove(view, this.options.level, this.nextSeed(), this.options.thinkMs).then(
      async (mv) => {
        const answeredMs = this.now() - started;
        const rest = this.options.minDelayMs - answeredMs;
        if (rest > 0) await this.sleep(rest);
        const settled = this.options.boardsSettled;
        if (settled !== undefined) await Promise.race([settled(), this.sleep(SETTLE_CAP_MS)]);
        if (epoch !== this.epoch || this.game !== game) return;
        this.thinkTimes.push(mv.thinkMs);
        markThink(this.options.level, mv.thinkMs, answeredMs);
        this.cpuMove(game, mv.from, mv.to);
        this.changed();
      },
      (e: unknown) => this.fail(epoch, e),
    );
  }

  private cpuMove(game: EngineGame, from: Square, to: Square): void {
    const before: Record<Square, KindId> = ownPieces(game.view(this.human));
    let answer;
    try {
      answer = game.play(from, to);
    } catch (e) {
      // The CPU only ever proposes legal moves; if it ever did not, the game must not hang.
      console.error('the CPU proposed an illegal move', from, to, e);
      const first = game.legalMoves()[0];
      if (first === undefined) return;
      answer = game.play(first[0], first[1]);
    }
    this.reportList = [...this.reportList, ...reportPly(this.human, answer.ply, before)];
    if (answer.status.state === 'ongoing') {
      this.keep(game);
      this.current = { kind: 'turn', side: this.human };
    } else this.end(answer.status);
  }

  private newGame(mine: Arrangement, theirs: Arrangement): EngineGame {
    return this.human === 'sente' ? this.engine.newGame(mine, theirs) : this.engine.newGame(theirs, mine);
  }

  private end(status: Status): void {
    this.current = { kind: 'over', side: this.human, status };
    this.forget();
    this.options.onEnd?.(status);
  }

  /** Keeps the game so far, for a reload to go on with it (`claim`: a game begun or resumed). */
  private keep(game: EngineGame, claim = false): void {
    const arrangement = this.humanArrangement;
    if (arrangement === undefined || this.options.persist === undefined || this.keptElsewhere) return;
    const saved = { human: this.human, level: this.options.level, arrangement, cpuSeed: this.cpuSeed, moves: pliesOf(game) };
    const result = this.options.persist.save(saved, claim);
    // The storage refused it (full, blocked): tried again at the next move, and said meanwhile.
    this.refused = result === 'refused';
    if (result === 'taken') {
      // Another tab's game holds the place now: this one goes on unkept, and the player is told.
      this.keptElsewhere = true;
      this.kept = false;
      return;
    }
    this.kept = result === 'kept';
  }

  /** A warning that stands while the game goes on: it is not kept for a reload. */
  get caution(): MessageKey | undefined {
    if (this.current.kind === 'over') return undefined;
    if (this.keptElsewhere) return 'cpuKeptElsewhere';
    return this.refused ? 'gameNotKept' : undefined;
  }

  private forget(): void {
    if (!this.kept) return;
    this.kept = false;
    this.options.persist?.clear();
  }

  /**
   * Goes on with a kept game: the CPU deploys again from the same seed and the moves are replayed.
   * A kept game that does not replay (another version of the CPU, a changed storage) is dropped
   * for a new game.
   */
  private resumePhase(saved: SavedCpuGame): Phase {
    const epoch = this.epoch;
    this.humanArrangement = saved.arrangement;
    this.cpuSeed = saved.cpuSeed;
    this.kept = true;
    void this.cpu.chooseDeployment(this.cpuSide, this.options.level, saved.cpuSeed).then(
      (arrangement) => {
        if (epoch !== this.epoch) return;
        this.cpuArrangement = arrangement;
        if (!this.replay(saved.moves)) {
          this.kept = false;
          this.options.persist?.discard();
          this.humanArrangement = undefined;
          this.cpuArrangement = undefined;
          // A game that no longer replays was kept by another version of the CPU, or damaged:
          // the player is told, and keeps the arrangement for the new game if the rules take it
          // (one they refuse is a damaged store: the new game starts from a new arrangement).
          const arranged = this.accepts(saved.arrangement);
          if (arranged) this.carried = { side: saved.human, arrangement: saved.arrangement };
          this.current = this.setupPhase(arranged ? 'cpuResumeDropped' : 'keptGameUnreadable');
        }
        this.changed();
      },
      (e: unknown) => this.fail(epoch, e),
    );
    return { kind: 'waiting', side: this.human, note: 'cpuResuming' };
  }

  /** Whether the rules accept `arrangement` (read from storage) for the human. */
  private accepts(arrangement: Arrangement): boolean {
    try {
      return this.engine.validate(this.human, arrangement).length === 0;
    } catch {
      return false;
    }
  }

  private replay(moves: readonly SavedPly[]): boolean {
    const mine = this.humanArrangement;
    const theirs = this.cpuArrangement;
    if (mine === undefined || theirs === undefined) return false;
    let game: EngineGame;
    try {
      // The kept arrangement comes from storage: the engine judges it like any other.
      if (!this.accepts(mine)) return false;
      game = this.newGame(mine, theirs);
    } catch {
      return false;
    }
    // The same battles as announced, or this is not the game that was played (a CPU that now
    // deploys otherwise from the same seed). The plies since the human's last move are told
    // again, as they were when played: that move, and the CPU's answer if it came.
    const lastByCpu = (moves.length % 2 === 1 ? 'sente' : 'gote') === this.cpuSide;
    const told = Math.max(0, moves.length - (lastByCpu ? 2 : 1));
    const reports: Report[] = [];
    const replayed =
      replayPlies(game, moves.slice(0, told)) &&
      moves.slice(told).every((move) => {
        const before = ownPieces(game.view(this.human));
        const ply = replayPly(game, move);
        if (ply !== null) reports.push(...reportPly(this.human, ply, before));
        return ply !== null;
      }) &&
      game.status().state === 'ongoing';
    if (!replayed) {
      game.dispose();
      return false;
    }
    this.playOn(game, reports);
    return true;
  }

  private fail(epoch: number, e: unknown): void {
    if (epoch !== this.epoch) return;
    console.error('the CPU failed', e);
    this.current = { kind: 'waiting', side: this.human, note: 'cpuFailed' };
    this.changed();
  }
}

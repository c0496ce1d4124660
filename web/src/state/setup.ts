/**
 * One side's arrangement while it is being set up: the two-press swap, re-arrange, mirror,
 * previous arrangement and undo. Every rule is checked by the engine.
 */
import type { Arrangement, Engine, KindId, Side, Square, Violation } from '../engine';
import { asArrangement, isRecord } from '../json';
import { readJson, readOrDrop, removeKey, replaceJson, writeJson, type KeyValueStorage } from '../storage';

/** What a press on a square did, for the page's message and announcement. */
export type SetupEvent =
  /** A square outside the camp; `dropped`, the square chosen before, no longer is (as a refused swap). */
  | { readonly type: 'ignored'; readonly dropped?: Square }
  | { readonly type: 'chosen'; readonly square: Square }
  | { readonly type: 'unchosen' }
  /** `kindA` stood on `a` and `kindB` on `b` before the swap. */
  | { readonly type: 'swapped'; readonly a: Square; readonly b: Square; readonly kindA: KindId; readonly kindB: KindId }
  | { readonly type: 'refused'; readonly violation: Violation };

/** A change to an arrangement, as the undo button tells what it took back. */
export type SetupChange =
  | { readonly type: 'swap'; readonly a: Square; readonly b: Square }
  | { readonly type: 'rearrange' }
  | { readonly type: 'mirror' }
  | { readonly type: 'load' };

export class SetupState {
  private current: Arrangement;
  private readonly undoStack: { readonly before: Arrangement; readonly change: SetupChange }[] = [];
  private undoneChange: SetupChange | null = null;
  private chosenSquare: Square | null = null;

  /** `draft`, if given, is told the arrangement after every change (not the automatic one it starts from). */
  constructor(
    private readonly engine: Engine,
    readonly side: Side,
    seed: number,
    private readonly draft?: DraftSink,
  ) {
    this.current = engine.autoArrangement(side, seed);
  }

  get arrangement(): Arrangement {
    return this.current;
  }

  /** The square pressed first, waiting for the second (yellow frame). */
  get chosen(): Square | null {
    return this.chosenSquare;
  }

  get canUndo(): boolean {
    return this.undoStack.length > 0;
  }

  /** A press on a square: the first chooses, the second swaps (or is refused with the reason). */
  press(square: Square): SetupEvent {
    const first = this.chosenSquare;
    if (this.current[square] === undefined) {
      this.chosenSquare = null;
      return first === null ? { type: 'ignored' } : { type: 'ignored', dropped: first };
    }
    if (first === null) {
      this.chosenSquare = square;
      return { type: 'chosen', square };
    }
    this.chosenSquare = null;
    if (first === square) return { type: 'unchosen' };
    const [kindA, kindB] = [this.current[first], this.current[square]];
    const answer = this.engine.swap(this.side, this.current, first, square);
    if (!answer.ok) return { type: 'refused', violation: answer.violation };
    this.replace(answer.deployment, { type: 'swap', a: first, b: square });
    // Both squares hold a piece: a press on an empty one was ignored above.
    return { type: 'swapped', a: first, b: square, kindA: kindA ?? '', kindB: kindB ?? '' };
  }

  /** A new automatic arrangement. */
  rearrange(seed: number): void {
    this.replace(this.engine.autoArrangement(this.side, seed), { type: 'rearrange' });
  }

  mirror(): void {
    this.replace(this.engine.mirror(this.side, this.current), { type: 'mirror' });
  }

  /** Loads a saved arrangement; false (and nothing changes) if it is not valid for this side. */
  load(saved: Arrangement): boolean {
    if (this.engine.validate(this.side, saved).length > 0) return false;
    this.replace({ ...saved }, { type: 'load' });
    return true;
  }

  /**
   * Starts over from `saved` (the player's own arrangement, brought back), with nothing to undo;
   * false (and nothing changes) if it is not valid for this side.
   */
  begin(saved: Arrangement): boolean {
    if (this.engine.validate(this.side, saved).length > 0) return false;
    this.current = { ...saved };
    this.undoStack.length = 0;
    this.chosenSquare = null;
    this.draft?.save(this.current);
    return true;
  }

  /** Undoes the last change (swap, re-arrange, mirror or load); `undone` then says which. */
  undo(): boolean {
    const last = this.undoStack.pop();
    if (last === undefined) return false;
    this.current = last.before;
    this.undoneChange = last.change;
    this.chosenSquare = null;
    this.draft?.save(last.before);
    return true;
  }

  /** The change the last undo took back. */
  get undone(): SetupChange | null {
    return this.undoneChange;
  }

  private replace(next: Arrangement, change: SetupChange): void {
    this.undoStack.push({ before: this.current, change });
    this.current = next;
    this.chosenSquare = null;
    this.draft?.save(next);
  }
}

/** Where one arrangement being made is kept while it changes (see `SetupDraftStore`). */
export interface DraftSink {
  save(arrangement: Arrangement): void;
  /**
   * Forgets the kept arrangement, unless another setup (another tab's) has written it since. One
   * that is `used` (sent to the room, or begun against the CPU) goes whoever wrote it: a setup
   * opened by a reload starts from the kept arrangement and may confirm it without a change.
   */
  clear(used?: Arrangement): void;
}

/** An arrangement being made, where it was being made, and for which side. */
export interface SetupDraft {
  /** The mode's id, or `room:<id>:<game>` for a game in a friend's room. */
  readonly place: string;
  readonly side: Side;
  readonly arrangement: Arrangement;
}

interface DraftEntry {
  readonly side: Side;
  readonly pieces: Arrangement;
  readonly owner: string;
  /** When it was last changed (ms since the epoch): the newest is offered, the oldest dropped. */
  readonly at: number;
}

/**
 * The arrangements being made, kept in the browser while they change: a reload, or a phone
 * discarding the tab while its player went to send the room's URL, otherwise loses every swap.
 * One per place (a CPU mode, a room's game), so that a tab arranging elsewhere leaves it alone;
 * only a change is kept, never an automatic arrangement nobody touched.
 */
export class SetupDraftStore {
  private static readonly KEY = 'gunjin.setupDraft';
  /** Places kept at most: rooms come and go, and each game in a room is a place of its own. */
  static readonly MAX_PLACES = 6;

  constructor(
    private readonly storage: KeyValueStorage | undefined,
    private readonly engine: Pick<Engine, 'validate'>,
    private readonly token: () => string = () => Math.random().toString(36).slice(2),
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** The newest kept arrangement of a place `offered` accepts; null if none. */
  latest(offered: (place: string) => boolean): SetupDraft | null {
    let best: [string, DraftEntry] | null = null;
    for (const [place, entry] of Object.entries(this.entries())) {
      if (offered(place) && this.legal(entry) && (best === null || entry.at > best[1].at)) best = [place, entry];
    }
    return best === null ? null : { place: best[0], side: best[1].side, arrangement: best[1].pieces };
  }

  /** The arrangement kept at `place` if it was made for `side`. */
  loadFor(place: string, side: Side): Arrangement | null {
    const entry = this.entries()[place];
    return entry !== undefined && entry.side === side && this.legal(entry) ? entry.pieces : null;
  }

  /** Forgets the arrangement kept at `place`: the player chose another game. */
  discard(place: string): void {
    this.update((all) => {
      delete all[place];
    });
  }

  /** A place for one setup's arrangement (at `place`, for `side`). */
  open(place: string, side: Side): DraftSink {
    const owner = this.token();
    return {
      save: (pieces) =>
        this.update((all) => {
          all[place] = { side, pieces, owner, at: this.now() };
        }),
      clear: (used) =>
        this.update((all) => {
          const kept = all[place];
          if (kept !== undefined && (kept.owner === owner || (used !== undefined && sameArrangement(kept.pieces, used)))) delete all[place];
        }),
    };
  }

  /**
   * Every kept arrangement that reads as one; whether it is legal is asked only of the one about
   * to be given back (`legal`), not at every swap's write.
   */
  private entries(): Record<string, DraftEntry> {
    const value = readOrDrop(this.storage, SetupDraftStore.KEY, (v) => (isRecord(v) ? v : null));
    const out: Record<string, DraftEntry> = {};
    if (value === null) return out;
    for (const [place, entry] of Object.entries(value)) {
      if (!isRecord(entry)) continue;
      const { side, owner, at } = entry;
      const pieces = asArrangement(entry['pieces']);
      if ((side !== 'sente' && side !== 'gote') || pieces === null || typeof owner !== 'string' || typeof at !== 'number') continue;
      out[place] = { side, pieces, owner, at };
    }
    return out;
  }

  /** Whether `entry` is a legal arrangement of its side (stored values may be anything). */
  private legal(entry: DraftEntry): boolean {
    try {
      return this.engine.validate(entry.side, entry.pieces).length === 0;
    } catch {
      return false;
    }
  }

  private update(change: (all: Record<string, DraftEntry>) => void): void {
    const all = this.entries();
    change(all);
    const places = Object.keys(all).sort((a, b) => (all[b]?.at ?? 0) - (all[a]?.at ?? 0));
    for (const place of places.slice(SetupDraftStore.MAX_PLACES)) delete all[place];
    if (Object.keys(all).length === 0) removeKey(this.storage, SetupDraftStore.KEY);
    else replaceJson(this.storage, SetupDraftStore.KEY, all);
  }
}

/**
 * Where the last arrangement confirmed in a CPU or online game is kept in the browser ("前回の
 * 並べ方"). One arrangement, whatever the side: asked for by the other side, it comes turned
 * round, every piece where its player sees the same place from their own end.
 */
export class ArrangementStore {
  private static readonly KEY = 'gunjin.arrangement';

  constructor(
    private readonly storage: KeyValueStorage | undefined,
    private readonly engine: Pick<Engine, 'turnAround' | 'validate'>,
  ) {}

  /** The last confirmed arrangement, for `side`; null if none (or it no longer reads as one). */
  load(side: Side): Arrangement | null {
    const saved = this.read(ArrangementStore.KEY) ?? this.legacy(side);
    if (saved === null) return null;
    try {
      const pieces = saved.side === side ? saved.pieces : this.engine.turnAround(saved.side, saved.pieces);
      return this.engine.validate(side, pieces).length === 0 ? pieces : null;
    } catch {
      return null;
    }
  }

  save(side: Side, arrangement: Arrangement): void {
    writeJson(this.storage, ArrangementStore.KEY, { side, pieces: arrangement });
  }

  private read(key: string): { side: Side; pieces: Arrangement } | null {
    const value = readJson(this.storage, key);
    if (!isRecord(value) || (value['side'] !== 'sente' && value['side'] !== 'gote')) return null;
    const pieces = asArrangement(value['pieces']);
    return pieces === null ? null : { side: value['side'], pieces };
  }

  /** What earlier versions kept, one arrangement per side. */
  private legacy(side: Side): { side: Side; pieces: Arrangement } | null {
    const pieces = asArrangement(readJson(this.storage, `gunjin.arrangement.${side}`));
    return pieces === null ? null : { side, pieces };
  }
}

export function sameArrangement(a: Arrangement, b: Arrangement): boolean {
  const squares = Object.keys(a) as (keyof Arrangement)[];
  return squares.length === Object.keys(b).length && squares.every((sq) => a[sq] === b[sq]);
}

/**
 * One side's arrangement while it is being set up: the two-press swap, re-arrange, mirror,
 * previous arrangement and undo. Every rule is checked by the engine.
 */
import type { Arrangement, Engine, Side, Square, Violation } from '../engine';

/** What a press on a square did, for the page's message and announcement. */
export type SetupEvent =
  | { readonly type: 'ignored' }
  | { readonly type: 'chosen'; readonly square: Square }
  | { readonly type: 'unchosen' }
  | { readonly type: 'swapped'; readonly a: Square; readonly b: Square }
  | { readonly type: 'refused'; readonly violation: Violation };

export class SetupState {
  private current: Arrangement;
  private readonly undoStack: Arrangement[] = [];
  private chosenSquare: Square | null = null;

  constructor(
    private readonly engine: Engine,
    readonly side: Side,
    seed: number,
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
    if (this.current[square] === undefined) return { type: 'ignored' };
    const first = this.chosenSquare;
    if (first === null) {
      this.chosenSquare = square;
      return { type: 'chosen', square };
    }
    this.chosenSquare = null;
    if (first === square) return { type: 'unchosen' };
    const answer = this.engine.swap(this.side, this.current, first, square);
    if (!answer.ok) return { type: 'refused', violation: answer.violation };
    this.replace(answer.deployment);
    return { type: 'swapped', a: first, b: square };
  }

  /** A new automatic arrangement. */
  rearrange(seed: number): void {
    this.replace(this.engine.autoArrangement(this.side, seed));
  }

  mirror(): void {
    this.replace(this.engine.mirror(this.side, this.current));
  }

  /** Loads a saved arrangement; false (and nothing changes) if it is not valid for this side. */
  load(saved: Arrangement): boolean {
    if (this.engine.validate(this.side, saved).length > 0) return false;
    this.replace({ ...saved });
    return true;
  }

  /** Undoes the last change (swap, re-arrange, mirror or load). */
  undo(): boolean {
    const previous = this.undoStack.pop();
    if (previous === undefined) return false;
    this.current = previous;
    this.chosenSquare = null;
    return true;
  }

  private replace(next: Arrangement): void {
    this.undoStack.push(this.current);
    this.current = next;
    this.chosenSquare = null;
  }
}

/** Where confirmed arrangements are kept in the browser (one per side). */
export class ArrangementStore {
  constructor(
    private readonly storage: { getItem(k: string): string | null; setItem(k: string, v: string): void } | undefined,
  ) {}

  private key(side: Side): string {
    return `gunjin.arrangement.${side}`;
  }

  load(side: Side): Arrangement | null {
    try {
      const text = this.storage?.getItem(this.key(side));
      if (text === null || text === undefined) return null;
      const value: unknown = JSON.parse(text);
      if (typeof value !== 'object' || value === null) return null;
      const entries = Object.entries(value as Record<string, unknown>);
      if (!entries.every(([, v]) => typeof v === 'string')) return null;
      return Object.fromEntries(entries) as Record<string, string>;
    } catch {
      return null;
    }
  }

  save(side: Side, arrangement: Arrangement): void {
    try {
      this.storage?.setItem(this.key(side), JSON.stringify(arrangement));
    } catch {
      // A full or blocked storage only loses the convenience.
    }
  }
}

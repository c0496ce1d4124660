/**
 * Unfinished games kept in the browser, so a reload (or a phone discarding the tab) does not lose
 * them: the moves as played with what the referee announced of each, replayed on resuming.
 */
import type { Arrangement, EngineGame, Outcome, Ply, Square } from '../engine';
import { asArrangement, isRecord } from '../json';
import { ClaimedSlot, readOrDrop, type KeepResult, type KeyValueStorage } from '../storage';

/** A move and what the referee announced of it: the replay must announce the same. */
export type SavedPly = readonly [Square, Square, Outcome | null];

const OUTCOMES: readonly unknown[] = ['attacker', 'defender', 'both', null];

function isPly(x: unknown): x is SavedPly {
  return Array.isArray(x) && x.length === 3 && typeof x[0] === 'string' && typeof x[1] === 'string' && OUTCOMES.includes(x[2]);
}

/** The kept moves, or null if `x` is not a list of them. */
export function asPlies(x: unknown): readonly SavedPly[] | null {
  return Array.isArray(x) && x.every(isPly) ? x : null;
}

/** The moves of `game` so far, as they are kept. */
export function pliesOf(game: EngineGame): SavedPly[] {
  return game.view('sente').history.map((p): SavedPly => [p.from, p.to, p.battle?.outcome ?? null]);
}

/** Plays one kept move on `game`: its ply, or null if it is illegal or announces another battle outcome than was kept. */
export function replayPly(game: EngineGame, [from, to, outcome]: SavedPly): Ply | null {
  try {
    const ply = game.play(from, to).ply;
    return (ply.battle?.outcome ?? null) === outcome ? ply : null;
  } catch {
    return null;
  }
}

/**
 * Plays `moves` on `game`; false as soon as one does not replay (`replayPly`: then this is not
 * the game that was played, and the caller drops it), or if the game is over after them.
 */
export function replayPlies(game: EngineGame, moves: readonly SavedPly[]): boolean {
  return moves.every((move) => replayPly(game, move) !== null) && game.status().state === 'ongoing';
}

/**
 * A two-player game on this device: both arrangements (both players use this browser) and the
 * moves; `gote` null while gote still arranges (sente's confirmed arrangement is not lost to a
 * reload then), and no move yet.
 */
export interface SavedLocalGame {
  readonly sente: Arrangement;
  readonly gote: Arrangement | null;
  readonly moves: readonly SavedPly[];
}

export class LocalGameStore {
  private static readonly KEY = 'gunjin.localGame';
  private readonly slot: ClaimedSlot;

  constructor(private readonly storage: KeyValueStorage | undefined) {
    this.slot = new ClaimedSlot(storage, LocalGameStore.KEY);
  }

  /** The kept game; null if none (or it no longer reads as one). */
  load(): SavedLocalGame | null {
    return readOrDrop(this.storage, LocalGameStore.KEY, (value) => {
      if (!isRecord(value)) return null;
      const sente = asArrangement(value['sente']);
      const gote = asArrangement(value['gote']);
      const moves = asPlies(value['moves']);
      if (sente === null || moves === null) return null;
      // Gote still arranging: nothing can have been played.
      if (gote === null) return value['gote'] === null && moves.length === 0 ? { sente, gote, moves } : null;
      return { sente, gote, moves };
    });
  }

  /** Keeps `game` as `owner`'s (a tab's game): see `ClaimedSlot.save`. */
  save(game: SavedLocalGame, owner = '', claim = true): KeepResult {
    const { sente, gote, moves } = game;
    return this.slot.save({ sente, gote, moves }, owner, claim);
  }

  /** Forgets the kept game, unless it is another owner's (another tab's game, which goes on). */
  clear(owner?: string): void {
    this.slot.clear(owner);
  }
}

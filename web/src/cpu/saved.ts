/**
 * An unfinished game against the CPU, kept in the browser so a reload (or a phone discarding the
 * tab) does not lose it. It holds nothing of the CPU's but the seed its deployment came from: the
 * CPU deploys again from that seed when the game is resumed, and the moves are replayed.
 */
import type { Arrangement, Side } from '../engine';
import { asArrangement, isRecord } from '../json';
import { asPlies, type SavedPly } from '../state/saved';
import { readJson, readOrDrop, removeKey, replaceJson, type KeyValueStorage } from '../storage';
import { CPU_LEVELS, type CpuLevel } from './protocol';

/** What became of a game to keep: kept, its place taken by another tab's game, or refused by the storage. */
export type KeepResult = 'kept' | 'taken' | 'refused';

export interface SavedCpuGame {
  readonly human: Side;
  readonly level: CpuLevel;
  /** The human's arrangement. */
  readonly arrangement: Arrangement;
  /** The seed the CPU's deployment was chosen with (the same seed gives the same deployment). */
  readonly cpuSeed: number;
  /** Every move played so far, in order, with its battle's outcome (null: no battle). */
  readonly moves: readonly SavedPly[];
}

function parseGame(x: unknown): SavedCpuGame | null {
  if (!isRecord(x)) return null;
  const { human, level, cpuSeed } = x;
  const moves = asPlies(x['moves']);
  const arrangement = asArrangement(x['arrangement']);
  if (human !== 'sente' && human !== 'gote') return null;
  if (!CPU_LEVELS.includes(level as CpuLevel)) return null;
  if (arrangement === null) return null;
  if (typeof cpuSeed !== 'number' || !Number.isSafeInteger(cpuSeed) || cpuSeed < 0) return null;
  if (moves === null) return null;
  return { human, level: level as CpuLevel, arrangement, cpuSeed, moves };
}

export class CpuGameStore {
  private static readonly KEY = 'gunjin.cpuGame';

  constructor(private readonly storage: KeyValueStorage | undefined) {}

  /** The kept game and the mode it was played in; null if none (or it no longer reads as one). */
  load(): { readonly mode: string; readonly game: SavedCpuGame } | null {
    return readOrDrop(this.storage, CpuGameStore.KEY, (value) => {
      const mode = isRecord(value) ? value['mode'] : undefined;
      const game = isRecord(value) && typeof mode === 'string' ? parseGame(value['game']) : null;
      return game === null || typeof mode !== 'string' ? null : { mode, game };
    });
  }

  /**
   * Keeps `game` as `owner`'s (a tab's game). The one slot belongs to the game that last claimed
   * it (`claim`: a game begun or resumed); `taken`, and nothing written, when another tab's game
   * claimed it since, so that tab's game is not overwritten by an older one; `refused` when the
   * storage would not take it (full, blocked).
   */
  save(mode: string, game: SavedCpuGame, owner = '', claim = true): KeepResult {
    const holder = this.owner();
    if (!claim && holder !== null && holder !== owner) return 'taken';
    return replaceJson(this.storage, CpuGameStore.KEY, { mode, game, owner }) ? 'kept' : 'refused';
  }

  /** Forgets the kept game, unless it is another owner's (another tab's game, which goes on). */
  clear(owner?: string): void {
    const holder = this.owner();
    if (owner !== undefined && holder !== null && holder !== owner) return;
    removeKey(this.storage, CpuGameStore.KEY);
  }

  private owner(): string | null {
    const value = readJson(this.storage, CpuGameStore.KEY);
    return isRecord(value) && typeof value['owner'] === 'string' && value['owner'] !== '' ? value['owner'] : null;
  }
}

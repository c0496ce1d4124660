/**
 * An unfinished game against the CPU, kept in the browser so a reload (or a phone discarding the
 * tab) does not lose it. It holds nothing of the CPU's but the seed its deployment came from: the
 * CPU deploys again from that seed when the game is resumed, and the moves are replayed.
 */
import type { Arrangement, Side } from '../engine';
import { asArrangement, isRecord } from '../json';
import { asPlies, type SavedPly } from '../state/saved';
import { ClaimedSlot, readOrDrop, type KeepResult, type KeyValueStorage } from '../storage';
import { CPU_LEVELS, CPU_MODE_IDS, type CpuLevel, type CpuModeId } from './protocol';

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
  private readonly slot: ClaimedSlot;

  constructor(private readonly storage: KeyValueStorage | undefined) {
    this.slot = new ClaimedSlot(storage, CpuGameStore.KEY);
  }

  /** The kept game and the mode it was played in; null if none (or it no longer reads as one). */
  load(): { readonly mode: CpuModeId; readonly game: SavedCpuGame } | null {
    return readOrDrop(this.storage, CpuGameStore.KEY, (value) => {
      const mode = isRecord(value) ? value['mode'] : undefined;
      // A kept game names a CPU mode; anything else is a damaged store, dropped.
      if (!CPU_MODE_IDS.includes(mode as CpuModeId)) return null;
      const game = isRecord(value) ? parseGame(value['game']) : null;
      return game === null ? null : { mode: mode as CpuModeId, game };
    });
  }

  /** Keeps `game` as `owner`'s (a tab's game): see `ClaimedSlot.save`. */
  save(mode: CpuModeId, game: SavedCpuGame, owner = '', claim = true): KeepResult {
    return this.slot.save({ mode, game }, owner, claim);
  }

  /** Forgets the kept game, unless it is another owner's (another tab's game, which goes on). */
  clear(owner?: string): void {
    this.slot.clear(owner);
  }
}

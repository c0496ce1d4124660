/**
 * An unfinished game against the CPU, kept in the browser so a reload (or a phone discarding the
 * tab) does not lose it. It holds nothing of the CPU's but the seed its deployment came from: the
 * CPU deploys again from that seed when the game is resumed, and the moves are replayed.
 */
import type { Arrangement, Outcome, Side, Square } from '../engine';
import { asArrangement, isRecord } from '../json';
import { readJson, removeKey, writeJson, type KeyValueStorage } from '../storage';
import { CPU_LEVELS, type CpuLevel } from './protocol';

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

/** A move and what the referee announced of it: the replay must announce the same. */
export type SavedPly = readonly [Square, Square, Outcome | null];

const OUTCOMES: readonly unknown[] = ['attacker', 'defender', 'both', null];

function isPly(x: unknown): x is SavedPly {
  return Array.isArray(x) && x.length === 3 && typeof x[0] === 'string' && typeof x[1] === 'string' && OUTCOMES.includes(x[2]);
}

function parseGame(x: unknown): SavedCpuGame | null {
  if (!isRecord(x)) return null;
  const { human, level, cpuSeed, moves } = x;
  const arrangement = asArrangement(x['arrangement']);
  if (human !== 'sente' && human !== 'gote') return null;
  if (!CPU_LEVELS.includes(level as CpuLevel)) return null;
  if (arrangement === null) return null;
  if (typeof cpuSeed !== 'number' || !Number.isSafeInteger(cpuSeed) || cpuSeed < 0) return null;
  if (!Array.isArray(moves) || !moves.every(isPly)) return null;
  return { human, level: level as CpuLevel, arrangement, cpuSeed, moves };
}

export class CpuGameStore {
  private static readonly KEY = 'gunjin.cpuGame';

  constructor(private readonly storage: KeyValueStorage | undefined) {}

  /** The kept game and the mode it was played in; null if none (or it no longer reads as one). */
  load(): { readonly mode: string; readonly game: SavedCpuGame } | null {
    const value = readJson(this.storage, CpuGameStore.KEY);
    if (!isRecord(value) || typeof value['mode'] !== 'string') return null;
    const game = parseGame(value['game']);
    return game === null ? null : { mode: value['mode'], game };
  }

  save(mode: string, game: SavedCpuGame): void {
    writeJson(this.storage, CpuGameStore.KEY, { mode, game });
  }

  clear(): void {
    removeKey(this.storage, CpuGameStore.KEY);
  }
}

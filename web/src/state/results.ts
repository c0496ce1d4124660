/**
 * The player's results against each CPU mode, kept in this browser: how many games won, lost and
 * drawn. Only finished games count (a resignation is a loss; "play again" in mid-game is not a
 * result).
 */
import type { Side, Status } from '../engine';
import { isRecord } from '../json';
import { readJson, writeJson, type KeyValueStorage } from '../storage';

export interface Tally {
  readonly won: number;
  readonly lost: number;
  readonly drawn: number;
}

export type Outcome = keyof Tally;

const NONE: Tally = { won: 0, lost: 0, drawn: 0 };

/** How a finished game went for `side`; null while it goes on. */
export function outcomeFor(side: Side, status: Status): Outcome | null {
  switch (status.state) {
    case 'ongoing':
      return null;
    case 'draw':
      return 'drawn';
    case 'won':
      return status.winner === side ? 'won' : 'lost';
  }
}

function count(v: unknown): number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : 0;
}

export class ResultStore {
  private static readonly KEY = 'gunjin.results';

  constructor(private readonly storage: KeyValueStorage | undefined) {}

  /** The results against `mode` so far (none if nothing was kept, or it no longer reads). */
  tally(mode: string): Tally {
    return tallyOf(this.all()[mode]);
  }

  /** Counts one finished game against `mode`. */
  add(mode: string, outcome: Outcome): void {
    const all = this.all();
    const t = tallyOf(all[mode]);
    writeJson(this.storage, ResultStore.KEY, { ...all, [mode]: { ...t, [outcome]: t[outcome] + 1 } });
  }

  private all(): Record<string, unknown> {
    const value = readJson(this.storage, ResultStore.KEY);
    return isRecord(value) ? value : {};
  }
}

function tallyOf(t: unknown): Tally {
  return isRecord(t) ? { won: count(t['won']), lost: count(t['lost']), drawn: count(t['drawn']) } : NONE;
}

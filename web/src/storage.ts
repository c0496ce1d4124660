/**
 * The part of `localStorage` the page's stores use, and reading and writing JSON in it. A full,
 * blocked or missing storage only loses the convenience: reads give null, writes do nothing.
 */

import { isRecord } from './json';

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem?(key: string): void;
  readonly length?: number;
  key?(index: number): string | null;
}

/** The keys starting with `prefix`; none if the storage cannot list them or refuses. */
export function keysStartingWith(storage: KeyValueStorage | undefined, prefix: string): string[] {
  const keys: string[] = [];
  try {
    const n = storage?.length ?? 0;
    for (let i = 0; i < n; i++) {
      const k = storage?.key?.(i);
      if (typeof k === 'string' && k.startsWith(prefix)) keys.push(k);
    }
  } catch {
    return [];
  }
  return keys;
}

/** The browser's local storage; none where the browser refuses it (some private modes). */
export function browserStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/** The text kept under `key`; null if there is none or the storage refuses to be read. */
export function readText(storage: KeyValueStorage | undefined, key: string): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/** The JSON value kept under `key`; null if there is none or it does not parse. */
export function readJson(storage: KeyValueStorage | undefined, key: string): unknown {
  return parsed(readText(storage, key));
}

function parsed(text: string | null): unknown {
  try {
    return text === null ? null : (JSON.parse(text) as unknown);
  } catch {
    return null;
  }
}

/**
 * The value kept under `key` as `parse` reads it; null if there is none. What is there but does
 * not read (damaged, or of another shape) is taken away: it would be read again at every visit.
 */
export function readOrDrop<T>(storage: KeyValueStorage | undefined, key: string, parse: (value: unknown) => T | null): T | null {
  const text = readText(storage, key);
  if (text === null || text === '') return null;
  const read = parse(parsed(text));
  if (read === null) removeKey(storage, key);
  return read;
}

/** Keeps `value` under `key`; false if the storage refused it (full, blocked) or there is none. */
export function writeJson(storage: KeyValueStorage | undefined, key: string, value: unknown): boolean {
  if (storage === undefined) return false;
  try {
    storage.setItem(key, JSON.stringify(value));
    return true;
  } catch {
    // See above.
    return false;
  }
}

/**
 * Keeps `value` under `key` in place of what was there; if the storage refuses it, takes the
 * old value away too (a game kept several moves ago would come back as the game, moves undone)
 * and answers false.
 */
export function replaceJson(storage: KeyValueStorage | undefined, key: string, value: unknown): boolean {
  if (writeJson(storage, key, value)) return true;
  removeKey(storage, key);
  return false;
}

export function removeKey(storage: KeyValueStorage | undefined, key: string): void {
  try {
    if (storage?.removeItem !== undefined) storage.removeItem(key);
    else storage?.setItem(key, '');
  } catch {
    // See above.
  }
}

/** What became of a game to keep: kept, its place taken by another tab's game, or refused by the storage. */
export type KeepResult = 'kept' | 'taken' | 'refused';

/** A name for one tab's games, to tell them from another tab's in a `ClaimedSlot`. */
export function newOwner(random: () => number): string {
  return `${random().toString(36)}${random().toString(36)}`;
}

/**
 * One place for an unfinished game of a mode, shared by every tab of the page. It belongs to the
 * game that last claimed it (a game begun or resumed): an older tab's game neither overwrites nor
 * clears it, and learns that it is no longer kept.
 */
export class ClaimedSlot {
  constructor(
    private readonly storage: KeyValueStorage | undefined,
    private readonly key: string,
  ) {}

  /**
   * Keeps `value` as `owner`'s game (`claim`: a game begun or resumed, which takes the place);
   * `taken`, and nothing written, when another owner claimed it since; `refused` when the storage
   * would not take it (full, blocked).
   */
  save(value: Readonly<Record<string, unknown>>, owner: string, claim: boolean): KeepResult {
    const holder = this.owner();
    if (!claim && holder !== null && holder !== owner) return 'taken';
    return replaceJson(this.storage, this.key, { ...value, owner }) ? 'kept' : 'refused';
  }

  /** Forgets the kept game, unless it is another owner's (another tab's game, which goes on). */
  clear(owner?: string): void {
    const holder = this.owner();
    if (owner !== undefined && holder !== null && holder !== owner) return;
    removeKey(this.storage, this.key);
  }

  private owner(): string | null {
    const value = readJson(this.storage, this.key);
    return isRecord(value) && typeof value['owner'] === 'string' && value['owner'] !== '' ? value['owner'] : null;
  }
}

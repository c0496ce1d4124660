/**
 * The part of `localStorage` the page's stores use, and reading and writing JSON in it. A full,
 * blocked or missing storage only loses the convenience: reads give null, writes do nothing.
 */

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem?(key: string): void;
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

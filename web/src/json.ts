/** Shape guards for JSON that comes from outside (the server, `localStorage`). */
import type { Arrangement } from './engine';

/** A plain JSON object (not `null`, not an array). */
export function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Square → kind id, every value a string (the engine judges whether it is a legal arrangement). */
export function asArrangement(x: unknown): Arrangement | null {
  if (!isRecord(x)) return null;
  const entries = Object.entries(x);
  if (!entries.every(([, v]) => typeof v === 'string')) return null;
  return Object.fromEntries(entries) as Record<string, string>;
}

/** Shape guards for JSON that comes from outside (the server, `localStorage`). */

/** A plain JSON object (not `null`, not an array). */
export function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

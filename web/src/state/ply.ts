/** A ply applied to the pieces the way the referee announced it: no rule lives here. */
import type { Ply, Square } from '../engine';

/**
 * The pieces after `ply`: a quiet move or a won attack moves the piece (taking the defender), a
 * lost attack removes the attacker, "both" removes both. The piece behind a flag is never touched:
 * the battle's defender is the piece on `to`. `removed` hears of each piece taken off.
 */
export function piecesAfter<P>(pieces: Readonly<Record<Square, P>>, ply: Ply, removed: (piece: P) => void = () => {}): Record<Square, P> {
  const out = { ...pieces };
  const take = (sq: Square): void => {
    const p = out[sq];
    if (p === undefined) return;
    removed(p);
    delete out[sq];
  };
  const { from, to, battle } = ply;
  const mover = out[from];
  if (battle === null || battle.outcome === 'attacker') {
    if (battle !== null) take(to);
    delete out[from];
    if (mover !== undefined) out[to] = mover;
  } else if (battle.outcome === 'defender') {
    take(from);
  } else {
    take(from);
    take(to);
  }
  return out;
}

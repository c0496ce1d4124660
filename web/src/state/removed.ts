import type { KindId, KindInfo, View } from '../engine';

/**
 * The kinds the viewer's enemy has lost, once the game is over and every piece shows its kind: each
 * kind's count less the enemy pieces of that kind still standing, in the kinds' order. (The view
 * itself gives the enemy's removals as a count only.) Empty while the game goes on.
 */
export function removedEnemyKinds(view: View, kinds: readonly KindInfo[]): KindId[] {
  if (view.status.state === 'ongoing') return [];
  const standing = new Map<KindId, number>();
  for (const p of Object.values(view.pieces)) {
    if (p.side !== view.side && p.kind !== undefined) standing.set(p.kind, (standing.get(p.kind) ?? 0) + 1);
  }
  return kinds.flatMap((k) => Array<KindId>(Math.max(0, k.count - (standing.get(k.id) ?? 0))).fill(k.id));
}

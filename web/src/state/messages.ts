/**
 * What a player is told about a ply, in that player's terms: their own piece by name, the enemy's
 * never. Kept as data; the page turns it into text in the current language.
 */
import type { KindId, Ply, Side, Square } from '../engine';

export type Report =
  | { readonly type: 'moved'; readonly mine: boolean; readonly from: Square; readonly to: Square }
  | {
      readonly type: 'battle';
      readonly result: 'won' | 'lost' | 'both';
      /** The viewer's piece in the battle. */
      readonly kind: KindId;
      readonly square: Square;
    };

/**
 * Reports of one ply for `viewer`. `ownBefore` is the viewer's own pieces (square → kind) just
 * before the ply: it names the viewer's piece whether it attacked or defended.
 */
export function reportPly(
  viewer: Side,
  ply: Ply,
  ownBefore: Readonly<Record<Square, KindId>>,
): Report[] {
  const mine = ply.side === viewer;
  const out: Report[] = [{ type: 'moved', mine, from: ply.from, to: ply.to }];
  const battle = ply.battle;
  if (battle === null) return out;
  const kind = mine ? ownBefore[ply.from] : ownBefore[ply.to];
  if (kind === undefined) return out;
  let result: 'won' | 'lost' | 'both';
  if (battle.outcome === 'both') result = 'both';
  else if ((battle.outcome === 'attacker') === mine) result = 'won';
  else result = 'lost';
  out.push({ type: 'battle', result, kind, square: battle.square });
  return out;
}

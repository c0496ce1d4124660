/**
 * What a player is told about a ply, in that player's terms: their own piece by name, the enemy's
 * never. Kept as data; the page turns it into text in the current language.
 */
import type { KindId, Ply, Side, Square, View } from '../engine';

export type Report =
  | { readonly type: 'moved'; readonly mine: boolean; readonly from: Square; readonly to: Square }
  | {
      readonly type: 'battle';
      readonly result: 'won' | 'lost' | 'both';
      /** The viewer's piece in the battle. */
      readonly kind: KindId;
      readonly square: Square;
    }
  /** The viewer's piece stands in the enemy headquarters after the ply (last of its reports). */
  | { readonly type: 'inEnemyHq'; readonly kind: KindId };

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
  const kind = mine ? ownBefore[ply.from] : ownBefore[ply.to];
  if (battle !== null && kind !== undefined) {
    let result: 'won' | 'lost' | 'both';
    if (battle.outcome === 'both') result = 'both';
    else if ((battle.outcome === 'attacker') === mine) result = 'won';
    else result = 'lost';
    out.push({ type: 'battle', result, kind, square: battle.square });
  }
  const entered = battle === null || battle.outcome === 'attacker';
  if (mine && kind !== undefined && entered && ply.to === enemyHq(viewer)) out.push({ type: 'inEnemyHq', kind });
  return out;
}

/**
 * Reports of the view's last ply, rebuilt from the view alone, so a page that reloads shows what
 * it showed before. The viewer's piece in a battle is the one now on the battle's square if it
 * survived; otherwise the last of the viewer's removed pieces, which are listed in the order they
 * fell.
 */
export function reportLastPly(view: View): Report[] {
  const ply = view.history[view.history.length - 1];
  if (ply === undefined) return [];
  const mine = ply.side === view.side;
  const ownBefore: Record<Square, KindId> = {};
  const battle = ply.battle;
  const arrived = view.pieces[ply.to];
  if (mine && arrived?.side === view.side && arrived.kind !== undefined) ownBefore[ply.from] = arrived.kind;
  if (battle !== null) {
    const ownLost = battle.outcome === 'both' || (battle.outcome === 'attacker') !== mine;
    const survivor = view.pieces[ply.to];
    const kind = ownLost
      ? view.removed.own[view.removed.own.length - 1]
      : survivor?.side === view.side
        ? survivor.kind
        : undefined;
    if (kind !== undefined) ownBefore[mine ? ply.from : ply.to] = kind;
  }
  return reportPly(view.side, ply, ownBefore);
}

function enemyHq(viewer: Side): Square {
  return viewer === 'sente' ? 'cd8' : 'cd1';
}

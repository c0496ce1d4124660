import { describe, expect, it } from 'vitest';
import type { KindId } from '../engine';
import { testEngine } from '../test-engine';
import { removedEnemyKinds } from './removed';

describe('removedEnemyKinds', () => {
  it('names what each side lost once the game is over, and nothing before', () => {
    const engine = testEngine();
    const game = engine.newGame(engine.autoArrangement('sente', 3), engine.autoArrangement('gote', 4));
    // Battles until each side has lost something, choosing moves in a fixed order.
    let guard = 0;
    while (guard++ < 400 && game.status().state === 'ongoing') {
      const view = game.view('sente');
      if (view.removed.own.length >= 2 && view.removed.enemy_count >= 2) break;
      const moves = game.legalMoves();
      const side = game.toMove();
      const enemy = game.view(side).pieces;
      const attack = moves.find(([, to]) => enemy[to]?.side !== undefined && enemy[to]?.side !== side);
      const pick = attack ?? moves[guard % moves.length];
      if (pick === undefined) break;
      game.play(pick[0], pick[1]);
    }
    const during = game.view('sente');
    expect(during.removed.enemy_count).toBeGreaterThan(0);
    expect(removedEnemyKinds(during, engine.kinds)).toEqual([]);

    if (game.status().state === 'ongoing') game.resign('gote');
    for (const side of ['sente', 'gote'] as const) {
      const mine = game.view(side);
      const other = game.view(side === 'sente' ? 'gote' : 'sente');
      const lost = removedEnemyKinds(mine, engine.kinds);
      expect(lost).toHaveLength(mine.removed.enemy_count);
      // The enemy's own list (in removal order) holds the same kinds.
      const sorted = (ks: readonly KindId[]) => [...ks].sort();
      expect(sorted(lost)).toEqual(sorted(other.removed.own));
      expect(Object.keys(mine.removed).sort()).toEqual(['enemy_count', 'own']);
    }
  });
});

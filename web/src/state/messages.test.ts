import { describe, expect, it } from 'vitest';
import type { Side } from '../engine';
import { testEngine } from '../test-engine';
import { ownPieces } from './match';
import { reportLastPly, reportPly } from './messages';

describe('reportPly', () => {
  const ply = (side: 'sente' | 'gote', outcome: 'attacker' | 'defender' | 'both' | null) => ({
    side,
    from: 'c4',
    to: 'c5',
    battle: outcome === null ? null : { square: 'c5', outcome },
  });

  it('names the attacker for the mover and the defender for the other side', () => {
    expect(reportPly('sente', ply('sente', 'defender'), { c4: 'lieutenant_colonel' })).toEqual([
      { type: 'moved', mine: true, from: 'c4', to: 'c5' },
      { type: 'battle', result: 'lost', kind: 'lieutenant_colonel', square: 'c5' },
    ]);
    expect(reportPly('gote', ply('sente', 'defender'), { c5: 'general' })).toEqual([
      { type: 'moved', mine: false, from: 'c4', to: 'c5' },
      { type: 'battle', result: 'won', kind: 'general', square: 'c5' },
    ]);
    expect(reportPly('gote', ply('sente', 'attacker'), { c5: 'spy' })[1]).toEqual({
      type: 'battle',
      result: 'lost',
      kind: 'spy',
      square: 'c5',
    });
    expect(reportPly('sente', ply('sente', 'both'), { c4: 'tank' })[1]).toMatchObject({ result: 'both', kind: 'tank' });
  });

  it('ends with the viewer’s own piece that stands in the enemy headquarters after the move', () => {
    const into = (side: Side, from: string, to: string, outcome: 'attacker' | 'defender' | 'both' | null) => ({
      side,
      from,
      to,
      battle: outcome === null ? null : { square: to, outcome },
    });
    expect(reportPly('sente', into('sente', 'c7', 'cd8', null), { c7: 'tank' })).toEqual([
      { type: 'moved', mine: true, from: 'c7', to: 'cd8' },
      { type: 'inEnemyHq', kind: 'tank' },
    ]);
    expect(reportPly('gote', into('gote', 'b1', 'cd1', 'attacker'), { b1: 'plane' })).toEqual([
      { type: 'moved', mine: true, from: 'b1', to: 'cd1' },
      { type: 'battle', result: 'won', kind: 'plane', square: 'cd1' },
      { type: 'inEnemyHq', kind: 'plane' },
    ]);
    // Lost or traded there, a move into the own HQ, or one by the enemy: nothing of the viewer's
    // stands in the enemy HQ.
    const none = (reports: readonly { type: string }[]) => reports.filter((r) => r.type === 'inEnemyHq');
    for (const outcome of ['defender', 'both'] as const) {
      expect(none(reportPly('sente', into('sente', 'd7', 'cd8', outcome), { d7: 'cavalry' }))).toEqual([]);
    }
    expect(none(reportPly('sente', into('sente', 'c2', 'cd1', null), { c2: 'tank' }))).toEqual([]);
    expect(none(reportPly('gote', into('sente', 'c7', 'cd8', null), {}))).toEqual([]);
    expect(none(reportPly('gote', into('sente', 'c7', 'cd8', 'attacker'), { cd8: 'mine' }))).toEqual([]);
  });

  it('reports a quiet move only as a move', () => {
    expect(reportPly('gote', ply('sente', null), {})).toEqual([{ type: 'moved', mine: false, from: 'c4', to: 'c5' }]);
  });
});

describe('reportLastPly', () => {
  it('rebuilds from the view alone what each side was told of the last ply, over whole games', () => {
    const engine = testEngine();
    let battles = 0;
    let inEnemyHq = 0;
    for (let seed = 1; seed <= 6; seed++) {
      const game = engine.newGame(engine.autoArrangement('sente', seed), engine.autoArrangement('gote', seed + 100));
      let pick = seed * 7919;
      for (let ply = 0; ply < 400 && game.status().state === 'ongoing'; ply++) {
        const before = { sente: ownPieces(game.view('sente')), gote: ownPieces(game.view('gote')) };
        const moves = game.legalMoves();
        pick = (pick * 1103515245 + 12345) % 2147483648;
        const [from, to] = moves[pick % moves.length]!;
        const { ply: played } = game.play(from, to);
        if (played.battle !== null) battles++;
        for (const side of ['sente', 'gote'] as Side[]) {
          const told = reportPly(side, played, before[side]);
          if (told.some((r) => r.type === 'inEnemyHq')) inEnemyHq++;
          expect(reportLastPly(game.view(side))).toEqual(told);
        }
      }
      game.dispose();
    }
    expect(battles).toBeGreaterThan(50);
    // Random games send pieces into the enemy HQ now and then: the rebuilt report names them too.
    expect(inEnemyHq).toBeGreaterThan(0);
    // Whole games through the wasm engine: seconds on a busy 2-core machine, beyond the default 5.
  }, 30_000);

  it('is empty before the first move', () => {
    const engine = testEngine();
    const game = engine.newGame(engine.autoArrangement('sente', 1), engine.autoArrangement('gote', 2));
    expect(reportLastPly(game.view('gote'))).toEqual([]);
    game.dispose();
  });
});

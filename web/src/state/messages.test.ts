import { describe, expect, it } from 'vitest';
import { reportPly } from './messages';

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

  it('reports a quiet move only as a move', () => {
    expect(reportPly('gote', ply('sente', null), {})).toEqual([{ type: 'moved', mine: false, from: 'c4', to: 'c5' }]);
  });
});

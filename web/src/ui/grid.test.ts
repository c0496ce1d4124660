import { describe, expect, it } from 'vitest';
import { testEngine } from '../test-engine';
import { placement } from './grid';

describe('grid placement', () => {
  const info = (name: string) => {
    const found = testEngine().squares.find((s) => s.name === name);
    if (found === undefined) throw new Error(name);
    return found;
  };

  it("puts the viewer's camp at the bottom and turns the board for gote", () => {
    expect(placement(info('a1'), 'sente')).toEqual({ row: 7, c0: 0, c1: 0 });
    expect(placement(info('f8'), 'sente')).toEqual({ row: 0, c0: 5, c1: 5 });
    expect(placement(info('a1'), 'gote')).toEqual({ row: 0, c0: 5, c1: 5 });
    expect(placement(info('f8'), 'gote')).toEqual({ row: 7, c0: 0, c1: 0 });
  });

  it('spans the HQ over the two middle columns for both viewers', () => {
    expect(placement(info('cd1'), 'sente')).toEqual({ row: 7, c0: 2, c1: 3 });
    expect(placement(info('cd8'), 'gote')).toEqual({ row: 7, c0: 2, c1: 3 });
  });

  it('gives every square its own place', () => {
    for (const viewer of ['sente', 'gote'] as const) {
      const seen = new Set<string>();
      for (const sq of testEngine().squares) {
        const p = placement(sq, viewer);
        for (let c = p.c0; c <= p.c1; c++) {
          const key = `${p.row}:${c}`;
          expect(seen.has(key)).toBe(false);
          seen.add(key);
        }
      }
      expect(seen.size).toBe(48);
    }
  });
});

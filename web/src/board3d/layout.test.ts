import { describe, expect, it } from 'vitest';
import { testEngine } from '../test-engine';
import { CELL, CELLS, RIVER, cellAt, cellOf, columnX } from './layout';

describe('board layout', () => {
  it('has the 46 squares with the engine names, the headquarters merged', () => {
    expect(CELLS.size).toBe(46);
    expect(CELLS.has('cd1')).toBe(true);
    expect(CELLS.has('cd8')).toBe(true);
    for (const name of ['c1', 'd1', 'c8', 'd8']) expect(CELLS.has(name)).toBe(false);
    expect([...CELLS.values()].filter((c) => c.row <= 4)).toHaveLength(23);
    expect(cellOf('cd1')?.width).toBe(2 * CELL);
  });

  it('draws exactly the engine\'s squares, each at the engine\'s row and column', () => {
    const squares = testEngine().squares;
    expect(squares.map((s) => s.name).sort()).toEqual([...CELLS.keys()].sort());
    for (const s of squares) {
      const cell = cellOf(s.name);
      expect(cell?.row).toBe(s.row);
      expect(cell?.hq).toBe(s.hq);
      // An HQ reports column c and covers c and d: its centre lies half a column right of c.
      expect(cell?.x).toBeCloseTo(columnX(s.col) + (s.hq ? CELL / 2 : 0));
    }
  });

  it('marks exactly the four bridge ends as entrances', () => {
    const entrances = [...CELLS.values()].filter((c) => c.entrance).map((c) => c.name);
    expect(entrances.sort()).toEqual(['b4', 'b5', 'e4', 'e5']);
  });

  it('finds every square at its own centre and near its corners', () => {
    for (const cell of CELLS.values()) {
      expect(cellAt(cell.x, cell.z)?.name).toBe(cell.name);
      const dx = cell.width / 2 - 0.05;
      const dz = CELL / 2 - 0.05;
      for (const [sx, sz] of [[-1, -1], [1, -1], [-1, 1], [1, 1]] as const) {
        expect(cellAt(cell.x + sx * dx, cell.z + sz * dz)?.name).toBe(cell.name);
      }
    }
  });

  it('reports no square in the river or off the board', () => {
    expect(cellAt(0, 0)).toBeUndefined();
    expect(cellAt(-1.5, RIVER / 2 - 0.01)).toBeUndefined();
    expect(cellAt(3.2, 2)).toBeUndefined();
    expect(cellAt(0, 4 * CELL + RIVER / 2 + 0.1)).toBeUndefined();
  });

  it('puts sente\'s row 1 nearest the +z side and column a at −x', () => {
    const a1 = cellOf('a1');
    const f8 = cellOf('f8');
    expect(a1 && f8 && a1.z > f8.z && a1.x < f8.x).toBe(true);
    expect(cellOf('d1')?.name).toBe('cd1');
    expect(cellOf('c8')?.name).toBe('cd8');
    expect(cellOf('g1')).toBeUndefined();
  });
});

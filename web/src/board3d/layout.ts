/**
 * Where each of the 46 squares lies in the scene. This is drawing geometry, not rules: which
 * squares exist and how they are named is the engine's; this file only places them.
 *
 * World axes: x grows from column a to column f, y is up, z grows toward sente (row 1 is nearest
 * sente's camera, row 8 farthest). One square is one unit.
 */

/** Side of one square. */
export const CELL = 1;
/** Width of the river between rows 4 and 5. */
export const RIVER = 0.9;
/** Wood left around the squares. */
export const MARGIN = 0.5;
/** Board extent along x. */
export const BOARD_WIDTH = 6 * CELL + 2 * MARGIN;
/** Board extent along z. */
export const BOARD_DEPTH = 8 * CELL + RIVER + 2 * MARGIN;

const COLUMNS = 'abcdef';

/** One square as drawn. */
export interface Cell {
  name: string;
  /** Centre in world x. */
  x: number;
  /** Centre in world z. */
  z: number;
  /** Width along x: 2 for the merged headquarters, 1 otherwise. */
  width: number;
  row: number;
  hq: boolean;
  /** A square at a bridge end (b4, e4, b5, e5). */
  entrance: boolean;
}

/** World z of a row's centre. */
export function rowZ(row: number): number {
  return (4.5 - row) * CELL + (row <= 4 ? RIVER / 2 : -RIVER / 2);
}

/** World x of a column's centre (0 = a … 5 = f). */
export function columnX(column: number): number {
  return (column - 2.5) * CELL;
}

function buildCells(): Map<string, Cell> {
  const cells = new Map<string, Cell>();
  for (let row = 1; row <= 8; row++) {
    for (let column = 0; column < 6; column++) {
      const hq = (row === 1 || row === 8) && (column === 2 || column === 3);
      if (hq && column === 3) continue;
      const name = hq ? `cd${row}` : `${COLUMNS[column]}${row}`;
      cells.set(name, {
        name,
        x: hq ? 0 : columnX(column),
        z: rowZ(row),
        width: hq ? 2 * CELL : CELL,
        row,
        hq,
        entrance: (row === 4 || row === 5) && (column === 1 || column === 4),
      });
    }
  }
  return cells;
}

/** Every square by its engine name. */
export const CELLS: ReadonlyMap<string, Cell> = buildCells();

/**
 * The cell for a square name. Accepts the engine's canonical names and, like the engine's parser,
 * `c1`/`d1`/`c8`/`d8` for the headquarters.
 */
export function cellOf(name: string): Cell | undefined {
  const direct = CELLS.get(name);
  if (direct) return direct;
  if (name === 'c1' || name === 'd1') return CELLS.get('cd1');
  if (name === 'c8' || name === 'd8') return CELLS.get('cd8');
  return undefined;
}

/** The square under a point of the board's top face, if any. */
export function cellAt(x: number, z: number): Cell | undefined {
  let row: number;
  if (z > RIVER / 2) {
    row = 4 - Math.floor((z - RIVER / 2) / CELL);
  } else if (z < -RIVER / 2) {
    row = 5 + Math.floor((-z - RIVER / 2) / CELL);
  } else {
    return undefined;
  }
  const column = Math.floor(x / CELL + 3);
  if (row < 1 || row > 8 || column < 0 || column > 5) return undefined;
  if ((row === 1 || row === 8) && (column === 2 || column === 3)) return CELLS.get(`cd${row}`);
  return CELLS.get(`${COLUMNS[column]}${row}`);
}

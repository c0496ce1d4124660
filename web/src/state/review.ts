/**
 * Looking back over a finished game: every position from the arrangements to the end, with every
 * piece's kind (everything is revealed once the game is over). The plies are applied as the
 * referee announced them (`piecesAfter`), so stepping through a long game costs next to nothing.
 */
import type { Arrangement, KindId, Ply, Side, Square } from '../engine';
import { piecesAfter } from './ply';

/** Both sides' arrangements as the game started. */
export interface Setups {
  readonly sente: Arrangement;
  readonly gote: Arrangement;
}

export interface RevealedPiece {
  readonly square: Square;
  readonly side: Side;
  readonly kind: KindId;
}

/** One position of the game: after `ply`, or the start (`ply` null). */
export interface ReviewFrame {
  readonly pieces: readonly RevealedPiece[];
  readonly ply: Ply | null;
}

type Board = Readonly<Record<Square, { readonly side: Side; readonly kind: KindId }>>;

function frame(board: Board, ply: Ply | null): ReviewFrame {
  return { pieces: Object.entries(board).map(([square, p]) => ({ square, ...p })), ply };
}

/** Whether `ply` could have been played on `board`: its side's piece moves, onto an enemy iff it fought. */
function fits(board: Board, ply: Ply): boolean {
  const target = board[ply.to];
  return board[ply.from]?.side === ply.side && (ply.battle === null ? target === undefined : target !== undefined && target.side !== ply.side);
}

/**
 * Every position of the game, the start first: `history.length + 1` frames. A ply that does not
 * fit the position before it (a record that does not belong to these arrangements) ends the list.
 */
export function reviewFrames(setups: Setups, history: readonly Ply[]): ReviewFrame[] {
  const start: Record<Square, { readonly side: Side; readonly kind: KindId }> = {};
  for (const side of ['sente', 'gote'] as const) {
    for (const [square, kind] of Object.entries(setups[side])) start[square] = { side, kind };
  }
  let board: Board = start;
  const frames = [frame(board, null)];
  for (const ply of history) {
    if (!fits(board, ply)) break;
    board = piecesAfter(board, ply);
    frames.push(frame(board, ply));
  }
  return frames;
}

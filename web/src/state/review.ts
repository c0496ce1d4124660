/**
 * Looking back over a finished game: every position from the arrangements to the end, with every
 * piece's kind (everything is revealed once the game is over). The engine replays the plies; this
 * file only collects what it shows.
 */
import type { Arrangement, Engine, EngineGame, KindId, Ply, Side, Square } from '../engine';

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

function position(game: EngineGame, ply: Ply | null): ReviewFrame {
  const pieces: RevealedPiece[] = [];
  // Each side's view holds its own kinds: the two together are the whole board.
  for (const side of ['sente', 'gote'] as const) {
    for (const [square, p] of Object.entries(game.view(side).pieces)) {
      if (p.side === side && p.kind !== undefined) pieces.push({ square, side, kind: p.kind });
    }
  }
  return { pieces, ply };
}

/**
 * Every position of the game, the start first: `history.length + 1` frames. A ply the
 * arrangements cannot replay (a record that does not fit them) ends the list there.
 */
export function reviewFrames(engine: Engine, setups: Setups, history: readonly Ply[]): ReviewFrame[] {
  let game: EngineGame;
  try {
    game = engine.newGame(setups.sente, setups.gote);
  } catch {
    return [];
  }
  try {
    const frames = [position(game, null)];
    for (const ply of history) {
      try {
        game.play(ply.from, ply.to);
      } catch {
        break;
      }
      frames.push(position(game, ply));
    }
    return frames;
  } finally {
    game.dispose();
  }
}

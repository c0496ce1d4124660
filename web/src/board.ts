/**
 * What a board draws and how it reports presses. Both the button grid and the 3D board
 * (`board3d/`, mounted beside the grid when WebGL works) take this state; neither holds a rule.
 * The shape matches `board3d`'s `BoardRenderState`.
 */
import type { Board3DText } from './board3d/types';
import type { Outcome, Side, Square } from './engine';

export interface PieceState {
  readonly square: Square;
  readonly side: Side;
  /** The kind id; absent when hidden from the viewer. */
  readonly kind?: string | undefined;
  /** The localized name; absent when hidden. */
  readonly label?: string | undefined;
  /** What the square itself shows, where the name is too long for it ("Lt. Col."); else the label. */
  readonly face?: string | undefined;
}

export interface BoardState {
  /** Whose eyes the board is drawn for: that side's camp is at the bottom. */
  readonly viewer: Side;
  readonly pieces: readonly PieceState[];
  /** The picked piece or square (yellow frame). */
  readonly selected?: Square | undefined;
  /** Empty squares the picked piece can enter (green dots). */
  readonly moveTargets: readonly Square[];
  /** Enemy-held squares the picked piece can attack (red frames). */
  readonly attackTargets: readonly Square[];
  /** The last move (orange frames). */
  readonly lastMove?: { readonly from: Square; readonly to: Square } | undefined;
  readonly battle?: { readonly square: Square; readonly outcome: Outcome } | undefined;
  /** A move just taken back while stepping back through a finished game (the 3D board slides it). */
  readonly undone?: { readonly from: Square; readonly to: Square } | undefined;
  /** The game is over and every kind shown: the 3D board lays its pieces face up (the grid shows every name anyway). */
  readonly faceUp?: boolean | undefined;
  /** Two share the screen and both may be looking (the game is over): the squares name each
   * piece's side, since "yours" would name whoever moved last. */
  readonly bySide?: boolean | undefined;
}

/** A board the page can drive: the grid, or the 3D board. */
export interface BoardView {
  setState(state: BoardState): void;
  /**
   * Resolves once the board shows the last state it was given: a board that plays moves out
   * (the 3D board's slides and battles, most of a second) has finished.
   */
  settled?(): Promise<void>;
  /** Registers a listener for square presses; returns a function that removes it. */
  onSquare(listener: (square: Square) => void): () => void;
  resize(): void;
  dispose(): void;
}

/** The 3D board as the page drives it: a board whose text (view buttons, name) has a language. */
export interface Board3DView extends BoardView {
  setText(lang: string, text: Board3DText): void;
}

/**
 * The state with every name and kind of the enemy's pieces removed unless the game is `over`: a
 * last guard so that no board (the 3D board draws labels as textures) is ever handed a hidden
 * name, whatever the state came from. The viewer's own pieces keep theirs.
 */
export function withoutHiddenNames(state: BoardState, over: boolean): BoardState {
  if (over || state.pieces.every((p) => p.side === state.viewer || (p.kind === undefined && p.label === undefined))) {
    return state;
  }
  return {
    ...state,
    pieces: state.pieces.map((p) => (p.side === state.viewer ? p : { square: p.square, side: p.side })),
  };
}

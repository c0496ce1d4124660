/** The 3D board: see {@link Board3D}. */
export { Board3D, type ScreenPoint } from './board3d';
export { webglSupported } from './support';
export type {
  BattleOutcome,
  Board3DOptions,
  Board3DText,
  BoardRenderState,
  PieceRender,
  Side,
  ViewMode,
} from './types';

/**
 * Loads three.js and the 3D board only where WebGL works, so the page stays playable (with the
 * grid) before, and without, the 3D board.
 */
import type { Board3D } from './board3d';
import { webglSupported } from './support';
import type { Board3DOptions } from './types';

/**
 * The 3D board mounted in `container`, or `null` where WebGL is unavailable or fails to start
 * (the page then says so once and plays on the grid).
 */
export async function loadBoard3D(container: HTMLElement, opts: Board3DOptions): Promise<Board3D | null> {
  if (!webglSupported()) return null;
  try {
    const { Board3D } = await import('./board3d');
    return new Board3D(container, opts);
  } catch {
    return null;
  }
}

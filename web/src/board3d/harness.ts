/**
 * Test page for the 3D board alone (`e2e-support/board3d.html`), used by the browser tests in
 * `e2e/board3d.test.mjs`. It mounts the board and records the squares it reports; the tests drive
 * it through `window.board3d`. Not part of the game page's bundle.
 */
import { Board3D } from './index';

declare global {
  interface Window {
    board3d?: Board3D;
    board3dClicks: string[];
    board3dStatus: 'ready' | 'unsupported' | 'failed';
  }
}

const params = new URLSearchParams(location.search);
const host = document.getElementById('board');
window.board3dClicks = [];
if (!host) {
  window.board3dStatus = 'failed';
} else if (!Board3D.supported()) {
  window.board3dStatus = 'unsupported';
  host.textContent = 'WebGL unavailable';
} else {
  // `hidden=1`: mount into a hidden container, as the page does before it shows the board.
  if (params.get('hidden') === '1') host.hidden = true;
  const reduced = params.get('reduced');
  const board = new Board3D(host, {
    lang: params.get('lang') ?? 'en',
    text: { diagonal: 'Diagonal', top: 'Top', board: 'Board', lost: 'The 3D board stopped drawing', zoomHint: 'Pause, then wheel to zoom', turnHint: 'Two fingers turn' },
    reducedMotion: reduced === null ? undefined : reduced === '1',
    view: params.get('view') === 'top' ? 'top' : 'diagonal',
  });
  board.onSquare((square) => window.board3dClicks.push(square));
  window.board3d = board;
  window.board3dStatus = 'ready';
}

/**
 * The real game page with the 3D board mounted (`e2e-support/page3d.html`), for
 * `e2e/board3d-page.test.mjs`: the same boot as `main.ts`, plus `loadBoard3D` into the page's
 * board mount, reduced motion, and seeded arrangements so runs repeat. Not part of the bundle.
 */
import '../style.css';
import { App } from '../app';
import { loadEngine } from '../engine';
import { loadBoard3D } from './load';
import type { Board3D } from './board3d';

declare global {
  interface Window {
    board3d?: Board3D;
    gunjinApp?: App;
    gunjinTest?: ReturnType<App['testHooks']>;
  }
}

async function boot(): Promise<void> {
  const host = document.getElementById('app');
  if (host === null) return;
  const engine = await loadEngine();
  host.classList.remove('boot');
  host.replaceChildren();
  let seed = 77;
  const app = new App(host, engine, { storage: undefined, languages: [], random: () => seed++ });
  // The harness reads English, which only a choice gives (a browser's English leaves the page
  // in Japanese).
  app.setLang('en');
  window.gunjinApp = app;
  window.gunjinTest = app.testHooks();
  const board = await loadBoard3D(app.boardMount, {
    lang: app.i18n.lang,
    // Test page only: the product's labels come from the page's i18n catalogue.
    text: { diagonal: 'Diagonal', top: 'Top', board: 'Board' },
    reducedMotion: true,
  });
  if (board !== null) {
    app.mountBoard(board);
    window.board3d = board;
  }
  document.body.dataset['ready'] = board === null ? 'no-3d' : '3d';
}

void boot();

/** Entry point: loads the engine (wasm), then builds the root object. */
import './style.css';
import { App } from './app';
import type { Board3D } from './board3d/board3d';
import { loadBoard3D } from './board3d/load';
import { loadEngine } from './engine';
import { CATALOGUES, asLang, detectLang, format } from './i18n';
import { roomFromUrl } from './online/browser';
import { friendMode } from './online/modes';
import { browserStorage, readJson, readText, writeJson } from './storage';

const VIEW_KEY = 'gunjin.view3d';

declare global {
  interface Window {
    gunjinApp?: App;
    gunjinTest?: ReturnType<App['testHooks']>;
    /** The 3D board, for the end-to-end tests (`?e2e`): projected square positions, settling. */
    gunjinBoard3D?: Board3D;
  }
}


function randomSeed(): number {
  const buf = new Uint32Array(1);
  crypto.getRandomValues(buf);
  return buf[0] ?? 0;
}

/** Mounts the 3D board, or tells the page it has none; whether it is mounted. */
async function mount3D(app: App, test: boolean): Promise<boolean> {
  // The view chosen last (slanted or from above) comes back with the page, as the sound switch does.
  const kept = readJson(browserStorage(), VIEW_KEY);
  const board = await loadBoard3D(app.boardMount, {
    lang: app.i18n.lang,
    text: app.board3dText(),
    controls: app.board3dBar,
    view: kept === 'top' || kept === 'diagonal' ? kept : undefined,
    onView: (view) => writeJson(browserStorage(), VIEW_KEY, view),
  });
  if (board !== null) {
    try {
      app.mountBoard3D(board);
      if (test) window.gunjinBoard3D = board;
      return true;
    } catch {
      board.dispose();
    }
  }
  app.without3D();
  return false;
}

async function boot(): Promise<void> {
  const host = document.getElementById('app');
  if (host === null) return;
  try {
    const engine = await loadEngine();
    host.classList.remove('boot');
    host.replaceChildren();
    const app = new App(host, engine, {
      storage: browserStorage(),
      languages: navigator.languages.length > 0 ? navigator.languages : [navigator.language],
      random: randomSeed,
    });
    const params = new URLSearchParams(location.search);
    // A link may name the language (`?lang=ja`, `ko`, `en`): it wins over the browser's, and is
    // remembered like a switch.
    const lang = asLang(params.get('lang'));
    if (lang !== null && lang !== app.i18n.lang) app.setLang(lang);
    const test = params.has('e2e');
    // Only for the browser tests: in the page's own modes the app holds both sides' pieces, and
    // a global would put them one console line away from a player.
    if (test) {
      window.gunjinApp = app;
      window.gunjinTest = app.testHooks();
    }
    // A room URL (`/?room=<id>`) opens that room: the invitation, or this browser's seat.
    const room = roomFromUrl(location.href);
    if (room !== null) app.startMode(friendMode(room));
    // The grid plays already; the 3D board (three.js, a lazily loaded chunk) joins it when WebGL
    // works, and otherwise the page says so once.
    document.body.dataset['board3d'] = (await mount3D(app, test)) ? 'on' : 'off';
    // Offline play once the page has been open (build-support/service-worker.ts). The browser
    // tests open hundreds of fresh pages: only the one that tests it (`?sw`) pays for the download.
    if (import.meta.env.PROD && 'serviceWorker' in navigator && (!test || params.has('sw'))) {
      // The page is playable by now: the worker's downloads no longer compete with it.
      navigator.serviceWorker.register('/sw.js').catch(() => {
        // Without the worker the game still works; only offline play is missing.
      });
    }
  } catch (e) {
    const saved = readText(browserStorage(), 'gunjin.lang');
    const lang = asLang(saved) ?? detectLang(navigator.languages);
    host.textContent = format(CATALOGUES[lang].loadFailed, { error: String(e) });
  }
}

// A reload comes back to another screen (the start screen's offers, a game's board): the
// browser's remembered scroll position would show a part of the page the player was never at.
if ('scrollRestoration' in history) history.scrollRestoration = 'manual';
void boot();

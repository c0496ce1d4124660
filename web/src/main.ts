/** Entry point: loads the engine (wasm), then builds the root object. */
import './style.css';
import { App } from './app';
import { loadEngine } from './engine';
import { CATALOGUES, detectLang, format } from './i18n';
import { roomFromUrl } from './online/browser';
import { friendMode } from './online/modes';

declare global {
  interface Window {
    gunjinApp?: App;
    gunjinTest?: ReturnType<App['testHooks']>;
  }
}

function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

function randomSeed(): number {
  const buf = new Uint32Array(1);
  crypto.getRandomValues(buf);
  return buf[0] ?? 0;
}

async function boot(): Promise<void> {
  const host = document.getElementById('app');
  if (host === null) return;
  try {
    const engine = await loadEngine();
    host.classList.remove('boot');
    host.replaceChildren();
    const app = new App(host, engine, {
      storage: storage(),
      languages: navigator.languages.length > 0 ? navigator.languages : [navigator.language],
      random: randomSeed,
    });
    window.gunjinApp = app;
    if (new URLSearchParams(location.search).has('e2e')) window.gunjinTest = app.testHooks();
    // A room URL (`/?room=<id>`) opens that room: the invitation, or this browser's seat.
    const room = roomFromUrl(location.href);
    if (room !== null) app.startMode(friendMode(room));
  } catch (e) {
    const saved = storage()?.getItem('gunjin.lang');
    const lang = saved === 'ja' || saved === 'ko' || saved === 'en' ? saved : detectLang(navigator.languages);
    host.textContent = format(CATALOGUES[lang].loadFailed, { error: String(e) });
  }
}

void boot();

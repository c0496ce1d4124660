// Builds the 3D board's test page with Vite, serves it from a local port and starts headless
// Chromium (playwright-core, the system /usr/bin/chromium) with the flags from TOOLCHAIN.md.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { build } from 'vite';

export const WEB_DIR = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const BASE_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
];

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};

/**
 * Builds test pages of e2e-support/ (default: the 3D board alone) into a temporary directory;
 * returns that directory.
 */
export async function buildHarness(pages = ['board3d.html']) {
  const outDir = await mkdtemp(join(tmpdir(), 'board3d-harness-'));
  await build({
    root: WEB_DIR,
    configFile: false,
    logLevel: 'error',
    base: './',
    build: {
      outDir,
      emptyOutDir: true,
      rollupOptions: { input: pages.map((page) => join(WEB_DIR, 'e2e-support', page)) },
    },
  });
  return outDir;
}

/** Serves a directory on 127.0.0.1 at a free port. */
export async function serve(dir) {
  const root = resolve(dir);
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      const file = normalize(join(root, path));
      if (!file.startsWith(root + sep)) throw new Error('outside');
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () => new Promise((ok) => server.close(ok)),
  };
}

/** Starts headless Chromium; `webgl: false` disables WebGL entirely. */
export async function launch({ webgl = true } = {}) {
  const args = [...BASE_FLAGS];
  if (!webgl) args.push('--disable-webgl', '--disable-3d-apis');
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args });
}

/** Builds, serves and launches; `stop()` undoes all of it. */
export async function startHarness(options) {
  const dir = await buildHarness();
  const server = await serve(dir);
  const browser = await launch(options);
  return {
    url: `${server.url}/e2e-support/board3d.html`,
    browser,
    async stop() {
      await browser.close();
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

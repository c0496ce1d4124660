/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy beside each compressible file of the built
 * page, once at build time, so the server sends a third of the bytes without compressing
 * anything per request (the server picks the copy the browser accepts).
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text and wasm compress well; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(m?js|css|html|wasm|svg|json|webmanifest|txt)$/;
/** Below this the copy saves less than the response's own headers weigh. */
export const MIN_BYTES = 1024;

/** One file and the sizes of what was written beside it (0: no copy, it would not be smaller). */
export interface Compressed {
  path: string;
  raw: number;
  br: number;
  gzip: number;
}

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    // Vite's manifest lives in `.vite/`; nothing hidden is served to players.
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile()) yield path;
  }
}

/** Writes `file.br` and `file.gz` beside every compressible file under `dir` worth it. */
export async function precompressDir(dir: string): Promise<Compressed[]> {
  const jobs: Promise<Compressed>[] = [];
  for await (const path of files(dir)) {
    if (!COMPRESSIBLE.test(path)) continue;
    jobs.push(
      (async () => {
        const body = await readFile(path);
        if (body.length < MIN_BYTES) return { path, raw: body.length, br: 0, gzip: 0 };
        const [br, gzipped] = await Promise.all([
          brotli(body, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
            },
          }),
          gz(body, { level: constants.Z_BEST_COMPRESSION }),
        ]);
        const written = { path, raw: body.length, br: 0, gzip: 0 };
        if (br.length < body.length) {
          await writeFile(`${path}.br`, br);
          written.br = br.length;
        }
        if (gzipped.length < body.length) {
          await writeFile(`${path}.gz`, gzipped);
          written.gzip = gzipped.length;
        }
        return written;
      })(),
    );
  }
  return Promise.all(jobs);
}

/** The Vite plugin: precompresses the output folder after every production build. */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'gunjin-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await precompressDir(outDir);
    },
  };
}

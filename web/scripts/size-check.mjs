#!/usr/bin/env node
// Size budget of the built page: the gzip size of the JavaScript and wasm a visitor downloads
// before the board is playable, under a build directory (default web/dist), compared with the
// budget (default 300 kB = 300 000 bytes).
//
//   node scripts/size-check.mjs [dir] [--budget=BYTES] [--lazy=SRC ...]
//
// With Vite's manifest (`dir/.vite/manifest.json`, `build.manifest`) it counts the page's entry
// chunk, every chunk it imports statically, their wasm, and the lazily loaded chunks that the
// board needs (`--lazy`, default `src/board3d/board3d.ts`: three.js and the 3D board) with their
// static imports. Files loaded only later (the help text, the CPU's Web Worker and its wasm) are
// listed but not counted. Without a manifest every .js/.wasm file counts.
//
// Prints one line per file and the total; exits 1 when the total is over budget or when the
// directory holds no JavaScript or wasm at all (a missing build must not pass).
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** The budget of issue 4: page JS + wasm, gzip, in bytes. */
export const BUDGET = 300_000;

const COUNTED = /\.(m?js|wasm)$/;

/** The lazily loaded chunk the board needs to be playable (three.js and the 3D board). */
export const BOARD_CHUNKS = ['src/board3d/board3d.ts'];

async function* walk(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile()) yield path;
  }
}

/** Raw and gzip sizes of the counted files under `dir`, largest first, with their total. */
export async function measure(dir) {
  const files = [];
  for await (const path of walk(dir)) {
    if (!COUNTED.test(path)) continue;
    const body = await readFile(path);
    files.push({ path: relative(dir, path), raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
  }
  files.sort((a, b) => b.gzip - a.gzip);
  const total = files.reduce((t, f) => ({ raw: t.raw + f.raw, gzip: t.gzip + f.gzip }), { raw: 0, gzip: 0 });
  return { files, total };
}

/**
 * The files (relative to the build directory) loaded before the board is playable, from Vite's
 * manifest: the entry chunks, the `lazy` dynamic entries, their static imports, and the wasm
 * assets of all of those (not their other assets: a Web Worker's script is loaded when used).
 */
export function criticalFiles(manifest, lazy = BOARD_CHUNKS) {
  const files = new Set();
  const seen = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (chunk === undefined || seen.has(key)) return;
    seen.add(key);
    files.add(chunk.file);
    for (const asset of chunk.assets ?? []) if (asset.endsWith('.wasm')) files.add(asset);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key);
  for (const key of lazy) {
    if (manifest[key] === undefined) throw new Error(`the manifest has no chunk ${key}`);
    visit(key);
  }
  return files;
}

async function readManifest(dir) {
  try {
    return JSON.parse(await readFile(join(dir, '.vite', 'manifest.json'), 'utf8'));
  } catch (e) {
    if (e.code === 'ENOENT') return null;
    throw e;
  }
}

const kB = (n) => `${(n / 1000).toFixed(1)} kB`;

/** Runs the check; returns the process exit code. */
export async function main(argv) {
  const budgetArg = argv.find((a) => a.startsWith('--budget='));
  const budget = budgetArg ? Number(budgetArg.slice('--budget='.length)) : BUDGET;
  if (!Number.isFinite(budget) || budget <= 0) {
    console.error(`size-check: bad budget ${budgetArg}`);
    return 2;
  }
  const here = fileURLToPath(new URL('..', import.meta.url));
  const dir = resolve(argv.find((a) => !a.startsWith('--')) ?? join(here, 'dist'));
  const lazyArgs = argv.filter((a) => a.startsWith('--lazy=')).map((a) => a.slice('--lazy='.length));
  let result;
  let critical = null;
  try {
    result = await measure(dir);
    const manifest = await readManifest(dir);
    if (manifest !== null) critical = criticalFiles(manifest, lazyArgs.length > 0 ? lazyArgs : BOARD_CHUNKS);
  } catch (e) {
    console.error(`size-check: cannot read ${dir}: ${e.message} (build the page first)`);
    return 1;
  }
  if (result.files.length === 0) {
    console.error(`size-check: no .js or .wasm files under ${dir} (build the page first)`);
    return 1;
  }
  const line = (f, note = '') => `${kB(f.gzip).padStart(10)} gzip ${kB(f.raw).padStart(10)} raw  ${f.path}${note}`;
  if (critical !== null) {
    const missing = [...critical].filter((f) => COUNTED.test(f) && !result.files.some((r) => r.path === f));
    if (missing.length > 0) {
      console.error(`size-check: the manifest names files not in ${dir}: ${missing.join(', ')}`);
      return 1;
    }
    const later = result.files.filter((f) => !critical.has(f.path));
    result.files = result.files.filter((f) => critical.has(f.path));
    result.total = result.files.reduce((t, f) => ({ raw: t.raw + f.raw, gzip: t.gzip + f.gzip }), { raw: 0, gzip: 0 });
    console.log('before the board is playable (counted):');
    for (const f of result.files) console.log(line(f));
    for (const f of later) console.log(line(f, '  (loaded later, not counted)'));
  } else {
    for (const f of result.files) console.log(line(f));
  }
  const verdict = result.total.gzip <= budget ? 'within' : 'OVER';
  console.log(
    `${kB(result.total.gzip).padStart(10)} gzip ${kB(result.total.raw).padStart(10)} raw  total: ${verdict} the budget of ${kB(budget)}`,
  );
  return result.total.gzip <= budget ? 0 : 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}

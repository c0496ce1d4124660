#!/usr/bin/env node
// Size budget of the built page: the gzip size of every JavaScript and wasm file under a build
// directory (default web/dist), compared with the budget (default 300 kB = 300 000 bytes).
//
//   node scripts/size-check.mjs [dir] [--budget=BYTES]
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
  let result;
  try {
    result = await measure(dir);
  } catch (e) {
    console.error(`size-check: cannot read ${dir}: ${e.message} (build the page first)`);
    return 1;
  }
  if (result.files.length === 0) {
    console.error(`size-check: no .js or .wasm files under ${dir} (build the page first)`);
    return 1;
  }
  for (const f of result.files) {
    console.log(`${kB(f.gzip).padStart(10)} gzip ${kB(f.raw).padStart(10)} raw  ${f.path}`);
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

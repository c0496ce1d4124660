// The size check of the built page (scripts/size-check.mjs): it counts JS and wasm by their gzip
// size and fails above the budget; and, when a build exists in web/dist, that build is within it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';

const SCRIPT = fileURLToPath(new URL('../scripts/size-check.mjs', import.meta.url));
const DIST = fileURLToPath(new URL('../dist', import.meta.url));

function run(...args) {
  const r = spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout + r.stderr };
}

describe('size check', () => {
  let dir;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'size-check-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('passes a small build and counts only JS and wasm', async () => {
    const small = join(dir, 'small');
    await mkdir(join(small, 'assets'), { recursive: true });
    await writeFile(join(small, 'assets', 'index.js'), 'console.log("hello");\n'.repeat(2000));
    await writeFile(join(small, 'assets', 'engine.wasm'), randomBytes(20_000));
    // Incompressible but not counted: images and styles are outside the budget.
    await writeFile(join(small, 'assets', 'photo.png'), randomBytes(400_000));
    const r = run(small);
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /within the budget/);
    assert.match(r.out, /engine\.wasm/);
    assert.doesNotMatch(r.out, /photo\.png/);
  });

  it('fails a build over the budget', async () => {
    const big = join(dir, 'big');
    await mkdir(big, { recursive: true });
    // Base64 of random bytes gzips to about three quarters of its length: ~400 kB here.
    await writeFile(join(big, 'vendor.js'), randomBytes(400_000).toString('base64'));
    const r = run(big);
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, /OVER the budget of 300\.0 kB/);
    assert.equal(run(big, '--budget=500000').code, 0, 'the same build fits a larger budget');
  });

  it('fails when there is no build to measure', async () => {
    assert.equal(run(join(dir, 'missing')).code, 1);
    const empty = join(dir, 'empty');
    await mkdir(empty, { recursive: true });
    assert.equal(run(empty).code, 1);
  });

  it('finds the built page (web/dist) within 300 kB gzip', { skip: !existsSync(DIST) && 'web/dist not built' }, () => {
    const r = run(DIST);
    assert.equal(r.code, 0, r.out);
  });
});

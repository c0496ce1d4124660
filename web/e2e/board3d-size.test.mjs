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

  it("with Vite's manifest, counts what loads before the board is playable and lists the rest", async () => {
    const site = join(dir, 'site');
    await mkdir(join(site, 'assets'), { recursive: true });
    await mkdir(join(site, '.vite'), { recursive: true });
    // ~175 kB gzip counted (entry + its wasm + the board chunk and its import), ~245 kB not.
    const files = {
      'assets/index.js': 40_000,
      'assets/engine.wasm': 60_000,
      'assets/board3d.js': 80_000,
      'assets/shared.js': 50_000,
      'assets/cpu.worker.js': 100_000,
      'assets/engine-cpu.wasm': 200_000,
      'assets/help.js': 20_000,
    };
    for (const [name, size] of Object.entries(files)) {
      await writeFile(join(site, name), randomBytes(size * 0.75).toString('base64'));
    }
    const manifest = {
      'index.html': {
        file: 'assets/index.js',
        isEntry: true,
        imports: ['_shared.js'],
        dynamicImports: ['src/board3d/board3d.ts', 'src/help/content.ts'],
        assets: ['assets/cpu.worker.js', 'assets/engine.wasm'],
      },
      '_shared.js': { file: 'assets/shared.js' },
      'src/board3d/board3d.ts': { file: 'assets/board3d.js', isDynamicEntry: true, imports: ['index.html'] },
      'src/help/content.ts': { file: 'assets/help.js', isDynamicEntry: true },
    };
    await writeFile(join(site, '.vite', 'manifest.json'), JSON.stringify(manifest));
    const r = run(site, '--budget=250000');
    assert.equal(r.code, 0, r.out);
    for (const name of ['index.js', 'engine.wasm', 'board3d.js', 'shared.js']) {
      assert.match(r.out, new RegExp(`raw  assets/${name.replace('.', '\\.')}\n`), `${name} counted`);
    }
    for (const name of ['cpu.worker.js', 'engine-cpu.wasm', 'help.js']) {
      assert.match(r.out, new RegExp(`assets/${name.replace('.', '\\.')}  \\(loaded later, not counted\\)`), `${name} not counted`);
    }
    const total = Number(/([\d.]+) kB gzip .* total/.exec(r.out)?.[1]);
    assert.ok(total > 160 && total < 190, `counted ${total} kB`);
    // Counting the help chunk instead of the board chunk makes the same site smaller.
    assert.equal(run(site, '--budget=150000').code, 1, 'the board chunk is counted');
    assert.equal(run(site, '--budget=150000', '--lazy=src/help/content.ts').code, 0);
    assert.equal(run(site, '--lazy=src/nothing.ts').code, 1, 'an unknown lazy chunk is an error');
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

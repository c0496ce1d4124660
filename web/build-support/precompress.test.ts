import { mkdtemp, readFile, readdir, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { MIN_BYTES, precompressDir } from './precompress';

let dir = '';
afterEach(async () => {
  if (dir !== '') await rm(dir, { recursive: true, force: true });
});

describe('precompressDir', () => {
  it('writes brotli and gzip copies that decompress to the file, and only where they pay', async () => {
    dir = await mkdtemp(join(tmpdir(), 'gunjin-precompress-'));
    await mkdir(join(dir, 'assets'));
    await mkdir(join(dir, '.vite'));
    const script = Buffer.from('export const board = "a1 b1 cd1 e1 f1";\n'.repeat(200));
    await writeFile(join(dir, 'assets', 'index-abc.js'), script);
    await writeFile(join(dir, 'index.html'), '<!doctype html><title>small</title>');
    await writeFile(join(dir, 'assets', 'photo.png'), Buffer.alloc(4096, 7));
    await writeFile(join(dir, '.vite', 'manifest.json'), JSON.stringify({ x: 'y'.repeat(4096) }));

    const done = await precompressDir(dir);

    const js = await readFile(join(dir, 'assets', 'index-abc.js.br'));
    expect(brotliDecompressSync(js).equals(script)).toBe(true);
    expect(gunzipSync(await readFile(join(dir, 'assets', 'index-abc.js.gz'))).equals(script)).toBe(true);
    expect(js.length).toBeLessThan(script.length / 10);
    // Too small to pay, not compressible, or not served: no copies.
    expect((await readdir(dir)).sort()).toEqual(['.vite', 'assets', 'index.html']);
    expect((await readdir(join(dir, 'assets'))).sort()).toEqual([
      'index-abc.js',
      'index-abc.js.br',
      'index-abc.js.gz',
      'photo.png',
    ]);
    expect(await readdir(join(dir, '.vite'))).toEqual(['manifest.json']);
    const html = done.find((f) => f.path.endsWith('index.html'));
    expect(html).toMatchObject({ br: 0, gzip: 0 });
    expect(html?.raw).toBeLessThan(MIN_BYTES);
  });
});

import { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { serviceWorkerSource } from './service-worker';

/** The KEEP list and cache name written into a worker's source. */
function parts(source: string): { cache: string; keep: string[] } {
  const cache = /const CACHE = '([^']+)'/.exec(source)?.[1] ?? '';
  const keep = JSON.parse(/const KEEP = (\[.*\]);/.exec(source)?.[1] ?? '[]') as string[];
  return { cache, keep };
}

describe('serviceWorkerSource', () => {
  it('keeps the page, every file of the build and the icons, in valid JavaScript', () => {
    const source = serviceWorkerSource(['/assets/index-a.js', '/assets/engine-b.wasm']);
    expect(() => new Script(source)).not.toThrow();
    const { keep } = parts(source);
    expect(keep.slice(0, 3)).toEqual(['/', '/assets/index-a.js', '/assets/engine-b.wasm']);
    expect(keep).toContain('/icons/icon-192.png');
  });

  it('is a new worker with a new cache for every new build, and the same for the same build', () => {
    const a = parts(serviceWorkerSource(['/assets/index-a.js']));
    const again = parts(serviceWorkerSource(['/assets/index-a.js']));
    const b = parts(serviceWorkerSource(['/assets/index-b.js']));
    expect(a.cache).toMatch(/^gunjin-[0-9a-f]{16}$/);
    expect(again.cache).toBe(a.cache);
    expect(b.cache).not.toBe(a.cache);
    // Same file names, but the page or an icon changed: a new worker too.
    const icon = parts(serviceWorkerSource(['/assets/index-a.js'], ['<html>', new Uint8Array([1, 2])]));
    const otherIcon = parts(serviceWorkerSource(['/assets/index-a.js'], ['<html>', new Uint8Array([1, 3])]));
    expect(icon.cache).not.toBe(a.cache);
    expect(otherIcon.cache).not.toBe(icon.cache);
  });
});

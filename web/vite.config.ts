import { defineConfig } from 'vitest/config';
import { pageMeta } from './build-support/page-meta.ts';
import { precompress } from './build-support/precompress.ts';
import { serviceWorker } from './build-support/service-worker.ts';

export default defineConfig({
  // precompress last: it compresses what the others wrote.
  plugins: [pageMeta(), serviceWorker(), precompress()],
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 900,
    // Read by scripts/size-check.mjs to find what loads before the board is playable.
    manifest: true,
  },
  test: {
    include: ['src/**/*.test.ts', 'build-support/**/*.test.ts'],
    environment: 'node',
  },
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 900,
    // Read by scripts/size-check.mjs to find what loads before the board is playable.
    manifest: true,
  },
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
  },
});

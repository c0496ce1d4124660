/** Starts the real engine in Node for unit tests (the wasm built by `cargo xtask`). */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { engineFromBytes, type Engine } from './engine';

let engine: Engine | undefined;

export function testEngine(): Engine {
  if (engine === undefined) {
    const file = fileURLToPath(new URL('./wasm/gunjin_wasm_bg.wasm', import.meta.url));
    engine = engineFromBytes(readFileSync(file));
  }
  return engine;
}

/** An in-memory `localStorage`. */
export class MemoryStorage {
  private readonly map = new Map<string, string>();
  getItem(key: string): string | null {
    return this.map.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.map.set(key, value);
  }
}

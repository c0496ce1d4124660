/** Starts the real engine in Node for unit tests (the wasm built by `cargo xtask`). */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { engineFromBytes, type Engine } from './engine';
import { initSync as initCpuWasm } from './wasm-cpu/gunjin_wasm.js';

let engine: Engine | undefined;

export function testEngine(): Engine {
  if (engine === undefined) {
    const file = fileURLToPath(new URL('./wasm/gunjin_wasm_bg.wasm', import.meta.url));
    engine = engineFromBytes(readFileSync(file));
  }
  return engine;
}

let cpuReady = false;

/** Starts the CPU's wasm build (`wasm-cpu/`, what the CPU worker loads) in Node for unit tests. */
export function initTestCpu(): void {
  if (cpuReady) return;
  const file = fileURLToPath(new URL('./wasm-cpu/gunjin_wasm_bg.wasm', import.meta.url));
  initCpuWasm({ module: readFileSync(file) });
  cpuReady = true;
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
  removeItem(key: string): void {
    this.map.delete(key);
  }
  get length(): number {
    return this.map.size;
  }
  key(index: number): string | null {
    return [...this.map.keys()][index] ?? null;
  }
}

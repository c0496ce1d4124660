/**
 * Answers CPU requests with the wasm entry points. Shared by the worker and the unit tests (which
 * call it directly, without a worker).
 */
import type { Arrangement, Square } from '../engine';
import * as wasm from '../wasm-cpu/gunjin_wasm.js';
import type { CpuRequest, CpuResponse } from './protocol';

export function answer(req: CpuRequest, now: () => number): CpuResponse {
  try {
    if (req.type === 'deployment') {
      const arrangement = JSON.parse(wasm.cpuDeployment(req.side, req.level, req.seed >>> 0)) as Arrangement;
      return { id: req.id, ok: true, type: 'deployment', arrangement };
    }
    const start = now();
    const move = JSON.parse(wasm.cpuMove(JSON.stringify(req.view), req.level, req.seed >>> 0, req.timeMs)) as [Square, Square];
    return { id: req.id, ok: true, type: 'move', move, thinkMs: now() - start };
  } catch (e) {
    return { id: req.id, ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * The CPU's Web Worker: loads the engine's wasm built with the CPU (`web/src/wasm-cpu/`; larger
 * than the page's engine-only module, so it is downloaded only for a CPU game) and answers
 * "choose a move" and "choose a deployment" requests one at a time, so the page never freezes
 * while the CPU thinks.
 */
import init from '../wasm-cpu/gunjin_wasm.js';
import { answer } from './answer';
import type { CpuRequest, CpuResponse } from './protocol';

interface WorkerScope {
  onmessage: ((e: MessageEvent<CpuRequest>) => void) | null;
  postMessage(message: CpuResponse): void;
}

const scope = self as unknown as WorkerScope;
const ready = init();
// A failed download is answered to each request (below); unhandled, it was also thrown at the page.
ready.catch(() => undefined);

scope.onmessage = (e) => {
  const req = e.data;
  ready.then(
    () => scope.postMessage(answer(req, () => performance.now())),
    (err: unknown) => scope.postMessage({ id: req.id, ok: false, error: `wasm: ${String(err)}` }),
  );
};

/**
 * The page's side of the CPU: requests go to a Web Worker (or, in unit tests, straight to the
 * wasm) and come back as promises.
 */
import type { Arrangement, Side, View } from '../engine';
import type { CpuLevel, CpuMove, CpuRequest, CpuResponse } from './protocol';

/** What a CPU match needs from the CPU. */
export interface CpuPlayer {
  /** A move for the side whose view this is. Only that side's view is ever sent. */
  chooseMove(view: View, level: CpuLevel, seed: number, timeMs: number): Promise<CpuMove>;
  chooseDeployment(side: Side, level: CpuLevel, seed: number): Promise<Arrangement>;
  dispose(): void;
}

/** The part of a `Worker` the client uses (a fake in tests). */
export interface WorkerLike {
  postMessage(message: CpuRequest): void;
  onmessage: ((e: MessageEvent<CpuResponse>) => void) | null;
  onerror: ((e: ErrorEvent) => void) | null;
  terminate(): void;
}

/** Starts the CPU worker (Vite bundles it from this exact expression). */
export function startCpuWorker(): WorkerLike {
  return new Worker(new URL('./cpu.worker.ts', import.meta.url), { type: 'module' }) as unknown as WorkerLike;
}

/** An answer the CPU gave (not an error). */
type CpuAnswer = Extract<CpuResponse, { ok: true }>;

type Pending = { ok(r: CpuAnswer): void; fail(e: Error): void };

/**
 * How long a request may go unanswered before the CPU counts as dead: far above any search (a
 * second at most) and the first download of the CPU's wasm on a slow line, so only a worker that
 * died without a word (killed, or stuck) reaches it.
 */
export const CPU_ANSWER_LIMIT_MS = 30_000;

/** Sends requests to anything that answers `CpuResponse`s with the request's id. */
export class RequestCpu implements CpuPlayer {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private disposed = false;

  constructor(
    private readonly send: (req: CpuRequest) => void,
    /** Unanswered this long, a request fails (`Infinity`: never). */
    private readonly answerWithinMs = Infinity,
  ) {}

  /** Delivers an answer to the request it belongs to. */
  receive(res: CpuResponse): void {
    const p = this.pending.get(res.id);
    if (p === undefined) return;
    this.pending.delete(res.id);
    if (res.ok) {
      p.ok(res);
    } else {
      this.retire();
      p.fail(new Error(res.error));
    }
  }

  /** Fails every request still waiting (the worker died). */
  failAll(error: Error): void {
    const all = [...this.pending.values()];
    this.pending.clear();
    for (const p of all) p.fail(error);
  }

  private request(req: CpuRequest): Promise<CpuAnswer> {
    if (this.disposed) return Promise.reject(new Error('the CPU has been stopped'));
    return new Promise((ok, fail) => {
      const timer = Number.isFinite(this.answerWithinMs)
        ? setTimeout(() => {
            if (this.pending.has(req.id)) this.failAll(new Error('the CPU did not answer'));
          }, this.answerWithinMs)
        : undefined;
      this.pending.set(req.id, {
        ok: (r) => {
          clearTimeout(timer);
          ok(r);
        },
        fail: (e) => {
          clearTimeout(timer);
          fail(e);
        },
      });
      this.send(req);
    });
  }

  async chooseMove(view: View, level: CpuLevel, seed: number, timeMs: number): Promise<CpuMove> {
    const res = await this.request({ id: this.nextId++, type: 'move', view, level, seed, timeMs });
    if (res.type !== 'move') throw new Error('the CPU answered the wrong request');
    return { from: res.move[0], to: res.move[1], thinkMs: res.thinkMs };
  }

  async chooseDeployment(side: Side, level: CpuLevel, seed: number): Promise<Arrangement> {
    const res = await this.request({ id: this.nextId++, type: 'deployment', side, level, seed });
    if (res.type !== 'deployment') throw new Error('the CPU answered the wrong request');
    return res.arrangement;
  }

  dispose(): void {
    this.disposed = true;
    this.failAll(new Error('the CPU has been stopped'));
  }

  /** The CPU answered with an error (a panic caught in its wasm): it is not asked again. */
  protected retire(): void {}
}

/**
 * The CPU in a Web Worker. A worker that failed (an error, or no answer in time) is replaced by a
 * new one at the next request, so "play again" after a failure finds a CPU that answers.
 */
export class WorkerCpu extends RequestCpu {
  private readonly slot: { worker: WorkerLike; broken: boolean };

  constructor(start: () => WorkerLike = startCpuWorker, answerWithinMs = CPU_ANSWER_LIMIT_MS) {
    const slot = { worker: null as unknown as WorkerLike, broken: false };
    const attach = (worker: WorkerLike): WorkerLike => {
      worker.onmessage = (e) => this.receive(e.data);
      worker.onerror = (e) => this.failAll(new Error(e.message || 'the CPU worker failed'));
      return worker;
    };
    super((req) => {
      if (slot.broken) {
        slot.worker.terminate();
        slot.worker = attach(start());
        slot.broken = false;
      }
      slot.worker.postMessage(req);
    }, answerWithinMs);
    // Started at once: the CPU's wasm downloads while the player arranges.
    slot.worker = attach(start());
    this.slot = slot;
  }

  /** A wasm instance that failed once may be left in any state: the next request gets a new one. */
  protected override retire(): void {
    this.slot.broken = true;
  }

  /** Every failure of a request (an error, or no answer in time) leaves this worker broken. */
  override failAll(error: Error): void {
    this.slot.broken = true;
    super.failAll(error);
  }

  override dispose(): void {
    super.dispose();
    this.slot.worker.terminate();
  }
}

import { afterEach, describe, expect, it, vi } from 'vitest';
import { initTestCpu, testEngine } from '../test-engine';
import { answer } from './answer';
import { WorkerCpu, type WorkerLike } from './client';
import type { CpuRequest, CpuResponse } from './protocol';

// `answer` calls the CPU's own wasm build, as the worker does.
initTestCpu();

/** A worker that keeps the requests until the test answers them (in any order). */
class FakeWorker implements WorkerLike {
  onmessage: ((e: MessageEvent<CpuResponse>) => void) | null = null;
  onerror: ((e: ErrorEvent) => void) | null = null;
  readonly requests: CpuRequest[] = [];
  terminated = false;

  postMessage(message: CpuRequest): void {
    this.requests.push(message);
  }

  reply(res: CpuResponse): void {
    this.onmessage?.({ data: res } as MessageEvent<CpuResponse>);
  }

  terminate(): void {
    this.terminated = true;
  }
}

/** A CPU whose workers are fakes, each one it starts kept in `workers`. */
function cpuOnFakeWorkers(answerWithinMs?: number): { cpu: WorkerCpu; workers: FakeWorker[] } {
  const workers: FakeWorker[] = [];
  const start = (): FakeWorker => {
    const w = new FakeWorker();
    workers.push(w);
    return w;
  };
  return { cpu: answerWithinMs === undefined ? new WorkerCpu(start) : new WorkerCpu(start, answerWithinMs), workers };
}

describe('WorkerCpu', () => {
  it('matches answers to requests by id, whatever their order', async () => {
    const engine = testEngine();
    const worker = new FakeWorker();
    const cpu = new WorkerCpu(() => worker);
    const game = engine.newGame(engine.autoArrangement('sente', 1), engine.autoArrangement('gote', 2));
    const move = cpu.chooseMove(game.view('sente'), 'beginner', 3, 0);
    const deployment = cpu.chooseDeployment('gote', 'advanced', 4);
    expect(worker.requests.map((r) => r.type)).toEqual(['move', 'deployment']);
    const [first, second] = worker.requests;
    if (first === undefined || second === undefined) throw new Error('two requests expected');
    worker.reply(answer(second, () => 0));
    worker.reply(answer(first, () => 0));
    const arrangement = await deployment;
    expect(engine.validate('gote', arrangement)).toEqual([]);
    const mv = await move;
    expect(game.legalMoves()).toContainEqual([mv.from, mv.to]);
    game.dispose();
  });

  it('sends only the view it is given and the worker refuses a view with hidden kinds', () => {
    const engine = testEngine();
    const game = engine.newGame(engine.autoArrangement('sente', 5), engine.autoArrangement('gote', 6));
    const view = game.view('sente');
    const [enemySquare] = Object.entries(view.pieces).find(([, p]) => p.side === 'gote') ?? [];
    if (enemySquare === undefined) throw new Error('no enemy piece');
    const peeking = { ...view, pieces: { ...view.pieces, [enemySquare]: { side: 'gote' as const, kind: 'general' } } };
    const res = answer({ id: 1, type: 'move', view: peeking, level: 'advanced', seed: 1, timeMs: 0 }, () => 0);
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.error).toMatch(/bad view/);
    game.dispose();
  });

  it('fails waiting requests when the worker dies, and stops it on dispose', async () => {
    const worker = new FakeWorker();
    const cpu = new WorkerCpu(() => worker);
    const pending = cpu.chooseDeployment('sente', 'beginner', 1);
    worker.onerror?.({ message: 'boom' } as ErrorEvent);
    await expect(pending).rejects.toThrow('boom');
    worker.reply({ id: 1, ok: false, error: 'late' }); // ignored: nobody waits for it
    const err = cpu.chooseDeployment('sente', 'beginner', 2);
    worker.reply({ id: 2, ok: false, error: 'no such level' });
    await expect(err).rejects.toThrow('no such level');
    cpu.dispose();
    expect(worker.terminated).toBe(true);
    await expect(cpu.chooseDeployment('sente', 'beginner', 3)).rejects.toThrow(/stopped/);
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('replaces a worker that failed at the next request, so a new game finds a CPU that answers', async () => {
    const { cpu, workers } = cpuOnFakeWorkers();
    expect(workers).toHaveLength(1);
    const pending = cpu.chooseDeployment('sente', 'beginner', 1);
    workers[0]?.onerror?.({ message: 'wasm: Failed to fetch' } as ErrorEvent);
    await expect(pending).rejects.toThrow('Failed to fetch');
    const next = cpu.chooseDeployment('sente', 'beginner', 2);
    expect(workers).toHaveLength(2);
    expect(workers[0]?.terminated).toBe(true);
    const request = workers[1]?.requests[0];
    if (request === undefined) throw new Error('the new worker got no request');
    workers[1]?.reply(answer(request, () => 0));
    expect(testEngine().validate('sente', await next)).toEqual([]);
    cpu.dispose();
  });

  it('replaces a worker that answered with an error (a panic caught in its wasm)', async () => {
    const { cpu, workers } = cpuOnFakeWorkers();
    const pending = cpu.chooseDeployment('sente', 'beginner', 1);
    const id = workers[0]?.requests[0]?.id ?? -1;
    workers[0]?.reply({ id, ok: false, error: 'the CPU panicked' });
    await expect(pending).rejects.toThrow('the CPU panicked');
    void cpu.chooseDeployment('sente', 'beginner', 2).catch(() => undefined);
    expect(workers).toHaveLength(2);
    expect(workers[0]?.terminated).toBe(true);
    expect(workers[1]?.requests).toHaveLength(1);
    cpu.dispose();
  });

  it('fails a request left unanswered (a worker killed without a word) and replaces that worker', async () => {
    vi.useFakeTimers();
    const { cpu, workers } = cpuOnFakeWorkers(5_000);
    const pending = cpu.chooseDeployment('sente', 'beginner', 1);
    const failed = expect(pending).rejects.toThrow(/did not answer/);
    vi.advanceTimersByTime(4_999);
    expect(workers).toHaveLength(1);
    vi.advanceTimersByTime(1);
    await failed;
    void cpu.chooseDeployment('sente', 'beginner', 2).catch(() => undefined);
    expect(workers).toHaveLength(2);
    expect(workers[1]?.requests).toHaveLength(1);
    cpu.dispose();
  });
});

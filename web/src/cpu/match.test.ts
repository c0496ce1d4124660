import { describe, expect, it } from 'vitest';
import type { Arrangement, Side, View } from '../engine';
import { boardState } from '../state/board-state';
import { reviewFrames } from '../state/review';
import { ArrangementStore, SetupDraftStore } from '../state/setup';
import { MemoryStorage, initTestCpu, testEngine } from '../test-engine';
import { answer } from './answer';
import { RequestCpu, type CpuPlayer } from './client';
import { CpuMatch, SETTLE_CAP_MS, type CpuMatchOptions } from './match';
import { CpuGameStore, type SavedCpuGame } from './saved';
import type { CpuLevel, CpuMove, CpuRequest } from './protocol';

// `answer` calls the CPU's own wasm build, as the worker does.
initTestCpu();

/**
 * The real CPU (the wasm entry points, without a worker) whose answers the test releases one at
 * a time, and which records every view it was given.
 */
class StepCpu implements CpuPlayer {
  readonly views: View[] = [];
  private readonly queue: (() => void)[] = [];
  private readonly inner = new RequestCpu((req: CpuRequest) => {
    this.queue.push(() => this.inner.receive(answer(req, () => 0)));
  });
  failNext = false;
  disposed = false;

  chooseMove(view: View, level: CpuLevel, seed: number): Promise<CpuMove> {
    this.views.push(JSON.parse(JSON.stringify(view)) as View);
    if (this.failNext) return Promise.reject(new Error('worker died'));
    // No clock: the level's own fixed amount of work, so the tests do not depend on timing.
    return this.inner.chooseMove(view, level, seed, 0);
  }

  chooseDeployment(side: Side, level: CpuLevel, seed: number): Promise<Arrangement> {
    return this.inner.chooseDeployment(side, level, seed);
  }

  /** Answers every request waiting so far; returns how many. */
  release(): number {
    const n = this.queue.length;
    for (const f of this.queue.splice(0)) f();
    return n;
  }

  dispose(): void {
    this.disposed = true;
    this.inner.dispose();
  }
}

interface Setup {
  match: CpuMatch;
  cpu: StepCpu;
  sleeps: number[];
  storage: MemoryStorage;
}

function newMatch(human: Side, extra: Partial<CpuMatchOptions> = {}): Setup {
  let seed = 40;
  const cpu = new StepCpu();
  const sleeps: number[] = [];
  const storage = new MemoryStorage();
  const match = new CpuMatch(testEngine(), new ArrangementStore(storage, testEngine()), () => seed++, cpu, {
    human,
    level: 'beginner',
    thinkMs: 0,
    minDelayMs: 300,
    now: () => 1000,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...extra,
  });
  return { match, cpu, sleeps, storage };
}

/** Lets the CPU answer everything it was asked and waits until the match has used the answers. */
async function settle(s: Setup): Promise<void> {
  for (let i = 0; i < 20; i++) {
    const answered = s.cpu.release();
    // Every step from the answer to the played move is a microtask: one timer tick runs them all.
    await new Promise((ok) => setTimeout(ok, 0));
    if (answered === 0) break;
  }
}

/** The human plays their first legal move through the squares, as the page does. */
function humanMoves(m: CpuMatch): void {
  const [from, to] = m.legalMoves()[0] ?? ['', ''];
  expect(m.press(from).type).toBe('selected');
  expect(m.press(to).type).toBe('moved');
}

/** The human plays random legal moves (from `seed`) until the game ends; `eachTurn` runs before each. */
async function playToTheEnd(s: Setup, seed: number, eachTurn: (plies: number) => void = () => {}): Promise<void> {
  const m = s.match;
  let rng = seed;
  for (let plies = 0; m.phase.kind === 'turn'; plies += 2) {
    eachTurn(plies);
    const moves = m.legalMoves();
    rng = (rng * 1103515245 + 12345) % 2147483648;
    const [from, to] = moves[rng % moves.length] ?? ['', ''];
    m.press(from);
    m.press(to);
    await settle(s);
  }
}

function enemyKindsShown(m: CpuMatch): number {
  const state = boardState(m, (k) => k);
  return state.pieces.filter((p) => p.side === m.cpuSide && p.kind !== undefined).length;
}

describe('CpuMatch', () => {
  it('lets the human arrange without a curtain, then the human as sente moves first', async () => {
    const s = newMatch('sente');
    const m = s.match;
    expect(m.phase.kind).toBe('setup');
    expect(m.phase.side).toBe('sente');
    expect(m.viewer).toBe('sente');
    expect(m.arrangement('gote')).toBeUndefined();
    await settle(s); // the CPU's deployment arrives
    expect(m.arrangement('gote')).toBeUndefined();
    const p = m.phase;
    if (p.kind !== 'setup') throw new Error('expected setup');
    // The same arranging tools as the one-device mode: a swap of two pieces.
    const squares = Object.keys(p.setup.arrangement);
    p.setup.press(squares[5] ?? '');
    expect(p.setup.press(squares[6] ?? '').type).toMatch(/swapped|refused/);
    expect(m.confirmSetup()).toBe(true);
    expect(JSON.parse(s.storage.getItem('gunjin.arrangement') ?? 'null')?.side).toBe('sente');
    expect(m.phase).toEqual({ kind: 'turn', side: 'sente' });
    expect(m.view('sente')?.history).toEqual([]);
    expect(m.view('gote')).toBeNull();
    expect(enemyKindsShown(m)).toBe(0);
  });

  it("thinks after the human's move, pauses briefly, then plays and reports in the human's terms", async () => {
    const s = newMatch('sente');
    const m = s.match;
    await settle(s);
    m.confirmSetup();
    humanMoves(m);
    expect(m.phase).toEqual({ kind: 'waiting', side: 'sente', note: 'cpuThinking' });
    expect(m.legalMoves()).toEqual([]);
    expect(m.press('a1').type).toBe('ignored');
    let changes = 0;
    m.onChange(() => changes++);
    await settle(s);
    expect(changes).toBe(1);
    expect(s.sleeps).toEqual([300]);
    expect(m.phase).toEqual({ kind: 'turn', side: 'sente' });
    const history = m.view('sente')?.history ?? [];
    expect(history.map((p) => p.side)).toEqual(['sente', 'gote']);
    const moved = m.reports.filter((r) => r.type === 'moved');
    expect(moved.map((r) => r.type === 'moved' && r.mine)).toEqual([true, false]);
    expect(m.thinkTimes.length).toBe(1);
    expect(enemyKindsShown(m)).toBe(0);
  });

  it('plays its answer only once the boards show the human\'s move (a 3D battle playing out)', async () => {
    let show = (): void => {};
    let asked = 0;
    const s = newMatch('sente', {
      boardsSettled: () => {
        asked++;
        return new Promise<void>((ok) => (show = ok));
      },
      // The cap's sleep never ends here: only the boards let the answer through.
      sleep: (ms) => (ms === SETTLE_CAP_MS ? new Promise<void>(() => {}) : Promise.resolve()),
    });
    const m = s.match;
    await settle(s);
    m.confirmSetup();
    humanMoves(m);
    await settle(s);
    expect(asked).toBe(1);
    expect(m.phase.kind).toBe('waiting');
    expect(m.view('sente')?.history).toHaveLength(1);
    show();
    await settle(s);
    expect(m.phase).toEqual({ kind: 'turn', side: 'sente' });
    expect(m.view('sente')?.history).toHaveLength(2);
  });

  it('does not wait for the boards longer than the cap', async () => {
    const s = newMatch('sente', { boardsSettled: () => new Promise<void>(() => {}) });
    const m = s.match;
    await settle(s);
    m.confirmSetup();
    humanMoves(m);
    await settle(s);
    expect(s.sleeps).toEqual([300, SETTLE_CAP_MS]);
    expect(m.phase).toEqual({ kind: 'turn', side: 'sente' });
  });

  it('gives the CPU its own view only, never a hidden kind', async () => {
    const s = newMatch('sente');
    const m = s.match;
    await settle(s);
    m.confirmSetup();
    for (let i = 0; i < 6 && m.phase.kind === 'turn'; i++) {
      humanMoves(m);
      await settle(s);
    }
    expect(s.cpu.views.length).toBeGreaterThan(0);
    for (const v of s.cpu.views) {
      expect(v.side).toBe('gote');
      const humanKinds = Object.values(v.pieces).filter((p) => p.side === 'sente' && p.kind !== undefined);
      expect(humanKinds).toEqual([]);
    }
  });

  it('sets up the first game from an arrangement brought from another mode, turned round if need be', async () => {
    const engine = testEngine();
    const brought = engine.autoArrangement('sente', 9);
    const same = newMatch('sente', { startWith: { side: 'sente', arrangement: brought } }).match;
    const arranged = (m: CpuMatch) => (m.phase.kind === 'setup' ? m.phase.setup.arrangement : null);
    expect(arranged(same)).toEqual(brought);
    const other = newMatch('gote', { startWith: { side: 'sente', arrangement: brought } }).match;
    expect(arranged(other)).toEqual(engine.turnAround('sente', brought));
    // "Play again" starts from a new arrangement, as any game does.
    same.restart();
    expect(arranged(same)).not.toEqual(brought);
  });

  it('keeps the arrangement being made for a reload until the game starts or is left', async () => {
    const storage = new MemoryStorage();
    const drafts = new SetupDraftStore(storage, testEngine());
    const s = newMatch('sente', { draft: drafts.open('cpu-beginner', 'sente') });
    const m = s.match;
    if (m.phase.kind !== 'setup') throw new Error('not arranging');
    const setup = m.phase.setup;
    setup.press('a3');
    setup.press('f3');
    const made = { ...setup.arrangement };
    expect(drafts.loadFor('cpu-beginner', 'sente')).toEqual(made);
    // Confirmed while the CPU still deploys: a reload then still finds it.
    expect(m.confirmSetup()).toBe(true);
    expect(m.phase.kind).toBe('waiting');
    expect(drafts.loadFor('cpu-beginner', 'sente')).toEqual(made);
    await settle(s);
    expect(m.phase.kind).toBe('turn');
    expect(drafts.loadFor('cpu-beginner', 'sente')).toBeNull();
    // "Play again": a new arrangement, kept once changed; leaving forgets it.
    m.resign();
    m.restart();
    expect(drafts.loadFor('cpu-beginner', 'sente')).toBeNull();
    if (m.phase.kind !== 'setup') throw new Error('not arranging');
    m.phase.setup.mirror();
    expect(drafts.loadFor('cpu-beginner', 'sente')).not.toBeNull();
    m.dispose();
    expect(drafts.loadFor('cpu-beginner', 'sente')).toBeNull();
    // An untouched arrangement confirmed while the CPU still deploys is kept too, until the game begins.
    const t = newMatch('gote', { draft: drafts.open('cpu-gote', 'gote') });
    const untouched = t.match.phase.kind === 'setup' ? { ...t.match.phase.setup.arrangement } : null;
    expect(drafts.loadFor('cpu-gote', 'gote')).toBeNull();
    expect(t.match.confirmSetup()).toBe(true);
    expect(drafts.loadFor('cpu-gote', 'gote')).toEqual(untouched);
    await settle(t);
    expect(drafts.loadFor('cpu-gote', 'gote')).toBeNull();
    t.match.dispose();
  });

  it('sets up from a brought arrangement with nothing to undo', () => {
    const engine = testEngine();
    const brought = engine.autoArrangement('sente', 9);
    const m = newMatch('sente', { startWith: { side: 'sente', arrangement: brought } }).match;
    expect(m.phase.kind === 'setup' && m.phase.setup.canUndo).toBe(false);
  });

  it('moves first as sente when the human plays gote', async () => {
    const s = newMatch('gote');
    const m = s.match;
    expect(m.phase.side).toBe('gote');
    await settle(s);
    m.confirmSetup();
    expect(m.phase.kind).toBe('waiting');
    await settle(s);
    expect(m.phase).toEqual({ kind: 'turn', side: 'gote' });
    const history = m.view('gote')?.history ?? [];
    expect(history.length).toBe(1);
    expect(history[0]?.side).toBe('sente');
    expect(boardState(m, (k) => k).viewer).toBe('gote');
  });

  it('waits for the CPU deployment when the human confirms first', async () => {
    const s = newMatch('sente');
    const m = s.match;
    expect(m.confirmSetup()).toBe(true);
    expect(m.phase.kind).toBe('waiting');
    expect(m.confirmSetup()).toBe(false);
    // No game yet, so nothing to resign: the page shows the button disabled.
    expect(m.canResign).toBe(false);
    expect(m.resign()).toBeNull();
    expect(m.phase.kind).toBe('waiting');
    await settle(s);
    expect(m.phase).toEqual({ kind: 'turn', side: 'sente' });
    expect(m.canResign).toBe(true);
  });

  it('offers the arrangement confirmed in the last game as the previous one after "play again"', async () => {
    const s = newMatch('sente');
    const m = s.match;
    await settle(s);
    const p = m.phase;
    if (p.kind !== 'setup') throw new Error('expected setup');
    p.setup.mirror();
    const confirmed = { ...p.setup.arrangement };
    expect(m.confirmSetup()).toBe(true);
    m.restart();
    await settle(s);
    const q = m.phase;
    if (q.kind !== 'setup') throw new Error('expected setup');
    q.setup.rearrange(1234);
    expect(q.setup.arrangement).not.toEqual(confirmed);
    expect(m.loadPrevious()).toBe(true);
    expect(q.setup.arrangement).toEqual(confirmed);
    // The human plays gote next time: the same arrangement comes turned round to gote's end
    // (a1 is gote's f8, the HQ cd1 is cd8): the same place as its player sees it.
    const g = newMatch('gote');
    g.storage.setItem('gunjin.arrangement', s.storage.getItem('gunjin.arrangement') ?? '');
    await settle(g);
    const gp = g.match.phase;
    if (gp.kind !== 'setup') throw new Error('expected setup');
    expect(g.match.loadPrevious()).toBe(true);
    expect(gp.setup.arrangement['f8']).toBe(confirmed['a1']);
    expect(gp.setup.arrangement['cd8']).toBe(confirmed['cd1']);
    expect(gp.setup.arrangement['b5']).toBe(confirmed['e4']);
    expect(Object.keys(gp.setup.arrangement)).toHaveLength(Object.keys(confirmed).length);
  });

  it('drops a late answer after "play again" and starts a new setup', async () => {
    const s = newMatch('sente');
    const m = s.match;
    await settle(s);
    m.confirmSetup();
    humanMoves(m);
    m.restart();
    expect(m.phase.kind).toBe('setup');
    await settle(s);
    expect(m.phase.kind).toBe('setup');
    expect(m.view('sente')).toBeNull();
    expect(m.reports).toEqual([]);
    m.confirmSetup();
    expect(m.phase).toEqual({ kind: 'turn', side: 'sente' });
    expect(m.view('sente')?.history).toEqual([]);
  });

  it('resigns while the CPU thinks, ignores its answer and reveals everything', async () => {
    const s = newMatch('sente');
    const m = s.match;
    await settle(s);
    m.confirmSetup();
    humanMoves(m);
    const status = m.resign();
    expect(status).toEqual({ state: 'won', winner: 'gote', reason: 'resignation' });
    await settle(s);
    expect(m.phase.kind).toBe('over');
    expect(m.view('sente')?.history.length).toBe(1);
    expect(m.view('gote')).not.toBeNull();
    const cpuPieces = boardState(m, (k) => k).pieces.filter((p) => p.side === 'gote');
    expect(cpuPieces.length).toBeGreaterThan(20);
    expect(cpuPieces.every((p) => p.kind !== undefined)).toBe(true);
  });

  it('says once how each game ended: a resignation, and a natural end', async () => {
    const ends: string[] = [];
    const s = newMatch('sente', { minDelayMs: 0, onEnd: (status) => ends.push(status.state === 'won' ? `won:${status.winner}:${status.reason}` : status.state) });
    const m = s.match;
    await settle(s);
    m.confirmSetup();
    humanMoves(m);
    expect(ends).toEqual([]);
    m.resign();
    await settle(s);
    expect(ends).toEqual(['won:gote:resignation']);
    expect(m.resign()).toBeNull();
    expect(ends).toHaveLength(1);
    m.restart();
    await settle(s);
    m.confirmSetup();
    await playToTheEnd(s, 3);
    expect(m.phase.kind).toBe('over');
    expect(ends).toHaveLength(2);
    const status = m.phase.kind === 'over' ? m.phase.status : null;
    expect(ends[1]).toBe(status?.state === 'won' ? `won:${status.winner}:${status.reason}` : status?.state);
  }, 60_000);

  it('keeps the unfinished game after every move, goes on with it in a new match, and forgets it at the end', async () => {
    const storage = new MemoryStorage();
    const games = new CpuGameStore(storage);
    const persist = { save: (g: SavedCpuGame) => games.save('cpu-beginner', g), clear: () => games.clear(), discard: () => games.clear() };
    const s = newMatch('sente', { persist });
    const m = s.match;
    await settle(s);
    expect(games.load()).toBeNull();
    m.confirmSetup();
    expect(games.load()?.game.moves).toEqual([]);
    for (let i = 0; i < 3; i++) {
      humanMoves(m);
      await settle(s);
    }
    const kept = games.load()?.game;
    const history = m.view('sente')?.history ?? [];
    expect(history).toHaveLength(6);
    expect(kept?.moves).toEqual(history.map((p) => [p.from, p.to, p.battle?.outcome ?? null]));
    expect(kept?.arrangement).toEqual(m.arrangement('sente'));
    // Nothing of the CPU's is kept but the seed of its deployment.
    expect(JSON.stringify(kept)).not.toMatch(/"gote"/);

    // The page reloads: a new match goes on from the same position, the CPU deployed the same way.
    const again = newMatch('sente', { persist, resume: kept });
    expect(again.match.phase).toEqual({ kind: 'waiting', side: 'sente', note: 'cpuResuming' });
    await settle(again);
    expect(again.match.phase.kind).toBe('turn');
    expect(again.match.view('sente')).toEqual(m.view('sente'));
    // Told again what it was told before the reload: its own last move and the CPU's answer.
    expect(m.reports.filter((r) => r.type === 'moved').map((r) => r.type === 'moved' && r.mine)).toEqual([true, false]);
    expect(again.match.reports).toEqual(m.reports);
    // The same moves announced otherwise are another game: dropped for a new one.
    const [first, ...rest] = kept?.moves ?? [];
    const otherwise: SavedCpuGame | undefined =
      kept === undefined || first === undefined ? undefined : { ...kept, moves: [[first[0], first[1], first[2] === null ? 'both' : null], ...rest] };
    const other = newMatch('sente', { persist, resume: otherwise });
    await settle(other);
    // The player is told why, and arranges the new game from the kept arrangement.
    expect(other.match.phase).toMatchObject({ kind: 'setup', note: 'cpuResumeDropped' });
    expect(other.match.phase.kind === 'setup' ? other.match.phase.setup.arrangement : null).toEqual(kept?.arrangement);
    other.match.dispose();
    // Kept under this mode with another level (a mode changed by a new version): dropped and
    // said, not offered again at every visit.
    games.save('cpu-beginner', { ...kept!, level: 'advanced' });
    const changed = newMatch('sente', { persist, resume: games.load()?.game });
    expect(changed.match.phase).toMatchObject({ kind: 'setup', note: 'cpuResumeDropped' });
    expect(games.load()).toBeNull();
    changed.match.dispose();

    m.resign();
    again.match.resign();
    expect(again.match.setups()).toEqual(m.setups());
    expect(games.load()).toBeNull();
  });

  it('drops a kept game that does not replay, and leaving a match keeps the kept game', async () => {
    const storage = new MemoryStorage();
    const games = new CpuGameStore(storage);
    const persist = { save: (g: SavedCpuGame) => games.save('cpu-beginner', g), clear: () => games.clear(), discard: () => games.clear() };
    const arrangement = testEngine().autoArrangement('sente', 5);
    const broken: SavedCpuGame = { human: 'sente', level: 'beginner', arrangement, cpuSeed: 9, moves: [['a1', 'f8', null]] };
    games.save('cpu-beginner', broken);
    const s = newMatch('sente', { persist, resume: broken });
    await settle(s);
    expect(s.match.phase.kind).toBe('setup');
    expect(games.load()).toBeNull();

    // Nor does an arrangement that is no arrangement.
    const odds: Arrangement[] = [{ a1: 'emperor' }, { zz: 'general' }, {}];
    for (const odd of odds) {
      games.save('cpu-beginner', { ...broken, arrangement: odd });
      const t = newMatch('sente', { persist, resume: { ...broken, arrangement: odd } });
      await settle(t);
      // A damaged store: dropped, with a word on why the game starts anew (from a new arrangement).
      expect(t.match.phase).toEqual({ kind: 'setup', side: 'sente', setup: expect.anything(), note: 'keptGameUnreadable' });
      expect(t.match.phase.kind === 'setup' ? t.match.phase.setup.arrangement : null).not.toEqual(odd);
      expect(games.load()).toBeNull();
    }

    // A kept game survives a match that never started its own.
    games.save('cpu-beginner', { ...broken, moves: [] });
    const other = newMatch('sente', { persist });
    await settle(other);
    other.match.dispose();
    expect(games.load()?.game.cpuSeed).toBe(9);
    // A started game takes the place, and stays kept when it is left (the start screen offers it).
    const third = newMatch('sente', { persist });
    await settle(third);
    third.match.confirmSetup();
    const started = games.load()?.game;
    expect(started?.cpuSeed).not.toBe(9);
    third.match.dispose();
    expect(games.load()?.game).toEqual(started);
  });

  it('two tabs: the game begun or resumed last holds the kept place, and the other tab is told it is not kept', async () => {
    const storage = new MemoryStorage();
    const games = new CpuGameStore(storage);
    const tab = (owner: string) => ({
      save: (g: SavedCpuGame, claim: boolean) => games.save('cpu-beginner', g, owner, claim),
      clear: () => games.clear(owner),
      discard: () => games.clear(),
    });
    const a = newMatch('sente', { persist: tab('a') });
    await settle(a);
    a.match.confirmSetup();
    humanMoves(a.match);
    await settle(a);
    expect(a.match.caution).toBeUndefined();
    const kept = games.load()?.game;
    expect(kept?.moves.length).toBe(2);
    // Tab b goes on with that game: it is b's now.
    const b = newMatch('sente', { persist: tab('b'), resume: kept });
    await settle(b);
    expect(b.match.phase.kind).toBe('turn');
    // Tab a moves on: it does not overwrite b's game, and is told its own is not kept.
    humanMoves(a.match);
    await settle(a);
    expect(games.load()?.game.moves.length).toBe(2);
    expect(a.match.caution).toBe('cpuKeptElsewhere');
    expect(b.match.caution).toBeUndefined();
    humanMoves(b.match);
    await settle(b);
    expect(games.load()?.game.moves.length).toBe(4);
    // Tab a leaves, then b: b's game stays kept, to go on with.
    a.match.dispose();
    expect(games.load()?.game.moves.length).toBe(4);
    b.match.dispose();
    expect(games.load()?.game.moves.length).toBe(4);
    // Resumed in a third tab and played to its end there: then it is forgotten.
    const c = newMatch('sente', { persist: tab('c'), resume: games.load()?.game });
    await settle(c);
    expect(c.match.phase.kind).toBe('turn');
    c.match.resign();
    expect(games.load()).toBeNull();
  });

  it('says while the storage refuses to keep the game, and stops saying once it keeps it again', async () => {
    const storage = new MemoryStorage();
    let full = false;
    const games = new CpuGameStore({
      getItem: (key) => storage.getItem(key),
      setItem: (key, value) => {
        if (full) throw new DOMException('full', 'QuotaExceededError');
        storage.setItem(key, value);
      },
      removeItem: (key) => storage.removeItem(key),
    });
    const s = newMatch('sente', {
      persist: { save: (g, claim) => games.save('cpu-beginner', g, 'me', claim), clear: () => games.clear('me'), discard: () => games.clear() },
    });
    await settle(s);
    s.match.confirmSetup();
    expect(s.match.caution).toBeUndefined();
    full = true;
    humanMoves(s.match);
    expect(s.match.caution).toBe('gameNotKept');
    expect(games.load()).toBeNull();
    await settle(s);
    full = false;
    humanMoves(s.match);
    expect(s.match.caution).toBeUndefined();
    expect(games.load()?.game.moves.length).toBe(3);
    s.match.resign();
    expect(s.match.caution).toBeUndefined();
  });

  it("hands over both arrangements, the CPU's too, only once the game is over (to look back over it)", async () => {
    const s = newMatch('gote');
    const m = s.match;
    await settle(s);
    m.confirmSetup();
    await settle(s);
    expect(m.phase.kind).toBe('turn');
    expect(m.setups()).toBeNull();
    const mine = m.arrangement('gote');
    m.resign();
    const setups = m.setups();
    expect(setups?.gote).toEqual(mine);
    const engine = testEngine();
    expect(engine.validate('sente', setups?.sente ?? {})).toEqual([]);
    // The CPU's arrangement is the one it played: the game replays from the two.
    const history = m.view('sente')?.history ?? [];
    expect(history.length).toBe(1);
    expect(setups === null ? [] : reviewFrames(setups, history)).toHaveLength(2);
  });

  it('says so when the CPU fails instead of hanging silently', async () => {
    const s = newMatch('sente');
    const m = s.match;
    await settle(s);
    m.confirmSetup();
    s.cpu.failNext = true;
    humanMoves(m);
    await settle(s);
    expect(m.phase).toEqual({ kind: 'waiting', side: 'sente', note: 'cpuFailed' });
    expect(m.resign()?.state).toBe('won');
  });

  it('plays a whole game to its end against the beginner', async () => {
    const s = newMatch('sente', { minDelayMs: 0 });
    const m = s.match;
    await settle(s);
    m.confirmSetup();
    await playToTheEnd(s, 7, (plies) => {
      expect(plies).toBeLessThan(2000);
      expect(enemyKindsShown(m)).toBe(0);
    });
    expect(m.phase.kind).toBe('over');
    expect(m.view('gote')).not.toBeNull();
    m.dispose();
    expect(s.cpu.disposed).toBe(true);
  }, 60_000);
});

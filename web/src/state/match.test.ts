import { describe, expect, it } from 'vitest';
import { MemoryStorage, testEngine } from '../test-engine';
import { boardState } from './board-state';
import type { View } from '../engine';
import { LocalMatch, ownPieces, pressOnTurn, type Match } from './match';
import { LocalGameStore, type SavedLocalGame } from './saved';
import { ArrangementStore } from './setup';

function newMatch(storage = new MemoryStorage(), resume = false, owner = ''): LocalMatch {
  let seed = 10;
  return new LocalMatch(testEngine(), () => seed++, new LocalGameStore(storage), resume, owner);
}

/** The side to move lifts its curtain, plays its first legal move and hands over. */
function playOne(m: LocalMatch): void {
  m.reveal();
  const [from, to] = m.legalMoves()[0] ?? ['', ''];
  m.press(from);
  expect(m.press(to).type).toBe('moved');
  m.handOver();
}

/** Both sides confirm their automatic arrangements. */
function throughSetup(m: LocalMatch): void {
  m.reveal();
  expect(m.confirmSetup()).toBe(true);
  m.reveal();
  expect(m.confirmSetup()).toBe(true);
}

/** The side setting up confirms, then the other side reveals and confirms. */
function throughSetupFrom(m: LocalMatch): void {
  expect(m.confirmSetup()).toBe(true);
  m.reveal();
  expect(m.confirmSetup()).toBe(true);
}

describe('LocalMatch', () => {
  it('sets up each side behind a curtain, then sente starts behind one', () => {
    const storage = new MemoryStorage();
    const m = newMatch(storage);
    expect(m.phase).toEqual({ kind: 'setup-curtain', side: 'sente' });
    expect(m.viewer).toBeNull();
    m.reveal();
    expect(m.phase.kind).toBe('setup');
    expect(m.viewer).toBe('sente');
    m.confirmSetup();
    expect(m.phase).toEqual({ kind: 'setup-curtain', side: 'gote' });
    m.reveal();
    m.confirmSetup();
    expect(m.phase).toEqual({ kind: 'turn-curtain', side: 'sente' });
  });

  it('never offers the arrangement saved in the browser, and keeps its own games to itself', () => {
    const engine = testEngine();
    const storage = new MemoryStorage();
    const fromCpuGame = engine.autoArrangement('sente', 77);
    new ArrangementStore(storage, engine).save('sente', fromCpuGame);
    const m = newMatch(storage);
    m.reveal();
    const p = m.phase;
    if (p.kind !== 'setup') throw new Error('expected setup');
    // The saved arrangement is one person's: the other player at this device must not call it up.
    const asMatch: Match = m;
    expect(asMatch.loadPrevious).toBeUndefined();
    expect(p.setup.arrangement).not.toEqual(fromCpuGame);
    const before = storage.getItem('gunjin.arrangement');
    throughSetupFrom(m);
    expect(storage.getItem('gunjin.arrangement')).toBe(before);
  });

  it('shows no kind at all while a curtain is down', () => {
    const m = newMatch();
    m.reveal();
    m.confirmSetup();
    const label = (k: string) => k;
    const curtain = boardState(m, label);
    expect(curtain.pieces).toHaveLength(23);
    expect(curtain.pieces.every((p) => p.kind === undefined && p.label === undefined)).toBe(true);
    m.reveal();
    const setup = boardState(m, label);
    expect(setup.viewer).toBe('gote');
    expect(setup.pieces.filter((p) => p.side === 'gote').every((p) => p.kind !== undefined)).toBe(true);
    expect(setup.pieces.filter((p) => p.side === 'sente').every((p) => p.kind === undefined)).toBe(true);
    m.confirmSetup();
    expect(boardState(m, label).pieces.every((p) => p.kind === undefined)).toBe(true);
  });

  it('plays a turn: select, destinations from the engine, move, result, hand over', () => {
    const m = newMatch();
    throughSetup(m);
    m.reveal();
    expect(m.phase).toEqual({ kind: 'turn', side: 'sente' });
    const [from, to] = m.legalMoves()[0] ?? ['', ''];
    const sel = m.press(from);
    expect(sel.type).toBe('selected');
    if (sel.type === 'selected') {
      expect([...sel.destinations.moves, ...sel.destinations.attacks]).toContain(to);
    }
    const state = boardState(m, (k) => k);
    expect(state.selected).toBe(from);
    expect(state.pieces.filter((p) => p.side === 'gote').every((p) => p.kind === undefined)).toBe(true);
    const moved = m.press(to);
    expect(moved.type).toBe('moved');
    expect(m.phase).toEqual({ kind: 'moved', side: 'sente' });
    expect(m.reports[0]).toEqual({ type: 'moved', mine: true, from, to });
    expect(boardState(m, (k) => k).lastMove).toEqual({ from, to });
    // Gote's moves would show sente (still looking) where gote's planes and mines stand.
    expect(m.legalMoves()).toEqual([]);
    m.handOver();
    expect(m.phase).toEqual({ kind: 'turn-curtain', side: 'gote' });
    expect(m.reports).toEqual([]);
    expect(m.legalMoves()).toEqual([]);
    m.reveal();
    expect(m.reports[0]).toEqual({ type: 'moved', mine: false, from, to });
    expect(m.legalMoves().length).toBeGreaterThan(0);
  });

  it('ignores presses on enemy pieces and deselects on a non-destination', () => {
    const m = newMatch();
    throughSetup(m);
    m.reveal();
    expect(m.press('a8')).toEqual({ type: 'ignored' });
    const [from] = m.legalMoves()[0] ?? [''];
    m.press(from);
    expect(m.press('a8').type).toBe('deselected');
    expect(m.selected).toBeNull();
  });

  it('ends by resignation with everything revealed, and restarts at the setup', () => {
    const m = newMatch();
    expect(m.canResign).toBe(false);
    throughSetup(m);
    // Behind the curtain nobody is looking, so nobody can resign.
    expect(m.canResign).toBe(false);
    m.reveal();
    expect(m.canResign).toBe(true);
    const status = m.resign();
    expect(status).toEqual({ state: 'won', winner: 'gote', reason: 'resignation' });
    expect(m.phase.kind).toBe('over');
    expect(m.canResign).toBe(false);
    const state = boardState(m, (k) => k);
    expect(state.pieces).toHaveLength(46);
    expect(state.pieces.every((p) => p.kind !== undefined)).toBe(true);
    m.restart();
    expect(m.phase).toEqual({ kind: 'setup-curtain', side: 'sente' });
    expect(m.view('sente')).toBeNull();
  });

  it('plays random legal games to a natural end', () => {
    const m = newMatch();
    throughSetup(m);
    let rng = 12345;
    const next = () => {
      rng = (rng * 1103515245 + 12345) % 2147483648;
      return rng;
    };
    let plies = 0;
    while (m.phase.kind !== 'over' && plies < 3000) {
      m.reveal();
      const moves = m.legalMoves();
      const [from, to] = moves[next() % moves.length] ?? ['', ''];
      m.press(from);
      const ev = m.press(to);
      expect(ev.type).toBe('moved');
      plies++;
      m.handOver();
    }
    expect(m.phase.kind).toBe('over');
    if (m.phase.kind === 'over') expect(m.phase.status.state).not.toBe('ongoing');
  });
});

describe('LocalMatch kept in the browser', () => {
  it('keeps the game after every move and goes on with it after a reload, behind the right curtain', () => {
    const storage = new MemoryStorage();
    const games = new LocalGameStore(storage);
    const m = newMatch(storage);
    m.reveal();
    m.confirmSetup();
    expect(games.load()).toEqual({ sente: m.arrangement('sente'), gote: null, moves: [] });
    m.reveal();
    m.confirmSetup();
    expect(games.load()).toEqual({ sente: m.arrangement('sente'), gote: m.arrangement('gote'), moves: [] });
    // Until a battle has been fought, so the resumed side is told of one.
    let plies = 0;
    while ((m.view('sente')?.history.at(-1)?.battle ?? null) === null && plies < 200) {
      playOne(m);
      plies++;
    }
    const history = m.view('sente')?.history ?? [];
    expect(games.load()?.moves).toEqual(history.map((p) => [p.from, p.to, p.battle?.outcome ?? null]));
    const toMove = history.length % 2 === 0 ? 'sente' : 'gote';

    const again = newMatch(storage, true);
    expect(again.phase).toEqual({ kind: 'turn-curtain', side: toMove });
    expect(again.viewer).toBeNull();
    expect(again.view(toMove)).toEqual(m.view(toMove));
    m.reveal();
    again.reveal();
    expect(again.reports).toEqual(m.reports);
    expect(again.reports.some((r) => r.type === 'battle')).toBe(true);
    expect(again.legalMoves()).toEqual(m.legalMoves());

    again.resign();
    expect(games.load()).toBeNull();
  });

  it('keeps sente’s confirmed arrangement while gote arranges: a reload brings gote back to arranging, against it', () => {
    const storage = new MemoryStorage();
    const games = new LocalGameStore(storage);
    const m = newMatch(storage);
    m.reveal();
    m.confirmSetup();
    const sente = m.arrangement('sente');
    m.reveal();
    expect(m.phase).toMatchObject({ kind: 'setup', side: 'gote' });

    const again = newMatch(storage, true);
    expect(again.phase).toEqual({ kind: 'setup-curtain', side: 'gote' });
    expect(again.viewer).toBeNull();
    expect(again.arrangement('sente')).toEqual(sente);
    again.reveal();
    expect(again.phase).toMatchObject({ kind: 'setup', side: 'gote' });
    expect(again.confirmSetup()).toBe(true);
    expect(again.phase).toEqual({ kind: 'turn-curtain', side: 'sente' });
    const view = again.view('sente');
    expect(view === null ? null : ownPieces(view)).toEqual(sente);
    expect(games.load()).toEqual({ sente, gote: again.arrangement('gote'), moves: [] });

    // A game that starts over forgets its arrangement kept alone too.
    again.restart();
    expect(games.load()).toBeNull();
    const third = newMatch(storage);
    third.reveal();
    third.confirmSetup();
    expect(games.load()?.gote).toBeNull();
    third.restart();
    expect(games.load()).toBeNull();
    // An arrangement kept alone with moves after it is not a game: dropped.
    storage.setItem('gunjin.localGame', JSON.stringify({ sente, gote: null, moves: [['a3', 'a4', null]] }));
    expect(games.load()).toBeNull();
  });

  it('sente’s arrangement alone never takes the place of a kept game', () => {
    const storage = new MemoryStorage();
    const games = new LocalGameStore(storage);
    const m = newMatch(storage, false, 'tab-a');
    throughSetup(m);
    playOne(m);
    const kept = games.load();
    expect(kept?.moves).toHaveLength(1);
    for (const owner of ['tab-a', 'tab-b']) {
      const other = newMatch(storage, false, owner);
      other.reveal();
      other.confirmSetup();
      expect(other.phase).toEqual({ kind: 'setup-curtain', side: 'gote' });
      expect(games.load()).toEqual(kept);
      other.restart();
      other.dispose();
    }
  });

  it('forgets the kept game when it ends or restarts, keeps it when it is left, and only a new game replaces it', () => {
    const storage = new MemoryStorage();
    const games = new LocalGameStore(storage);
    const m = newMatch(storage);
    throughSetup(m);
    playOne(m);
    const kept = games.load();
    expect(kept?.moves).toHaveLength(1);

    // A new game that is still being arranged leaves the kept one alone, also when it is left.
    const other = newMatch(storage);
    other.reveal();
    other.dispose();
    expect(games.load()).toEqual(kept);

    m.restart();
    expect(games.load()).toBeNull();
    throughSetup(m);
    playOne(m);
    // Left for the start screen: still kept, to go on with from there.
    m.dispose();
    expect(games.load()?.moves).toHaveLength(1);
    const back = newMatch(storage, true);
    expect(back.phase).toEqual({ kind: 'turn-curtain', side: 'gote' });
  });

  it('says while the storage refuses to keep the game', () => {
    const storage = new MemoryStorage();
    let full = true;
    const refusing = {
      getItem: (key: string) => storage.getItem(key),
      setItem: (key: string, value: string) => {
        if (full) throw new DOMException('full', 'QuotaExceededError');
        storage.setItem(key, value);
      },
      removeItem: (key: string) => storage.removeItem(key),
    };
    let seed = 10;
    const m = new LocalMatch(testEngine(), () => seed++, new LocalGameStore(refusing));
    for (const side of ['sente', 'gote'] as const) {
      m.reveal();
      expect(m.phase.kind === 'setup' && m.phase.side).toBe(side);
      m.confirmSetup();
    }
    expect(m.caution).toBe('gameNotKept');
    full = false;
    playOne(m);
    expect(m.caution).toBeUndefined();
    expect(new LocalGameStore(storage).load()?.moves.length).toBe(1);
  });

  it('two tabs’ games neither overwrite nor erase each other: the older tab is told it is no longer kept', () => {
    const storage = new MemoryStorage();
    const games = new LocalGameStore(storage);
    const a = newMatch(storage, false, 'tab-a');
    throughSetup(a);
    for (let i = 0; i < 3; i++) playOne(a);
    expect(games.load()?.moves).toHaveLength(3);
    // A second tab starts a game of its own: the place is its game's now.
    const b = newMatch(storage, false, 'tab-b');
    throughSetup(b);
    playOne(b);
    expect(games.load()?.moves).toHaveLength(1);
    // The first tab plays on: its move does not overwrite the second tab's game, and it is told.
    playOne(a);
    expect(games.load()?.moves).toHaveLength(1);
    a.reveal();
    expect(a.caution).toBe('localKeptElsewhere');
    expect(b.caution).toBeUndefined();
    // Its end does not erase the other tab's game either.
    a.resign();
    expect(games.load()?.moves).toHaveLength(1);
    playOne(b);
    expect(games.load()?.moves).toHaveLength(2);
    // A new game in the first tab claims the place again.
    a.restart();
    throughSetup(a);
    expect(a.caution).toBeUndefined();
    expect(games.load()?.moves).toHaveLength(0);
    // A reload of the second tab resumes the game kept, which is the first tab's now.
    const reloaded = newMatch(storage, true, 'tab-b2');
    expect(reloaded.phase).toEqual({ kind: 'turn-curtain', side: 'sente' });
  });

  it('drops a kept game that does not replay for a new one', () => {
    const engine = testEngine();
    const sente = engine.autoArrangement('sente', 3);
    const gote = engine.autoArrangement('gote', 4);
    const storage = new MemoryStorage();
    const games = new LocalGameStore(storage);
    const game = engine.newGame(sente, gote);
    const [from, to] = game.legalMoves()[0] ?? ['', ''];
    const outcome = game.play(from, to).ply.battle?.outcome ?? null;
    game.dispose();
    const broken: SavedLocalGame[] = [
      { sente, gote, moves: [['a1', 'f8', null]] },
      { sente, gote, moves: [[from, to, outcome === null ? 'both' : null]] },
      { sente: gote, gote: sente, moves: [] },
    ];
    for (const saved of broken) {
      games.save(saved);
      const m = newMatch(storage, true);
      expect(m.phase).toEqual({ kind: 'setup-curtain', side: 'sente' });
      expect(m.view('sente')).toBeNull();
      expect(games.load()).toBeNull();
      // Sente, arranging the new game, is told why it is a new one; once.
      m.reveal();
      expect(m.phase).toMatchObject({ kind: 'setup', side: 'sente', note: 'keptGameUnreadable' });
      m.confirmSetup();
      m.reveal();
      expect(m.phase).toMatchObject({ kind: 'setup', side: 'gote' });
      expect(m.phase.kind === 'setup' ? m.phase.note : 'none').toBeUndefined();
    }
    storage.setItem('gunjin.localGame', '{"sente":{},"gote":[],"moves":"x"}');
    expect(games.load()).toBeNull();
    // Unreadable, it is taken away rather than read again at every visit.
    expect(storage.getItem('gunjin.localGame')).toBeNull();
    expect(newMatch(storage, true).phase).toEqual({ kind: 'setup-curtain', side: 'sente' });
  });
});

describe('pressOnTurn', () => {
  const view: View = {
    side: 'sente',
    to_move: 'sente',
    plies_without_battle: 0,
    status: { state: 'ongoing' },
    pieces: { b3: { side: 'sente', kind: 'tank' }, c3: { side: 'sente', kind: 'spy' }, b5: { side: 'gote' } },
    removed: { own: [], enemy_count: 0 },
    history: [],
  };
  const selected = { square: 'b3', destinations: { moves: ['b4'], attacks: ['b5'] } };
  const spyGoes = { moves: ['c4'], attacks: [] };
  const destinationsOf = (sq: string) => (sq === 'c3' ? spyGoes : { moves: [], attacks: [] });
  const press = (sel: typeof selected | null, sq: string) => pressOnTurn(view, sel, sq, destinationsOf);

  it('plays the selected piece to a move or an attack destination and lets go of it', () => {
    expect(press(selected, 'b4')).toEqual({ next: null, result: { type: 'play', from: 'b3', to: 'b4' } });
    expect(press(selected, 'b5')).toEqual({ next: null, result: { type: 'play', from: 'b3', to: 'b5' } });
  });

  it('selects another own piece with its destinations, never an enemy piece', () => {
    const chosen = { square: 'c3', destinations: spyGoes };
    expect(press(null, 'c3')).toEqual({ next: chosen, result: { type: 'selected', ...chosen } });
    expect(press(selected, 'c3')).toEqual({ next: chosen, result: { type: 'selected', ...chosen } });
    expect(press(null, 'b5')).toEqual({ next: null, result: { type: 'ignored' } });
  });

  it('reports a piece that cannot move without holding it, so a second press reports it again', () => {
    const stuck = { moves: [], attacks: [] };
    expect(press(null, 'b3')).toEqual({ next: null, result: { type: 'selected', square: 'b3', destinations: stuck } });
    // Held before, the spy is let go of in favour of the stuck piece, which is not held either.
    const spy = { square: 'c3', destinations: spyGoes };
    expect(press(spy, 'b3')).toEqual({ next: null, result: { type: 'selected', square: 'b3', destinations: stuck } });
  });

  it('lets go on the selected piece or elsewhere, and ignores a press with nothing selected', () => {
    expect(press(selected, 'b3')).toEqual({ next: null, result: { type: 'deselected' } });
    expect(press(selected, 'f6')).toEqual({ next: null, result: { type: 'deselected' } });
    expect(press(null, 'f6')).toEqual({ next: null, result: { type: 'ignored' } });
  });
});

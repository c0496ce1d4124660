import { describe, expect, it } from 'vitest';
import { MemoryStorage, testEngine } from '../test-engine';
import { ArrangementStore, SetupDraftStore, SetupState } from './setup';

const squareOf = (arr: Readonly<Record<string, string>>, kind: string): string => {
  const found = Object.entries(arr).find(([, k]) => k === kind);
  if (found === undefined) throw new Error(`no ${kind}`);
  return found[0];
};

describe('SetupState', () => {
  it('starts from a valid automatic arrangement of 23 pieces in its own camp', () => {
    const engine = testEngine();
    const s = new SetupState(engine, 'gote', 4);
    expect(Object.keys(s.arrangement)).toHaveLength(23);
    expect(engine.validate('gote', s.arrangement)).toEqual([]);
    expect(Object.keys(s.arrangement).every((sq) => /[5-8]$/.test(sq))).toBe(true);
  });

  it('swaps on the second press and undoes it', () => {
    const s = new SetupState(testEngine(), 'sente', 1);
    const before = { ...s.arrangement };
    expect(s.press('a3')).toEqual({ type: 'chosen', square: 'a3' });
    expect(s.chosen).toBe('a3');
    // a3 and f3 both allow every kind, so this swap always goes through.
    const ev = s.press('f3');
    expect(ev).toEqual({ type: 'swapped', a: 'a3', b: 'f3', kindA: before['a3'], kindB: before['f3'] });
    expect(s.arrangement['a3']).toBe(before['f3']);
    expect(s.arrangement['f3']).toBe(before['a3']);
    expect(s.chosen).toBeNull();
    expect(s.undo()).toBe(true);
    expect(s.undone).toEqual({ type: 'swap', a: 'a3', b: 'f3' });
    expect(s.arrangement).toEqual(before);
    expect(s.undo()).toBe(false);
  });

  it('refuses to put the flag on the back row, with the rule, and changes nothing', () => {
    const s = new SetupState(testEngine(), 'sente', 2);
    const before = { ...s.arrangement };
    const flag = squareOf(before, 'flag');
    s.press(flag);
    const ev = s.press('a1');
    expect(ev).toEqual({ type: 'refused', violation: { rule: 'flag_on_back_row', square: 'a1', kind: 'flag' } });
    expect(s.arrangement).toEqual(before);
    expect(s.canUndo).toBe(false);
  });

  it('refuses a mine on an entrance', () => {
    const s = new SetupState(testEngine(), 'gote', 3);
    const mine = squareOf(s.arrangement, 'mine');
    s.press(mine);
    const ev = s.press('b5');
    expect(ev.type).toBe('refused');
    if (ev.type === 'refused') expect(ev.violation).toEqual({ rule: 'mine_on_entrance', square: 'b5', kind: 'mine' });
  });

  it('pressing the chosen square again clears the choice; a square outside the camp swaps nothing and clears it too', () => {
    const s = new SetupState(testEngine(), 'sente', 5);
    expect(s.press('a8')).toEqual({ type: 'ignored' });
    s.press('b2');
    expect(s.press('b2')).toEqual({ type: 'unchosen' });
    expect(s.chosen).toBeNull();
    const before = { ...s.arrangement };
    s.press('a2');
    expect(s.press('c6')).toEqual({ type: 'ignored', dropped: 'a2' });
    expect(s.chosen).toBeNull();
    // The next press chooses anew instead of swapping with a2.
    expect(s.press('b2')).toEqual({ type: 'chosen', square: 'b2' });
    expect(s.arrangement).toEqual(before);
  });

  it('mirrors left to right and re-arranges', () => {
    const s = new SetupState(testEngine(), 'sente', 6);
    const before = { ...s.arrangement };
    s.mirror();
    expect(s.arrangement['a2']).toBe(before['f2']);
    expect(s.arrangement['c3']).toBe(before['d3']);
    expect(s.arrangement['cd1']).toBe(before['cd1']);
    s.rearrange(999);
    expect(testEngine().validate('sente', s.arrangement)).toEqual([]);
    expect(s.undo()).toBe(true);
    // Each undo says what it took back, the newest change first.
    expect(s.undone).toEqual({ type: 'rearrange' });
    expect(s.undo()).toBe(true);
    expect(s.undone).toEqual({ type: 'mirror' });
    expect(s.arrangement).toEqual(before);
  });

  it('loads only a valid arrangement of its own side', () => {
    const engine = testEngine();
    const s = new SetupState(engine, 'sente', 7);
    const other = engine.autoArrangement('sente', 8);
    expect(s.load(other)).toBe(true);
    expect(s.arrangement).toEqual(other);
    expect(s.load(engine.autoArrangement('gote', 8))).toBe(false);
    expect(s.arrangement).toEqual(other);
    expect(s.undo()).toBe(true);
    expect(s.undone).toEqual({ type: 'load' });
  });
});

describe('SetupDraftStore', () => {
  const all = () => true;

  it('keeps every change to the arrangement being made, never the untouched automatic one', () => {
    const engine = testEngine();
    const drafts = new SetupDraftStore(new MemoryStorage(), engine);
    const s = new SetupState(engine, 'gote', 4, drafts.open('cpu-gote', 'gote'));
    expect(drafts.latest(all)).toBeNull();
    s.press('a6');
    s.press('f6');
    expect(drafts.latest(all)).toEqual({ place: 'cpu-gote', side: 'gote', arrangement: s.arrangement });
    s.mirror();
    expect(drafts.loadFor('cpu-gote', 'gote')).toEqual(s.arrangement);
    s.undo();
    expect(drafts.loadFor('cpu-gote', 'gote')).toEqual(s.arrangement);
    // A press that only chooses leaves it as it was.
    const before = drafts.loadFor('cpu-gote', 'gote');
    s.press('a7');
    expect(drafts.loadFor('cpu-gote', 'gote')).toEqual(before);
    expect(drafts.loadFor('cpu-gote', 'sente')).toBeNull();
    expect(drafts.loadFor('cpu-advanced', 'gote')).toBeNull();
  });

  it('brings an arrangement back with nothing to undo, and refuses one of the other side', () => {
    const engine = testEngine();
    const s = new SetupState(engine, 'sente', 1);
    const mine = engine.autoArrangement('sente', 77);
    expect(s.begin(mine)).toBe(true);
    expect(s.arrangement).toEqual(mine);
    expect(s.canUndo).toBe(false);
    expect(s.begin(engine.autoArrangement('gote', 77))).toBe(false);
    expect(s.arrangement).toEqual(mine);
  });

  it('keeps one arrangement per place: a setup elsewhere (another tab) leaves it alone', () => {
    const engine = testEngine();
    const storage = new MemoryStorage();
    let n = 0;
    let clock = 1000;
    const drafts = new SetupDraftStore(storage, engine, () => `tab${n++}`, () => clock++);
    const room = new SetupState(engine, 'sente', 1, drafts.open('room:R:1', 'sente'));
    room.mirror();
    // Another tab opens a CPU game, changes nothing, and leaves: the room's arrangement stays.
    const idle = drafts.open('cpu-beginner', 'sente');
    new SetupState(engine, 'sente', 2, idle);
    idle.clear();
    expect(drafts.loadFor('room:R:1', 'sente')).toEqual(room.arrangement);
    // It arranges for the CPU: both are kept, and the newest of those offered is the CPU's.
    const cpu = new SetupState(engine, 'sente', 3, drafts.open('cpu-beginner', 'sente'));
    cpu.rearrange(9);
    expect(drafts.latest(all)?.place).toBe('cpu-beginner');
    expect(drafts.latest((p) => p.startsWith('room:'))?.arrangement).toEqual(room.arrangement);
    // A setup forgets only what it wrote itself; the player's choice forgets a place.
    const stale = drafts.open('room:R:1', 'sente');
    stale.clear();
    expect(drafts.loadFor('room:R:1', 'sente')).toEqual(room.arrangement);
    drafts.discard('cpu-beginner');
    expect(drafts.latest((p) => p.startsWith('cpu'))).toBeNull();
    expect(drafts.loadFor('room:R:1', 'sente')).toEqual(room.arrangement);
  });

  it('forgets an arrangement once used, though another page wrote it', () => {
    const engine = testEngine();
    const storage = new MemoryStorage();
    let n = 0;
    const drafts = new SetupDraftStore(storage, engine, () => `page${n++}`);
    const sink = drafts.open('room:R:1', 'gote');
    const mine = new SetupState(engine, 'gote', 1, sink);
    // Another page (the one before a reload) wrote the place since.
    const before = new SetupState(engine, 'gote', 2, drafts.open('room:R:1', 'gote'));
    before.mirror();
    // Not the one kept: left alone.
    sink.clear(mine.arrangement);
    expect(drafts.loadFor('room:R:1', 'gote')).toEqual(before.arrangement);
    // The kept one itself, sent to the room: it goes.
    sink.clear(before.arrangement);
    expect(drafts.loadFor('room:R:1', 'gote')).toBeNull();
  });

  it('keeps the newest few places, and drops what does not read as a legal arrangement', () => {
    const engine = testEngine();
    const storage = new MemoryStorage();
    let clock = 0;
    const drafts = new SetupDraftStore(storage, engine, undefined, () => clock++);
    for (let game = 1; game <= SetupDraftStore.MAX_PLACES + 2; game++) {
      new SetupState(engine, 'gote', game, drafts.open(`room:R:${game}`, 'gote')).mirror();
    }
    expect(drafts.loadFor('room:R:1', 'gote')).toBeNull();
    expect(drafts.loadFor('room:R:2', 'gote')).toBeNull();
    expect(drafts.loadFor(`room:R:${SetupDraftStore.MAX_PLACES + 2}`, 'gote')).not.toBeNull();

    const legal = engine.autoArrangement('sente', 5);
    const entry = (pieces: unknown, side = 'sente') => ({ side, pieces, owner: 'x', at: 1 });
    storage.setItem(
      'gunjin.setupDraft',
      JSON.stringify({
        'cpu-advanced': entry({ a1: 'flag' }),
        'cpu-beginner': entry(legal, 'gote'),
        'cpu-gote': { side: 'sente', pieces: legal },
        'cpu-intermediate': entry(legal),
      }),
    );
    expect(drafts.latest(all)).toEqual({ place: 'cpu-intermediate', side: 'sente', arrangement: legal });
    for (const bad of ['{not json', '[1]', '"x"']) {
      storage.setItem('gunjin.setupDraft', bad);
      expect(drafts.latest(all), bad).toBeNull();
      expect(storage.getItem('gunjin.setupDraft'), bad).toBeNull();
    }
  });
});

describe('ArrangementStore', () => {
  it('keeps the last arrangement, turns it round for the other side, and survives bad data', () => {
    const engine = testEngine();
    const storage = new MemoryStorage();
    const store = new ArrangementStore(storage, engine);
    expect(store.load('sente')).toBeNull();
    const sente = engine.autoArrangement('sente', 5);
    store.save('sente', sente);
    expect(store.load('sente')).toEqual(sente);
    const gote = store.load('gote');
    expect(gote).toEqual(engine.turnAround('sente', sente));
    expect(gote?.['f8']).toBe(sente['a1']);
    expect(engine.validate('gote', gote ?? {})).toEqual([]);
    // The latest confirmation wins, whichever side it was made for.
    const other = engine.autoArrangement('gote', 6);
    store.save('gote', other);
    expect(store.load('gote')).toEqual(other);
    expect(store.load('sente')).toEqual(engine.turnAround('gote', other));

    for (const bad of ['{not json', '{"side":"gote","pieces":{"a5":3}}', '{"side":"red","pieces":{}}', '{"side":"sente","pieces":{"a1":"general"}}']) {
      storage.setItem('gunjin.arrangement', bad);
      expect(store.load('sente'), bad).toBeNull();
      expect(store.load('gote'), bad).toBeNull();
    }
  });

  it('reads what earlier versions kept per side', () => {
    const engine = testEngine();
    const storage = new MemoryStorage();
    const old = engine.autoArrangement('gote', 9);
    storage.setItem('gunjin.arrangement.gote', JSON.stringify(old));
    const store = new ArrangementStore(storage, engine);
    expect(store.load('gote')).toEqual(old);
    expect(store.load('sente')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { MemoryStorage } from '../test-engine';
import { CPU_MODES } from './modes';
import { CPU_MODE_IDS } from './protocol';
import { CpuGameStore, type SavedCpuGame } from './saved';

const GAME: SavedCpuGame = {
  human: 'gote',
  level: 'advanced',
  arrangement: { a8: 'general' },
  cpuSeed: 12345,
  moves: [
    ['b4', 'b5', null],
    ['c5', 'c4', 'defender'],
  ],
};

describe('CpuGameStore', () => {
  it('knows every CPU mode of the start screen, and only those', () => {
    expect(CPU_MODES.map((m) => m.id)).toEqual([...CPU_MODE_IDS]);
  });

  it('keeps one unfinished game with its mode, and forgets it', () => {
    const storage = new MemoryStorage();
    const store = new CpuGameStore(storage);
    expect(store.load()).toBeNull();
    store.save('cpu-gote', GAME);
    expect(new CpuGameStore(storage).load()).toEqual({ mode: 'cpu-gote', game: GAME });
    store.save('cpu-beginner', { ...GAME, human: 'sente', level: 'beginner' });
    expect(store.load()?.mode).toBe('cpu-beginner');
    store.clear();
    expect(store.load()).toBeNull();
  });

  it('reads anything else as no game', () => {
    const broken: unknown[] = [
      null,
      [],
      { mode: 1, game: GAME },
      // Only a CPU mode: a game naming another would be offered as that mode's (a friend's room).
      { mode: 'friend', game: GAME },
      { mode: 'local', game: GAME },
      { mode: 'cpu-expert', game: GAME },
      { mode: 'cpu-gote' },
      { mode: 'cpu-gote', game: { ...GAME, human: 'both' } },
      { mode: 'cpu-gote', game: { ...GAME, level: 'expert' } },
      { mode: 'cpu-gote', game: { ...GAME, cpuSeed: -1 } },
      { mode: 'cpu-gote', game: { ...GAME, cpuSeed: 1.5 } },
      { mode: 'cpu-gote', game: { ...GAME, arrangement: { a8: 3 } } },
      { mode: 'cpu-gote', game: { ...GAME, moves: [['b4']] } },
      { mode: 'cpu-gote', game: { ...GAME, moves: [['b4', 'b5']] } },
      { mode: 'cpu-gote', game: { ...GAME, moves: [['b4', 'b5', 'won']] } },
      { mode: 'cpu-gote', game: { ...GAME, moves: 'b4b5' } },
    ];
    for (const value of broken) {
      const storage = new MemoryStorage();
      storage.setItem('gunjin.cpuGame', JSON.stringify(value));
      expect(new CpuGameStore(storage).load()).toBeNull();
      expect(storage.getItem('gunjin.cpuGame'), JSON.stringify(value)).toBeNull();
    }
    const storage = new MemoryStorage();
    storage.setItem('gunjin.cpuGame', '{not json');
    expect(new CpuGameStore(storage).load()).toBeNull();
    // What does not read as a game is not left to be read again at every visit.
    expect(storage.getItem('gunjin.cpuGame')).toBeNull();
    expect(new CpuGameStore(undefined).load()).toBeNull();
  });

  it('drops the kept game when a newer one cannot be kept, rather than offer moves undone', () => {
    const storage = new MemoryStorage();
    const store = new CpuGameStore(storage);
    store.save('cpu-gote', GAME);
    const full = {
      getItem: (key: string) => storage.getItem(key),
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
      removeItem: (key: string) => storage.removeItem(key),
    };
    new CpuGameStore(full).save('cpu-gote', { ...GAME, moves: [...GAME.moves, ['b5', 'b6', null]] });
    expect(store.load()).toBeNull();
  });
});

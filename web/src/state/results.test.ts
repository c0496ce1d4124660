import { describe, expect, it } from 'vitest';
import { MemoryStorage } from '../test-engine';
import { outcomeFor, ResultStore } from './results';

describe('ResultStore', () => {
  it('counts finished games per mode and keeps them in the storage', () => {
    const storage = new MemoryStorage();
    const store = new ResultStore(storage);
    expect(store.tally('cpu-beginner')).toEqual({ won: 0, lost: 0, drawn: 0 });
    store.add('cpu-beginner', 'won');
    store.add('cpu-beginner', 'won');
    store.add('cpu-beginner', 'lost');
    store.add('cpu-advanced', 'drawn');
    const again = new ResultStore(storage);
    expect(again.tally('cpu-beginner')).toEqual({ won: 2, lost: 1, drawn: 0 });
    expect(again.tally('cpu-advanced')).toEqual({ won: 0, lost: 0, drawn: 1 });
    expect(again.tally('cpu-gote')).toEqual({ won: 0, lost: 0, drawn: 0 });
  });

  it('reads broken or foreign storage as no results, and starts counting again from it', () => {
    for (const text of ['{', '[]', '"x"', '{"cpu-beginner":{"won":-3,"lost":"7","drawn":1.5}}', '{"cpu-beginner":null}']) {
      const storage = new MemoryStorage();
      storage.setItem('gunjin.results', text);
      const store = new ResultStore(storage);
      expect(store.tally('cpu-beginner')).toEqual({ won: 0, lost: 0, drawn: 0 });
      store.add('cpu-beginner', 'lost');
      expect(store.tally('cpu-beginner')).toEqual({ won: 0, lost: 1, drawn: 0 });
    }
  });

  it('works without a storage (counts nothing)', () => {
    const store = new ResultStore(undefined);
    store.add('cpu-beginner', 'won');
    expect(store.tally('cpu-beginner')).toEqual({ won: 0, lost: 0, drawn: 0 });
  });
});

describe('outcomeFor', () => {
  it('reads a status from one side', () => {
    const won = { state: 'won', winner: 'gote', reason: 'occupation' } as const;
    expect(outcomeFor('gote', won)).toBe('won');
    expect(outcomeFor('sente', won)).toBe('lost');
    expect(outcomeFor('sente', { state: 'draw', reason: 'no_battle_limit' })).toBe('drawn');
    expect(outcomeFor('sente', { state: 'ongoing' })).toBeNull();
  });
});

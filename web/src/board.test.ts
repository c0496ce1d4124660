import { describe, expect, it } from 'vitest';
import { withoutHiddenNames, type BoardState } from './board';

const state: BoardState = {
  viewer: 'gote',
  pieces: [
    { square: 'a8', side: 'gote', kind: 'general', label: 'general' },
    { square: 'a1', side: 'sente', kind: 'spy', label: 'spy' },
    { square: 'b1', side: 'sente' },
  ],
  moveTargets: [],
  attackTargets: [],
};

describe('withoutHiddenNames', () => {
  it("drops every enemy kind and name while the game goes on, keeping the viewer's own", () => {
    const safe = withoutHiddenNames(state, false);
    expect(safe.pieces).toEqual([
      { square: 'a8', side: 'gote', kind: 'general', label: 'general' },
      { square: 'a1', side: 'sente' },
      { square: 'b1', side: 'sente' },
    ]);
    expect(safe.viewer).toBe('gote');
  });

  it('keeps everything after the end, and a state with nothing hidden as it is', () => {
    expect(withoutHiddenNames(state, true)).toBe(state);
    const clean = withoutHiddenNames(state, false);
    expect(withoutHiddenNames(clean, false)).toBe(clean);
  });
});

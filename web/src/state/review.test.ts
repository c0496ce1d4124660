import { describe, expect, it } from 'vitest';
import { testEngine } from '../test-engine';
import type { Arrangement, Ply } from '../engine';
import { reviewFrames, type Setups } from './review';

/** A game of random legal moves from two automatic arrangements; returns them and the plies. */
function randomGame(seed: number, maxPlies: number): { setups: Setups; history: readonly Ply[]; finalPieces: Record<string, string> } {
  const engine = testEngine();
  const setups = { sente: engine.autoArrangement('sente', seed), gote: engine.autoArrangement('gote', seed + 1) };
  const game = engine.newGame(setups.sente, setups.gote);
  let x = seed;
  for (let i = 0; i < maxPlies && game.status().state === 'ongoing'; i++) {
    const legal = game.legalMoves();
    x = (x * 1103515245 + 12345) % 2147483648;
    const [from, to] = legal[x % legal.length]!;
    game.play(from, to);
  }
  if (game.status().state === 'ongoing') game.resign('gote');
  const view = game.view('sente');
  game.dispose();
  const finalPieces: Record<string, string> = {};
  for (const [sq, p] of Object.entries(view.pieces)) finalPieces[sq] = `${p.side}:${p.kind ?? '?'}`;
  return { setups, history: view.history, finalPieces };
}

const asBoard = (pieces: readonly { square: string; side: string; kind: string }[]): Record<string, string> =>
  Object.fromEntries(pieces.map((p) => [p.square, `${p.side}:${p.kind}`]));

const asArrangementBoard = (a: Arrangement, side: string): Record<string, string> =>
  Object.fromEntries(Object.entries(a).map(([sq, k]) => [sq, `${side}:${k}`]));

describe('reviewFrames', () => {
  it('starts from both arrangements and ends on the revealed final board, one frame per ply', () => {
    for (const seed of [3, 40, 512]) {
      const { setups, history, finalPieces } = randomGame(seed, 400);
      const battles = history.filter((p) => p.battle !== null).length;
      expect(battles).toBeGreaterThan(0);
      const frames = reviewFrames(setups, history);
      expect(frames).toHaveLength(history.length + 1);
      expect(frames[0]!.ply).toBeNull();
      expect(asBoard(frames[0]!.pieces)).toEqual({
        ...asArrangementBoard(setups.sente, 'sente'),
        ...asArrangementBoard(setups.gote, 'gote'),
      });
      expect(asBoard(frames[frames.length - 1]!.pieces)).toEqual(finalPieces);
      frames.slice(1).forEach((f, i) => expect(f.ply).toEqual(history[i]));
      // Every position is the engine's: both sides' views of the replayed game, put together.
      const engine = testEngine();
      const game = engine.newGame(setups.sente, setups.gote);
      frames.forEach((f, i) => {
        if (i > 0) game.play(history[i - 1]!.from, history[i - 1]!.to);
        const truth: Record<string, string> = {};
        for (const side of ['sente', 'gote'] as const) {
          for (const [sq, p] of Object.entries(game.view(side).pieces)) if (p.side === side) truth[sq] = `${side}:${p.kind}`;
        }
        expect(asBoard(f.pieces)).toEqual(truth);
      });
      game.dispose();
    }
  });

  it('moves one piece on a quiet ply and removes the losers of a battle', () => {
    const { setups, history } = randomGame(7, 300);
    const frames = reviewFrames(setups, history);
    history.forEach((ply, i) => {
      const before = asBoard(frames[i]!.pieces);
      const after = asBoard(frames[i + 1]!.pieces);
      const mover = before[ply.from];
      expect(after[ply.from]).toBeUndefined();
      const count = (b: Record<string, string>): number => Object.keys(b).length;
      if (ply.battle === null) {
        expect(after[ply.to]).toBe(mover);
        expect(count(after)).toBe(count(before));
      } else if (ply.battle.outcome === 'attacker') {
        expect(after[ply.to]).toBe(mover);
      } else if (ply.battle.outcome === 'defender') {
        expect(after[ply.to]).toBe(before[ply.to]);
        expect(count(after)).toBe(count(before) - 1);
      } else {
        expect(after[ply.to]).toBeUndefined();
      }
    });
  });

  it('stops where a record no longer fits the arrangements', () => {
    const { setups, history } = randomGame(11, 20);
    const broken: Ply[] = [...history.slice(0, 5), { side: 'sente', from: 'a1', to: 'f8', battle: null }, ...history.slice(5)];
    expect(reviewFrames(setups, broken)).toHaveLength(6);
    expect(reviewFrames({ sente: {}, gote: setups.gote }, history)).toHaveLength(1);
    // A quiet move onto a piece, or a battle on an empty square, does not fit either.
    const q = history.findIndex((p) => p.battle === null);
    expect(q).toBeGreaterThanOrEqual(0);
    const quiet = history[q]!;
    const before = history.slice(0, q);
    expect(reviewFrames(setups, [...before, { ...quiet, to: quiet.from }])).toHaveLength(q + 1);
    expect(reviewFrames(setups, [...before, { ...quiet, battle: { square: quiet.to, outcome: 'attacker' } }])).toHaveLength(q + 1);
    expect(reviewFrames(setups, [...before, quiet])).toHaveLength(q + 2);
  });
});

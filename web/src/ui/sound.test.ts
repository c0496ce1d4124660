import { afterEach, describe, expect, it } from 'vitest';
import type { Ply, View } from '../engine';
import { MemoryStorage } from '../test-engine';
import { cueFor, heardOf, Sounds, type Heard } from './sound';

const quiet: Ply = { side: 'sente', from: 'a4', to: 'a5', battle: null };
const battle: Ply = { side: 'gote', from: 'a5', to: 'a4', battle: { square: 'a4', outcome: 'defender' } };

function view(history: readonly Ply[], status: View['status'] = { state: 'ongoing' }): View {
  return {
    side: 'sente',
    to_move: history.length % 2 === 0 ? 'sente' : 'gote',
    plies_without_battle: 0,
    status,
    pieces: {},
    removed: { own: [], enemy_count: 0 },
    history,
  };
}

describe('what a change on the board sounds like', () => {
  const game = {};
  const at = (history: readonly Ply[], status?: View['status'], shared = false): Heard =>
    heardOf(game, view(history, status), 'sente', shared);

  it('a move, a battle, the end from the player’s side', () => {
    expect(cueFor(at([]), at([quiet]))).toBe('move');
    expect(cueFor(at([quiet]), at([quiet, battle]))).toBe('battle');
    const won = { state: 'won', winner: 'sente', reason: 'occupation' } as const;
    const lost = { state: 'won', winner: 'gote', reason: 'resignation' } as const;
    expect(cueFor(at([quiet]), at([quiet, battle], won))).toBe('win');
    expect(cueFor(at([quiet]), at([quiet], lost))).toBe('loss');
    expect(cueFor(at([quiet]), at([quiet], { state: 'draw', reason: 'no_battle_limit' }))).toBe('draw');
    // Two players on one screen: the end is nobody's loss.
    expect(cueFor(at([quiet], undefined, true), at([quiet], lost, true))).toBe('win');
  });

  it('stays quiet when nothing was watched happening', () => {
    expect(cueFor(null, at([quiet]))).toBeNull();
    expect(cueFor(at([quiet]), at([quiet]))).toBeNull();
    // Another game, or the same one started again.
    expect(cueFor(heardOf({}, view([]), 'sente', false), at([quiet]))).toBeNull();
    expect(cueFor(at([quiet, battle]), at([]))).toBeNull();
    // A game caught up with after a reconnection.
    expect(cueFor(at([]), at([quiet, battle, quiet]))).toBeNull();
    // Still over: the end sounded once.
    const won = { state: 'won', winner: 'sente', reason: 'occupation' } as const;
    expect(cueFor(at([quiet], won), at([quiet], won))).toBeNull();
  });
});

/** Enough of the Web Audio API to see what gets scheduled. */
class FakeAudioContext {
  static made: FakeAudioContext[] = [];
  state: 'suspended' | 'running' = 'suspended';
  readonly currentTime = 0;
  readonly sampleRate = 8000;
  readonly destination = {};
  started: string[] = [];
  constructor() {
    FakeAudioContext.made.push(this);
  }
  resume(): Promise<void> {
    this.state = 'running';
    return Promise.resolve();
  }
  private node(kind: string): Record<string, unknown> {
    const param = { value: 0, setValueAtTime: () => {}, exponentialRampToValueAtTime: () => {} };
    const node: Record<string, unknown> = {
      gain: param,
      frequency: param,
      Q: param,
      connect: (next: unknown) => next,
      start: () => this.started.push(kind),
      stop: () => {},
    };
    return node;
  }
  createGain(): unknown {
    return this.node('gain');
  }
  createOscillator(): unknown {
    return this.node('tone');
  }
  createBufferSource(): unknown {
    return this.node('noise');
  }
  createBiquadFilter(): unknown {
    return this.node('filter');
  }
  createBuffer(_channels: number, length: number): unknown {
    const data = new Float32Array(length);
    return { getChannelData: () => data };
  }
}

describe('Sounds', () => {
  const real = globalThis.AudioContext;
  afterEach(() => {
    globalThis.AudioContext = real;
    FakeAudioContext.made = [];
  });

  it('plays only once the page has been touched, and not while switched off; the switch is remembered', async () => {
    globalThis.AudioContext = FakeAudioContext as unknown as typeof AudioContext;
    const storage = new MemoryStorage();
    const sounds = new Sounds(storage);
    expect(sounds.enabled).toBe(true);
    sounds.play('move');
    expect(FakeAudioContext.made).toHaveLength(0);
    sounds.unlock();
    await Promise.resolve();
    const ctx = FakeAudioContext.made[0];
    expect(ctx?.state).toBe('running');
    sounds.play('battle');
    expect(ctx?.started).toEqual(['tone', 'noise']);
    sounds.toggle();
    sounds.play('win');
    expect(ctx?.started).toHaveLength(2);
    expect(new Sounds(storage).enabled).toBe(false);
    sounds.toggle();
    sounds.play('win');
    expect(ctx?.started).toHaveLength(5);
    expect(new Sounds(storage).enabled).toBe(true);
  });

  it('does nothing, and throws nothing, where there is no audio', () => {
    globalThis.AudioContext = undefined as unknown as typeof AudioContext;
    const sounds = new Sounds(undefined);
    sounds.unlock();
    expect(() => sounds.play('move')).not.toThrow();
  });
});

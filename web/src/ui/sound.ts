/**
 * Short sounds for what happens on the board: a piece set down, a battle, the end of a game. Made
 * with the Web Audio API (no sound files to download), on by default, switched off and on by the
 * toolbar's button and remembered in this browser. A sound says nothing the screen does not: a
 * battle sounds the same whoever wins it.
 */
import type { Side, View } from '../engine';
import { readJson, writeJson, type KeyValueStorage } from '../storage';

export type Cue = 'move' | 'battle' | 'win' | 'loss' | 'draw';

/** What the page last showed of a game, to tell what changed since. */
export interface Heard {
  /** The game on screen (a new object for every new game, or after "play again"'s restart). */
  readonly game: object;
  readonly plies: number;
  readonly lastWasBattle: boolean;
  /** From the viewer's side once the game is over; `end` where nobody plays against the screen. */
  readonly result: 'win' | 'loss' | 'draw' | 'end' | null;
}

/**
 * The cue a change from `before` to `now` calls for, or null. Only a change seen while watching
 * sounds: a game that appears with its moves already played (a kept game resumed, a room
 * rejoined) stays quiet, and so does a game started anew.
 */
export function cueFor(before: Heard | null, now: Heard): Cue | null {
  if (before === null || before.game !== now.game || now.plies < before.plies) return null;
  if (now.plies - before.plies > WATCHED_AT_ONCE) return null;
  if (now.result !== null && before.result === null) return now.result === 'end' ? 'win' : now.result;
  if (now.plies > before.plies) return now.lastWasBattle ? 'battle' : 'move';
  return null;
}

/**
 * What the screen shows of `game` through `view`, the view of the player at `side`; `shared` when
 * two players share the screen (the end is then nobody's win or loss).
 */
export function heardOf(game: object, view: View, side: Side, shared: boolean): Heard {
  const last = view.history[view.history.length - 1];
  const status = view.status;
  const result =
    status.state === 'ongoing' ? null : status.state === 'draw' ? 'draw' : shared ? 'end' : status.winner === side ? 'win' : 'loss';
  return { game, plies: view.history.length, lastWasBattle: last?.battle != null, result };
}

/** More plies than this at once are a game caught up with (a replay), not moves watched. */
const WATCHED_AT_ONCE = 2;

const STORAGE_KEY = 'gunjin.sound';

/** One note or noise burst: when it starts (s from now), how long it rings, and how loud. */
interface Tone {
  readonly at: number;
  readonly length: number;
  readonly gain: number;
  /** A frequency in Hz (sliding to `to` if given), or noise through a band around it. */
  readonly hz: number;
  readonly to?: number;
  readonly shape: OscillatorType | 'noise';
}

const CUES: Readonly<Record<Cue, readonly Tone[]>> = {
  // A wooden piece set down: a click of noise and a short high knock.
  move: [
    { at: 0, length: 0.05, gain: 0.5, hz: 2200, shape: 'noise' },
    { at: 0, length: 0.07, gain: 0.25, hz: 880, to: 660, shape: 'sine' },
  ],
  // A battle: a low thump under a duller knock.
  battle: [
    { at: 0, length: 0.22, gain: 0.7, hz: 140, to: 55, shape: 'sine' },
    { at: 0, length: 0.12, gain: 0.45, hz: 700, shape: 'noise' },
  ],
  win: [
    { at: 0, length: 0.16, gain: 0.22, hz: 523.25, shape: 'triangle' },
    { at: 0.14, length: 0.16, gain: 0.22, hz: 659.25, shape: 'triangle' },
    { at: 0.28, length: 0.4, gain: 0.24, hz: 783.99, shape: 'triangle' },
  ],
  loss: [
    { at: 0, length: 0.2, gain: 0.22, hz: 392, shape: 'triangle' },
    { at: 0.18, length: 0.2, gain: 0.22, hz: 329.63, shape: 'triangle' },
    { at: 0.36, length: 0.45, gain: 0.22, hz: 261.63, shape: 'triangle' },
  ],
  draw: [
    { at: 0, length: 0.2, gain: 0.2, hz: 440, shape: 'triangle' },
    { at: 0.2, length: 0.35, gain: 0.2, hz: 440, shape: 'triangle' },
  ],
};

export class Sounds {
  private context: AudioContext | null = null;
  private noise: AudioBuffer | null = null;
  private on: boolean;

  constructor(private readonly storage: KeyValueStorage | undefined) {
    // On unless switched off here before (nothing kept, or a blocked storage: the default).
    this.on = readJson(storage, STORAGE_KEY) !== false;
  }

  get enabled(): boolean {
    return this.on;
  }

  toggle(): void {
    this.on = !this.on;
    writeJson(this.storage, STORAGE_KEY, this.on);
    if (this.on) this.unlock();
  }

  /**
   * Browsers let a page start sound only after the player has touched it: called on each press,
   * this creates (or wakes) the audio context then.
   */
  unlock(): void {
    if (!this.on) return;
    try {
      if (this.context === null) {
        const Ctor = globalThis.AudioContext as typeof AudioContext | undefined;
        if (Ctor === undefined) return;
        this.context = new Ctor();
      }
      if (this.context.state === 'suspended') void this.context.resume().catch(() => {});
    } catch {
      // No audio here: the game is the same without it.
      this.context = null;
    }
  }

  play(cue: Cue): void {
    const ctx = this.context;
    if (!this.on || ctx === null || ctx.state !== 'running') return;
    try {
      const start = ctx.currentTime + 0.01;
      for (const tone of CUES[cue]) this.sound(ctx, tone, start + tone.at);
    } catch {
      // As above.
    }
  }

  private sound(ctx: AudioContext, tone: Tone, at: number): void {
    const gain = ctx.createGain();
    gain.gain.setValueAtTime(tone.gain, at);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + tone.length);
    gain.connect(ctx.destination);
    let source: AudioScheduledSourceNode;
    if (tone.shape === 'noise') {
      const noise = ctx.createBufferSource();
      noise.buffer = this.noiseBuffer(ctx);
      const band = ctx.createBiquadFilter();
      band.type = 'bandpass';
      band.frequency.value = tone.hz;
      band.Q.value = 1.2;
      noise.connect(band).connect(gain);
      source = noise;
    } else {
      const osc = ctx.createOscillator();
      osc.type = tone.shape;
      osc.frequency.setValueAtTime(tone.hz, at);
      if (tone.to !== undefined) osc.frequency.exponentialRampToValueAtTime(tone.to, at + tone.length);
      osc.connect(gain);
      source = osc;
    }
    source.start(at);
    source.stop(at + tone.length + 0.02);
  }

  private noiseBuffer(ctx: AudioContext): AudioBuffer {
    if (this.noise === null) {
      const length = Math.floor(ctx.sampleRate * 0.25);
      this.noise = ctx.createBuffer(1, length, ctx.sampleRate);
      const data = this.noise.getChannelData(0);
      // Fixed, not random: the same click every time.
      let x = 0x2545f491;
      for (let i = 0; i < length; i++) {
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        data[i] = ((x >>> 0) / 0xffffffff) * 2 - 1;
      }
    }
    return this.noise;
  }
}

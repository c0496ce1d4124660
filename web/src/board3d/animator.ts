/** A small tween scheduler: the board draws frames only while something here is running. */

export interface Tween {
  /** Milliseconds after scheduling before the tween starts. */
  delay: number;
  /** Milliseconds from start to end. */
  duration: number;
  /** Called with progress 0…1 (already eased by the tween itself if it wants). */
  update(t: number): void;
  /** Called once after the last update. */
  done?: (() => void) | undefined;
}

interface Running {
  tween: Tween;
  start: number;
  started: boolean;
}

/** Smooth start and stop. */
export function easeInOut(t: number): number {
  return t < 0.5 ? 4 * t * t * t : 1 - (-2 * t + 2) ** 3 / 2;
}

export class Animator {
  private running: Running[] = [];

  /** Whether a tween is pending or running. */
  get busy(): boolean {
    return this.running.length > 0;
  }

  /**
   * Schedules a tween from `now`. With `instant`, it jumps to its end at once (reduced motion).
   */
  add(tween: Tween, now: number, instant: boolean): void {
    if (instant) {
      tween.update(1);
      tween.done?.();
      return;
    }
    this.running.push({ tween, start: now + tween.delay, started: false });
  }

  /** Advances every tween to `now`; returns whether any is still running. */
  step(now: number): boolean {
    const still: Running[] = [];
    for (const r of this.running) {
      if (now < r.start) {
        still.push(r);
        continue;
      }
      const t = r.tween.duration <= 0 ? 1 : Math.min(1, (now - r.start) / r.tween.duration);
      r.started = true;
      r.tween.update(t);
      if (t >= 1) r.tween.done?.();
      else still.push(r);
    }
    this.running = still;
    return this.running.length > 0;
  }

  /** Jumps every tween to its end, in the order they were scheduled. */
  finish(): void {
    const all = this.running;
    this.running = [];
    for (const r of all) {
      r.tween.update(1);
      r.tween.done?.();
    }
  }
}

/**
 * Watches the time between the frames of running animations. A device that draws a frame in
 * more than `slowMs` (under 20 frames a second; a software renderer takes 80–200 ms) shows
 * motion as a few jumps and pays for it in everything else the page does: on this project's
 * 2-core machine the CPU's answer came after 2 s instead of 0.6 s while a battle played out.
 * After `limit` such frames in a row, motion is not worth it there.
 */
export class FrameWatch {
  private last: number | undefined;
  private slow = 0;

  constructor(
    private readonly slowMs = 50,
    private readonly limit = 4,
  ) {}

  /** An animation frame drawn at `now`; true once the device has proved too slow for motion. */
  frame(now: number): boolean {
    if (this.last !== undefined) this.slow = now - this.last > this.slowMs ? this.slow + 1 : 0;
    this.last = now;
    return this.slow >= this.limit;
  }

  /** No animation runs: the pause until the next one is not a frame's time. */
  idle(): void {
    this.last = undefined;
  }
}


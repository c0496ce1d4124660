import { describe, expect, it } from 'vitest';
import { Animator, FrameWatch, easeInOut } from './animator';

describe('animator', () => {
  it('runs tweens over time, in order, and reports when it is done', () => {
    const a = new Animator();
    const seen: string[] = [];
    a.add({ delay: 0, duration: 100, update: (t) => seen.push(`a${t}`), done: () => seen.push('a!') }, 0, false);
    a.add({ delay: 100, duration: 100, update: (t) => seen.push(`b${t}`) }, 0, false);
    expect(a.step(50)).toBe(true);
    expect(seen).toEqual(['a0.5']);
    expect(a.step(150)).toBe(true);
    expect(seen).toEqual(['a0.5', 'a1', 'a!', 'b0.5']);
    expect(a.step(250)).toBe(false);
    expect(a.busy).toBe(false);
  });

  it('jumps to the end at once when motion is reduced, or when finished early', () => {
    const a = new Animator();
    const seen: number[] = [];
    a.add({ delay: 500, duration: 100, update: (t) => seen.push(t) }, 0, true);
    expect(seen).toEqual([1]);
    expect(a.busy).toBe(false);
    a.add({ delay: 0, duration: 100, update: (t) => seen.push(t) }, 0, false);
    a.finish();
    expect(seen).toEqual([1, 1]);
    expect(a.busy).toBe(false);
  });

  it('eases from 0 to 1 symmetrically', () => {
    expect(easeInOut(0)).toBe(0);
    expect(easeInOut(1)).toBe(1);
    expect(easeInOut(0.5)).toBeCloseTo(0.5);
    expect(easeInOut(0.25) + easeInOut(0.75)).toBeCloseTo(1);
  });

  it('tells a device that draws animation frames too slowly, not one that paused between animations', () => {
    const slow = new FrameWatch(120, 4);
    const verdicts = [0, 180, 360, 540, 720].map((t) => slow.frame(t));
    expect(verdicts).toEqual([false, false, false, false, true]);

    const smooth = new FrameWatch(120, 4);
    // 60 frames a second, with a long pause between two animations, and one slow frame among fast ones.
    let t = 0;
    const seen: boolean[] = [];
    for (let i = 0; i < 30; i++) seen.push(smooth.frame((t += 16)));
    smooth.idle();
    t += 5000;
    for (let i = 0; i < 30; i++) seen.push(smooth.frame((t += i === 10 ? 300 : 16)));
    expect(seen.some(Boolean)).toBe(false);
  });
});

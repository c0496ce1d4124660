import { describe, expect, it } from 'vitest';
import { PerspectiveCamera, Vector3 } from 'three';
import { POLAR, applyShift, azimuthOf, directionOf, frame } from './camera';
import { BOARD_DEPTH, BOARD_WIDTH } from './layout';

/** NDC y range and largest |x| of the board's corners seen through a framing. */
function seen(direction: Vector3, aspect: number) {
  const f = frame(direction, 38, aspect);
  const cam = new PerspectiveCamera(38, aspect, 0.1, 500);
  cam.position.copy(direction).multiplyScalar(f.distance).add(f.target);
  cam.lookAt(f.target);
  applyShift(cam, f.shift);
  cam.updateMatrixWorld(true);
  let low = Infinity;
  let high = -Infinity;
  let wide = 0;
  for (const sx of [-1, 1]) {
    for (const sz of [-1, 1]) {
      const p = new Vector3((sx * BOARD_WIDTH) / 2, 0, (sz * BOARD_DEPTH) / 2).project(cam);
      low = Math.min(low, p.y);
      high = Math.max(high, p.y);
      wide = Math.max(wide, Math.abs(p.x));
    }
  }
  return { f, low, high, wide };
}

describe('camera framing', () => {
  for (const viewer of ['sente', 'gote'] as const) {
    for (const aspect of [4 / 3, 0.7]) {
      it(`keeps the whole board in view and centred (${viewer}, aspect ${aspect.toFixed(2)})`, () => {
        const { f, low, high, wide } = seen(directionOf(POLAR.diagonal, azimuthOf(viewer)), aspect);
        expect(high).toBeLessThanOrEqual(0.92 + 1e-6);
        expect(low).toBeGreaterThanOrEqual(-0.92 - 1e-6);
        expect(wide).toBeLessThanOrEqual(0.92 + 1e-6);
        // Filled: one of the limits is reached.
        expect(Math.max(high, -low, wide)).toBeGreaterThan(0.85);
        // The camera turns around the board's centre; the picture is shifted down to centre the
        // board, whose near half looks larger.
        expect(f.target.length()).toBe(0);
        expect(f.shift).toBeLessThan(-0.05);
      });
    }
  }

  it('looks straight down at the board centre in the top view', () => {
    const { f, low, high } = seen(directionOf(POLAR.top, 0), 4 / 3);
    expect(f.target.length()).toBe(0);
    expect(high + low).toBeCloseTo(0, 2);
  });

  it('keeps the board in view when the camera is turned a quarter round', () => {
    const f = frame(directionOf(POLAR.diagonal, 0), 38, 4 / 3);
    const cam = new PerspectiveCamera(38, 4 / 3, 0.1, 500);
    cam.position.copy(directionOf(POLAR.diagonal, Math.PI / 2)).multiplyScalar(f.distance).add(f.target);
    cam.lookAt(f.target);
    applyShift(cam, f.shift);
    cam.updateMatrixWorld(true);
    let wide = 0;
    for (const sx of [-1, 1]) {
      for (const sz of [-1, 1]) {
        const p = new Vector3((sx * BOARD_WIDTH) / 2, 0, (sz * BOARD_DEPTH) / 2).project(cam);
        wide = Math.max(wide, Math.abs(p.x));
      }
    }
    // Seen from the side the long board runs across the picture, about as wide as it was tall.
    expect(wide).toBeLessThan(1.1);
  });
});

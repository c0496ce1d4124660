/** Camera presets: where the diagonal and top views sit for each viewer, fitted to the canvas. */
import { PerspectiveCamera, Vector3 } from 'three';
import { BOARD_DEPTH, BOARD_WIDTH, RIVER } from './layout';
import { PIECE } from './pieces';
import type { Side, ViewMode } from './types';

/** Polar angle (from straight up) of each preset. */
export const POLAR: Record<ViewMode, number> = {
  diagonal: 0.8,
  top: 0.0005,
};

/**
 * The diagonal view's polar angle on a frame no wider than tall (a phone held upright), steeper
 * than `POLAR.diagonal`: from the lower angle the far rows were about 31 × 19 px squares on a
 * 390 px screen, half hidden by the pieces standing in front, and a tap meant for one landed on
 * the piece before it.
 */
export const NARROW_DIAGONAL_POLAR = 0.6;

/** Polar angle of `view`'s preset on a frame of `aspect` (width / height). */
export function presetPolar(view: ViewMode, aspect: number): number {
  return view === 'diagonal' && aspect <= 1.05 ? NARROW_DIAGONAL_POLAR : POLAR[view];
}

/** Highest the user may orbit the camera in the diagonal view (radians from straight up). */
export const MIN_DIAGONAL_POLAR = 0.3;

/** Lowest the user may orbit the camera (radians from straight up). */
export const MAX_POLAR = 1.25;

/** Azimuth that puts the camera on the viewer's side of the table. */
export function azimuthOf(viewer: Side): number {
  return viewer === 'sente' ? 0 : Math.PI;
}

/** Unit vector from the board centre toward the camera. */
export function directionOf(polar: number, azimuth: number): Vector3 {
  return new Vector3(
    Math.sin(polar) * Math.sin(azimuth),
    Math.cos(polar),
    Math.sin(polar) * Math.cos(azimuth),
  );
}

/** Points that must stay on screen: the board's corners and the tops of the outer pieces. */
function keyPoints(): Vector3[] {
  const points: Vector3[] = [];
  const w = BOARD_WIDTH / 2;
  const d = BOARD_DEPTH / 2;
  const pw = 3;
  const pd = 4 + RIVER / 2;
  for (const sx of [-1, 1]) {
    for (const sz of [-1, 1]) {
      points.push(new Vector3(sx * w, 0, sz * d));
      points.push(new Vector3(sx * pw, PIECE.height, sz * pd));
    }
  }
  return points;
}

const POINTS = keyPoints();

/** Where a preset puts the camera, and how its picture is shifted. */
export interface Framing {
  /** From the target. */
  distance: number;
  /** The point the camera looks at and turns around: the board's centre. */
  target: Vector3;
  /**
   * Where the middle of the board's picture falls (NDC, +1 the top edge) when the camera looks at
   * the target. The picture is shifted by it (`applyShift`) so the board sits centred: under
   * perspective the near half looks larger, so the middle falls below the screen's.
   */
  shift: number;
}

/**
 * The tightest framing from `direction` (unit vector from target to camera): every key point
 * inside the view with a margin once the picture is shifted to centre the board vertically. The
 * camera keeps looking at the board's centre, so turning it keeps the board in view.
 */
export function frame(direction: Vector3, fov: number, aspect: number, margin = 0.92): Framing {
  const probe = new PerspectiveCamera(fov, aspect, 0.1, 500);
  const ndc = new Vector3();
  const target = new Vector3();
  const extent = (distance: number): { fits: boolean; low: number; high: number } => {
    probe.position.copy(direction).multiplyScalar(distance);
    probe.up.set(0, 1, 0);
    probe.lookAt(target);
    probe.updateMatrixWorld(true);
    let low = Infinity;
    let high = -Infinity;
    let fits = true;
    for (const p of POINTS) {
      ndc.copy(p).project(probe);
      if (ndc.z > 1 || Math.abs(ndc.x) > margin) fits = false;
      low = Math.min(low, ndc.y);
      high = Math.max(high, ndc.y);
    }
    return { fits: fits && high - low <= 2 * margin, low, high };
  };
  let lo = 2;
  let hi = 200;
  for (let i = 0; i < 32; i++) {
    const mid = (lo + hi) / 2;
    if (extent(mid).fits) hi = mid;
    else lo = mid;
  }
  const { low, high } = extent(hi);
  return { distance: hi, target, shift: (high + low) / 2 };
}

/** Shifts `camera`'s picture so that a point at NDC height `shift` comes to the middle. */
export function applyShift(camera: PerspectiveCamera, shift: number): void {
  const aspect = camera.aspect;
  camera.setViewOffset(aspect, 1, 0, -shift / 2, aspect, 1);
}

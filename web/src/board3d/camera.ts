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

/** Where a preset puts the camera: its distance from the target, and the target. */
export interface Framing {
  distance: number;
  target: Vector3;
}

/**
 * The tightest framing from `direction` (unit vector from target to camera): every key point
 * inside the view with a margin, and the board centred vertically on screen (under perspective
 * the near half looks larger, so the target moves toward the camera along the board).
 */
export function frame(direction: Vector3, fov: number, aspect: number, margin = 0.92): Framing {
  const probe = new PerspectiveCamera(fov, aspect, 0.1, 500);
  const ndc = new Vector3();
  const target = new Vector3();
  // Unit vector along the board toward the camera's side (none when looking straight down).
  const along = new Vector3(direction.x, 0, direction.z);
  const flat = along.length() < 0.05;
  if (!flat) along.normalize();
  const aim = (distance: number): void => {
    probe.position.copy(direction).multiplyScalar(distance).add(target);
    probe.up.set(0, 1, 0);
    probe.lookAt(target);
    probe.updateMatrixWorld(true);
  };
  const extent = (distance: number): { fits: boolean; low: number; high: number } => {
    aim(distance);
    let low = Infinity;
    let high = -Infinity;
    let fits = true;
    for (const p of POINTS) {
      ndc.copy(p).project(probe);
      if (ndc.z > 1 || Math.abs(ndc.x) > margin || Math.abs(ndc.y) > margin) fits = false;
      low = Math.min(low, ndc.y);
      high = Math.max(high, ndc.y);
    }
    return { fits, low, high };
  };
  const fitAt = (): number => {
    let lo = 2;
    let hi = 200;
    for (let i = 0; i < 32; i++) {
      const mid = (lo + hi) / 2;
      if (extent(mid).fits) hi = mid;
      else lo = mid;
    }
    return hi;
  };
  if (flat) return { distance: fitAt(), target };
  // Slide the target until the empty space above and below the board is equal.
  let lo = -2;
  let hi = 2;
  for (let i = 0; i < 16; i++) {
    const shift = (lo + hi) / 2;
    target.copy(along).multiplyScalar(shift);
    const e = extent(fitAt());
    // Aiming nearer the camera lifts the board on screen.
    if (e.high + e.low > 0) hi = shift;
    else lo = shift;
  }
  target.copy(along).multiplyScalar((lo + hi) / 2);
  return { distance: fitAt(), target };
}

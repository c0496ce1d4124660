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

/**
 * Distance from the board centre at which every key point fits inside the view with a margin,
 * looking from `direction`.
 */
export function fitDistance(direction: Vector3, fov: number, aspect: number, margin = 0.95): number {
  const probe = new PerspectiveCamera(fov, aspect, 0.1, 500);
  const ndc = new Vector3();
  const fits = (distance: number): boolean => {
    probe.position.copy(direction).multiplyScalar(distance);
    probe.up.set(0, 1, 0);
    probe.lookAt(0, 0, 0);
    probe.updateMatrixWorld(true);
    for (const p of POINTS) {
      ndc.copy(p).project(probe);
      if (ndc.z > 1 || Math.abs(ndc.x) > margin || Math.abs(ndc.y) > margin) return false;
    }
    return true;
  };
  let lo = 2;
  let hi = 200;
  for (let i = 0; i < 40; i++) {
    const mid = (lo + hi) / 2;
    if (fits(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

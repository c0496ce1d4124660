import { describe, expect, it } from 'vitest';
import { Vector3 } from 'three';
import { bevelledPrism, frameGeometry } from './geometry';

const PENTAGON = [
  [-0.36, 0],
  [0.36, 0],
  [0.32, 0.72],
  [0, 0.88],
  [-0.32, 0.72],
] as const;

describe('hand-built geometry', () => {
  it('builds a closed prism whose faces all point outward', () => {
    const g = bevelledPrism(PENTAGON, 0.25, 0.03);
    const pos = g.getAttribute('position');
    const nor = g.getAttribute('normal');
    // 2 caps × 3 triangles + 5 edges × (side + 2 bevels) × 2 triangles.
    expect(pos.count).toBe((2 * 3 + 5 * 3 * 2) * 3);
    const centre = new Vector3(0, 0.35, 0);
    for (let t = 0; t < pos.count; t += 3) {
      const a = new Vector3().fromBufferAttribute(pos, t);
      const b = new Vector3().fromBufferAttribute(pos, t + 1);
      const c = new Vector3().fromBufferAttribute(pos, t + 2);
      const n = new Vector3().fromBufferAttribute(nor, t);
      const winding = b.clone().sub(a).cross(c.clone().sub(a)).normalize();
      expect(winding.dot(n)).toBeGreaterThan(0.99);
      const mid = a.add(b).add(c).divideScalar(3);
      expect(mid.sub(centre).dot(n)).toBeGreaterThan(0);
    }
    g.computeBoundingBox();
    const box = g.boundingBox;
    expect(box?.min.z).toBeCloseTo(-0.125);
    expect(box?.max.z).toBeCloseTo(0.125);
    expect(box?.max.y).toBeCloseTo(0.88);
    expect(g.groups.map((x) => x.materialIndex)).toEqual([0, 1]);
    expect(g.groups[0]?.count).toBe(2 * 3 * 3);
  });

  it('builds a frame with a hole and no overlapping bands', () => {
    const g = frameGeometry(1, 1, 0.1, 0.2);
    const pos = g.getAttribute('position');
    let area = 0;
    for (let t = 0; t < pos.count; t += 3) {
      const a = new Vector3().fromBufferAttribute(pos, t);
      const b = new Vector3().fromBufferAttribute(pos, t + 1);
      const c = new Vector3().fromBufferAttribute(pos, t + 2);
      area += b.sub(a).cross(c.sub(a)).z / 2;
    }
    // Outer 0.8 × 0.8 minus inner 0.6 × 0.6, all facing +z.
    expect(area).toBeCloseTo(0.64 - 0.36);
  });
});

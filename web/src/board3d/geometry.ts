/**
 * Hand-built geometry for the pieces and the highlight frames: a few dozen triangles each, and
 * far less of three.js to ship than its shape and extrusion machinery.
 */
import { BufferGeometry, Float32BufferAttribute } from 'three';

type Vec2 = readonly [number, number];
type Vec3 = readonly [number, number, number];

/** The polygon moved inward by `d` along every edge (convex, counter-clockwise). */
function inset(polygon: readonly Vec2[], d: number): Vec2[] {
  const n = polygon.length;
  const at = (i: number): Vec2 => polygon[((i % n) + n) % n] as Vec2;
  const inward = (a: Vec2, b: Vec2): Vec2 => {
    const dx = b[0] - a[0];
    const dy = b[1] - a[1];
    const len = Math.hypot(dx, dy) || 1;
    return [-dy / len, dx / len];
  };
  return polygon.map((p, i) => {
    const n1 = inward(at(i - 1), p);
    const n2 = inward(p, at(i + 1));
    const k = d / (1 + n1[0] * n2[0] + n1[1] * n2[1]);
    return [p[0] + (n1[0] + n2[0]) * k, p[1] + (n1[1] + n2[1]) * k];
  });
}

class TriangleSoup {
  readonly positions: number[] = [];
  readonly normals: number[] = [];
  readonly uvs: number[] = [];

  get count(): number {
    return this.positions.length / 3;
  }

  /** A flat triangle; its winding is flipped if needed so the normal points along `outward`. */
  triangle(a: Vec3, b: Vec3, c: Vec3, uv: [Vec2, Vec2, Vec2], outward: Vec3): void {
    const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    const v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    let nx = (u[1] ?? 0) * (v[2] ?? 0) - (u[2] ?? 0) * (v[1] ?? 0);
    let ny = (u[2] ?? 0) * (v[0] ?? 0) - (u[0] ?? 0) * (v[2] ?? 0);
    let nz = (u[0] ?? 0) * (v[1] ?? 0) - (u[1] ?? 0) * (v[0] ?? 0);
    const len = Math.hypot(nx, ny, nz) || 1;
    nx /= len;
    ny /= len;
    nz /= len;
    let order: [Vec3, Vec3, Vec3] = [a, b, c];
    let uvs = uv;
    if (nx * outward[0] + ny * outward[1] + nz * outward[2] < 0) {
      order = [a, c, b];
      uvs = [uv[0], uv[2], uv[1]];
      nx = -nx;
      ny = -ny;
      nz = -nz;
    }
    for (let i = 0; i < 3; i++) {
      this.positions.push(...order[i]!);
      this.normals.push(nx, ny, nz);
      this.uvs.push(...uvs[i]!);
    }
  }

  quad(a: Vec3, b: Vec3, c: Vec3, d: Vec3, uv: [Vec2, Vec2, Vec2, Vec2], outward: Vec3): void {
    this.triangle(a, b, c, [uv[0], uv[1], uv[2]], outward);
    this.triangle(a, c, d, [uv[0], uv[2], uv[3]], outward);
  }

  build(): BufferGeometry {
    const g = new BufferGeometry();
    g.setAttribute('position', new Float32BufferAttribute(this.positions, 3));
    g.setAttribute('normal', new Float32BufferAttribute(this.normals, 3));
    g.setAttribute('uv', new Float32BufferAttribute(this.uvs, 2));
    return g;
  }
}

/**
 * A convex polygon (x, y; counter-clockwise seen from +z) extruded to `thickness` along z,
 * centred on z = 0, with its front and back edges chamfered by `bevel`. Group 0 holds the front
 * and back faces, group 1 the chamfers and sides.
 */
export function bevelledPrism(outline: readonly Vec2[], thickness: number, bevel: number): BufferGeometry {
  const soup = new TriangleSoup();
  const inner = inset(outline, bevel);
  const half = thickness / 2;
  const edge = half - bevel;
  const xs = outline.map((p) => p[0]);
  const ys = outline.map((p) => p[1]);
  const minX = Math.min(...xs);
  const minY = Math.min(...ys);
  const w = Math.max(...xs) - minX || 1;
  const h = Math.max(...ys) - minY || 1;
  const capUv = (p: Vec2): Vec2 => [(p[0] - minX) / w, (p[1] - minY) / h];
  const cx = xs.reduce((s, x) => s + x, 0) / xs.length;
  const cy = ys.reduce((s, y) => s + y, 0) / ys.length;

  for (const side of [1, -1]) {
    const z = side * half;
    const first = inner[0]!;
    for (let i = 1; i + 1 < inner.length; i++) {
      const b = inner[i]!;
      const c = inner[i + 1]!;
      soup.triangle([first[0], first[1], z], [b[0], b[1], z], [c[0], c[1], z], [capUv(first), capUv(b), capUv(c)], [0, 0, side]);
    }
  }
  const caps = soup.count;

  let perimeter = 0;
  const along: number[] = [0];
  for (let i = 0; i < outline.length; i++) {
    const a = outline[i]!;
    const b = outline[(i + 1) % outline.length]!;
    perimeter += Math.hypot(b[0] - a[0], b[1] - a[1]);
    along.push(perimeter);
  }
  for (let i = 0; i < outline.length; i++) {
    const j = (i + 1) % outline.length;
    const a = outline[i]!;
    const b = outline[j]!;
    const ia = inner[i]!;
    const ib = inner[j]!;
    const out: Vec3 = [(a[0] + b[0]) / 2 - cx, (a[1] + b[1]) / 2 - cy, 0];
    const u0 = along[i]! / perimeter;
    const u1 = along[i + 1]! / perimeter;
    const v = (z: number): number => (z + half) / thickness;
    soup.quad(
      [a[0], a[1], edge],
      [b[0], b[1], edge],
      [b[0], b[1], -edge],
      [a[0], a[1], -edge],
      [[u0, v(edge)], [u1, v(edge)], [u1, v(-edge)], [u0, v(-edge)]],
      out,
    );
    for (const side of [1, -1]) {
      soup.quad(
        [a[0], a[1], side * edge],
        [b[0], b[1], side * edge],
        [ib[0], ib[1], side * half],
        [ia[0], ia[1], side * half],
        [[u0, v(side * edge)], [u1, v(side * edge)], [u1, v(side * half)], [u0, v(side * half)]],
        [out[0], out[1], side * 0.5],
      );
    }
  }
  const geometry = soup.build();
  geometry.addGroup(0, caps, 0);
  geometry.addGroup(caps, soup.count - caps, 1);
  return geometry;
}

/**
 * A flat rectangular frame in the xy plane facing +z: outer size `width` × `depth` shrunk by
 * `outer` on every side, band `inner − outer` wide.
 */
export function frameGeometry(width: number, depth: number, outer: number, inner: number): BufferGeometry {
  const soup = new TriangleSoup();
  const x0 = -width / 2 + outer;
  const x1 = width / 2 - outer;
  const y0 = -depth / 2 + outer;
  const y1 = depth / 2 - outer;
  const t = inner - outer;
  const rect = (ax: number, ay: number, bx: number, by: number): void =>
    soup.quad([ax, ay, 0], [bx, ay, 0], [bx, by, 0], [ax, by, 0], [[0, 0], [1, 0], [1, 1], [0, 1]], [0, 0, 1]);
  rect(x0, y0, x1, y0 + t);
  rect(x0, y1 - t, x1, y1);
  rect(x0, y0 + t, x0 + t, y1 - t);
  rect(x1 - t, y0 + t, x1, y1 - t);
  return soup.build();
}

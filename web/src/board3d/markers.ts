/**
 * Highlights drawn on the board face: yellow frame on the picked piece, green dots on squares it
 * may move to, red frames on squares it may attack, orange frames on the last move's squares.
 * The pieces on those squares show the highlight too (`PieceObject.setTint`). The green dots are
 * drawn over the pieces: a destination just behind a standing piece shows (and is picked) through it.
 */
import { type BufferGeometry, CircleGeometry, Group, Mesh, MeshBasicMaterial } from 'three';
import { frameGeometry } from './geometry';
import { CELL, cellOf } from './layout';

/** Highlight colours (the browser tests' pixel checks look for these hues). */
export const MARKER_COLORS = {
  selected: '#ffd400',
  move: '#1fbf4a',
  attack: '#e5202e',
  last: '#ff8a00',
} as const;

type FrameKind = 'selected' | 'attack' | 'last';

/** Draw order of the green dots: after the pieces, so no piece in front hides one. */
const MOVE_DOT_ORDER = 5;

/** Inner and outer inset of each frame kind, so frames on one square do not overlap. */
const FRAME_INSETS: Record<FrameKind, [number, number]> = {
  last: [0.015, 0.075],
  selected: [0.085, 0.165],
  attack: [0.085, 0.165],
};

export class Markers {
  readonly root = new Group();
  private readonly geometries = new Map<string, BufferGeometry>();
  private readonly materials: Record<FrameKind | 'move', MeshBasicMaterial>;
  private readonly dot = new CircleGeometry(0.13, 32);
  private dots: Mesh[] = [];

  constructor() {
    this.root.name = 'markers';
    const basic = (color: string): MeshBasicMaterial =>
      new MeshBasicMaterial({
        color,
        polygonOffset: true,
        polygonOffsetFactor: -4,
        polygonOffsetUnits: -4,
      });
    this.materials = {
      selected: basic(MARKER_COLORS.selected),
      // No depth test: a destination behind a standing piece shows through it (see `moveDots`).
      move: new MeshBasicMaterial({ color: MARKER_COLORS.move, depthTest: false, depthWrite: false }),
      attack: basic(MARKER_COLORS.attack),
      last: basic(MARKER_COLORS.last),
    };
  }

  private frame(kind: FrameKind, width: number): BufferGeometry {
    const key = `${kind}:${width}`;
    let g = this.geometries.get(key);
    if (!g) {
      const [outer, inner] = FRAME_INSETS[kind];
      g = frameGeometry(width, CELL, outer, inner);
      this.geometries.set(key, g);
    }
    return g;
  }

  /** Replaces every highlight. Unknown square names are skipped. */
  set(
    selected: string | undefined,
    moves: readonly string[],
    attacks: readonly string[],
    last: { from: string; to: string } | undefined,
  ): void {
    this.root.clear();
    this.dots = [];
    const addFrame = (kind: FrameKind, square: string, lift: number): void => {
      const cell = cellOf(square);
      if (!cell) return;
      const mesh = new Mesh(this.frame(kind, cell.width), this.materials[kind]);
      mesh.rotation.x = -Math.PI / 2;
      mesh.position.set(cell.x, lift, cell.z);
      mesh.name = `${kind}-${cell.name}`;
      this.root.add(mesh);
    };
    if (last) {
      addFrame('last', last.from, 0.004);
      addFrame('last', last.to, 0.004);
    }
    for (const square of attacks) addFrame('attack', square, 0.005);
    if (selected) addFrame('selected', selected, 0.006);
    for (const square of moves) {
      const cell = cellOf(square);
      if (!cell) continue;
      const mesh = new Mesh(this.dot, this.materials.move);
      mesh.rotation.x = -Math.PI / 2;
      mesh.position.set(cell.x, 0.005, cell.z);
      mesh.name = `move-${cell.name}`;
      mesh.renderOrder = MOVE_DOT_ORDER;
      mesh.userData.square = cell.name;
      this.root.add(mesh);
      this.dots.push(mesh);
    }
  }

  /**
   * The green dots, each with its square's name in `userData.square`. They are drawn over
   * everything on the board, so a click on one picks its square even where a piece stands in
   * front of it.
   */
  moveDots(): Mesh[] {
    return this.dots.slice();
  }

  /** One mesh of each highlight's material, for the renderer to build their shaders ahead. */
  samples(): Mesh[] {
    return Object.values(this.materials).map((m) => new Mesh(this.dot, m));
  }

  dispose(): void {
    this.root.clear();
    this.dots = [];
    this.geometries.forEach((g) => g.dispose());
    this.dot.dispose();
    Object.values(this.materials).forEach((m) => m.dispose());
  }
}

/**
 * Pieces as standing wooden blocks shaped like shogi pieces. Each piece's face is turned toward
 * its owner and carries the name the page passes; a piece without a name (a hidden enemy) is
 * plain wood on both sides.
 */
import {
  type BufferGeometry,
  Color,
  Group,
  Mesh,
  MeshStandardMaterial,
  PlaneGeometry,
  type Texture,
} from 'three';
import { bevelledPrism } from './geometry';
import { MARKER_COLORS } from './markers';
import type { Side } from './types';
import { grainTexture, labelTexture, LABEL_PX } from './textures';

/** Piece dimensions in world units. */
export const PIECE = {
  /** Height of a standing piece. */
  height: 0.88,
  /** Thickness front to back, bevels included. */
  thickness: 0.25,
} as const;

const BEVEL = 0.03;
const FACE_Z = PIECE.thickness / 2;
/** The piece's outline seen from the front: a shogi-like pentagon standing on its base. */
const OUTLINE: readonly (readonly [number, number])[] = [
  [-0.36, 0],
  [0.36, 0],
  [0.32, 0.72],
  [0, 0.88],
  [-0.32, 0.72],
];
const LABEL_W = 0.52;
const LABEL_H = (LABEL_W * LABEL_PX.height) / LABEL_PX.width;
const LABEL_Y = 0.38;

/** The highlights a piece itself can show. */
export type PieceTint = 'selected' | 'attack' | 'last';

/**
 * How each highlight colours a piece: `mix` moves the wood's colour towards the highlight's,
 * `glow` adds light, of the highlight's colour or (`own`) of the wood's own. A red target must
 * read as red on the pale wood too, where a glow alone only pales it, but keep enough of its own
 * wood not to pass for one of the player's own vermilion pieces (as two thirds of red made it).
 * The piece of the last move only lights up in its own colour: orange would wash the vermilion
 * out towards the plain wood, and whose piece it is matters more than the move.
 */
const TINTS: Record<PieceTint, { mix: number; glow: number; own?: true }> = {
  selected: { mix: 0.5, glow: 0.35 },
  attack: { mix: 0.35, glow: 0.35 },
  last: { mix: 0, glow: 0.4, own: true },
};

/** Colours of the two sides (the browser tests' pixel checks look for these hues). */
export const PIECE_COLORS = {
  sente: '#d0452b',
  senteSide: '#b23a24',
  gote: '#efd6a2',
  goteSide: '#d9bb84',
  senteInk: '#fff3df',
  goteInk: '#1d140b',
} as const;

/** Geometry, materials and label textures shared by every piece of one board. */
export class PieceKit {
  readonly geometry: BufferGeometry;
  readonly labelGeometry = new PlaneGeometry(LABEL_W, LABEL_H);
  private readonly grain: Texture;
  private readonly materials: Record<Side, [MeshStandardMaterial, MeshStandardMaterial]>;
  private readonly labels = new Map<string, MeshStandardMaterial>();
  private readonly tinted = new Map<string, [MeshStandardMaterial, MeshStandardMaterial]>();

  constructor(
    private readonly anisotropy: number,
    private lang: string,
  ) {
    this.geometry = bevelledPrism(OUTLINE, PIECE.thickness, BEVEL);
    this.grain = grainTexture(anisotropy, 29);
    const wood = (color: string, roughness: number): MeshStandardMaterial =>
      new MeshStandardMaterial({ color, map: this.grain, roughness, metalness: 0 });
    this.materials = {
      sente: [wood(PIECE_COLORS.sente, 0.45), wood(PIECE_COLORS.senteSide, 0.5)],
      gote: [wood(PIECE_COLORS.gote, 0.7), wood(PIECE_COLORS.goteSide, 0.75)],
    };
  }

  /** Face and side materials of a side's pieces. */
  woodOf(side: Side): [MeshStandardMaterial, MeshStandardMaterial] {
    return this.materials[side];
  }

  /**
   * A side's wood glowing in a highlight's colour. The highlights' frames lie on the board, where
   * the pieces standing on and in front of a square hide most of them: the piece itself shows it.
   */
  tintedWoodOf(side: Side, tint: PieceTint): [MeshStandardMaterial, MeshStandardMaterial] {
    const key = `${side}:${tint}`;
    let pair = this.tinted.get(key);
    if (!pair) {
      pair = this.materials[side].map((m) => {
        const glowing = m.clone();
        const colour = new Color(MARKER_COLORS[tint]);
        glowing.color.lerp(colour, TINTS[tint].mix);
        glowing.emissive.copy(TINTS[tint].own ? m.color : colour);
        glowing.emissiveIntensity = TINTS[tint].glow;
        return glowing;
      }) as [MeshStandardMaterial, MeshStandardMaterial];
      this.tinted.set(key, pair);
    }
    return pair;
  }

  /** Language of the names: changing it repaints names as they are next asked for. */
  setLang(lang: string): void {
    if (lang === this.lang) return;
    this.lang = lang;
    this.clearLabels();
  }

  /** The ink-on-transparent material that writes `label` in the ink of `side`'s pieces. */
  labelMaterial(label: string, side: Side): MeshStandardMaterial {
    const key = `${side}\u0000${label}`;
    let material = this.labels.get(key);
    if (!material) {
      const ink = side === 'sente' ? PIECE_COLORS.senteInk : PIECE_COLORS.goteInk;
      const texture = labelTexture(label, ink, this.lang, this.anisotropy);
      material = new MeshStandardMaterial({
        map: texture,
        // A little glow of its own keeps the name legible on faces the light barely reaches.
        emissive: ink,
        emissiveMap: texture,
        emissiveIntensity: 0.35,
        transparent: true,
        depthWrite: false,
        roughness: 0.6,
        polygonOffset: true,
        polygonOffsetFactor: -2,
        polygonOffsetUnits: -2,
      });
      this.labels.set(key, material);
    }
    return material;
  }

  private clearLabels(): void {
    for (const m of this.labels.values()) {
      m.map?.dispose();
      m.dispose();
    }
    this.labels.clear();
  }

  dispose(): void {
    this.clearLabels();
    this.geometry.dispose();
    this.labelGeometry.dispose();
    this.grain.dispose();
    for (const pair of Object.values(this.materials)) pair.forEach((m) => m.dispose());
    for (const pair of this.tinted.values()) pair.forEach((m) => m.dispose());
  }
}

/** One piece in the scene. */
export class PieceObject {
  /** Placed on the square and turned so the face looks at the owner. */
  readonly holder = new Group();
  /** Standing (pose 0) or lying face up (pose 1) inside the holder. */
  readonly body = new Group();
  readonly mesh: Mesh;
  private front: Mesh | undefined;
  private back: Mesh | undefined;
  private labelText: string | undefined;
  private labelBack = false;
  private tint: PieceTint | undefined;
  /** The pose last set: 0 standing, 1 lying. */
  private poseT = 0;

  constructor(
    private readonly kit: PieceKit,
    readonly side: Side,
    public square: string,
  ) {
    this.mesh = new Mesh(kit.geometry, kit.woodOf(side));
    this.mesh.castShadow = true;
    this.mesh.receiveShadow = true;
    this.mesh.userData.piece = this;
    this.body.add(this.mesh);
    this.holder.add(this.body);
    // Sente's face looks toward +z (sente's side of the table), gote's toward −z.
    this.holder.rotation.y = side === 'sente' ? 0 : Math.PI;
    this.holder.name = `piece-${square}`;
  }

  /** The name written on the piece; `viewer` decides whether the back shows it too. */
  setLabel(label: string | undefined, viewer: Side): void {
    const onBack = label !== undefined && viewer !== this.side;
    if (label === this.labelText && onBack === this.labelBack) return;
    this.labelText = label;
    this.labelBack = onBack;
    this.removeLabels();
    // A piece named on its back lies on its front (below).
    this.setPose(this.poseT);
    if (label === undefined || label.trim() === '') return;
    const material = this.kit.labelMaterial(label, this.ink());
    this.front = new Mesh(this.kit.labelGeometry, material);
    this.front.position.set(0, LABEL_Y, FACE_Z + 0.002);
    this.body.add(this.front);
    if (onBack) {
      this.back = new Mesh(this.kit.labelGeometry, material);
      this.back.position.set(0, LABEL_Y, -FACE_Z - 0.002);
      this.back.rotation.y = Math.PI;
      this.body.add(this.back);
    }
  }

  /** Draws the current name again (after the kit dropped its textures for a new language). */
  refreshLabel(viewer: Side): void {
    const label = this.labelText;
    this.labelText = undefined;
    this.labelBack = false;
    this.removeLabels();
    this.setLabel(label, viewer);
  }

  /** Whether a name is drawn on this piece. */
  get labelled(): boolean {
    return this.front !== undefined;
  }

  private removeLabels(): void {
    if (this.front) this.body.remove(this.front);
    if (this.back) this.body.remove(this.back);
    this.front = undefined;
    this.back = undefined;
  }

  /**
   * 0: standing; 1: lying face up with its top pointing away from the owner. An enemy piece
   * whose name is written on its back for the viewer (after the game) tips the other way, so
   * that its name lies the right way up for the viewer, not upside down.
   */
  setPose(t: number): void {
    this.poseT = t;
    const half = PIECE.thickness / 2;
    const way = this.labelBack ? -1 : 1;
    this.body.rotation.x = way * (-Math.PI / 2) * t;
    this.body.position.y = half * Math.sin((t * Math.PI) / 2);
    this.body.position.z = way * (PIECE.height / 2) * t;
  }

  /** Shows a highlight on the piece itself (undefined: plain wood). */
  setTint(tint: PieceTint | undefined): void {
    const ink = this.ink();
    this.tint = tint;
    this.mesh.material = tint === undefined ? this.kit.woodOf(this.side) : this.kit.tintedWoodOf(this.side, tint);
    if (ink === this.ink() || this.labelText === undefined) return;
    const material = this.kit.labelMaterial(this.labelText, this.ink());
    if (this.front) this.front.material = material;
    if (this.back) this.back.material = material;
  }

  /**
   * Whose ink the name is written in: the piece's own, but dark on the picked piece, whose wood
   * turns yellow and would swallow sente's pale ink.
   */
  private ink(): Side {
    return this.tint === 'selected' ? 'gote' : this.side;
  }

  /** Moves the piece to a world point of the board. */
  placeAt(x: number, z: number, y = 0): void {
    this.holder.position.set(x, y, z);
  }

  /** Size factor, used when a removed piece shrinks away. */
  setScale(s: number): void {
    this.holder.scale.setScalar(Math.max(s, 0.0001));
  }

  /** Leaves the scene; shared geometry and materials stay with the kit. */
  detach(): void {
    this.removeLabels();
    this.holder.removeFromParent();
  }
}

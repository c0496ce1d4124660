/** The fixed scenery: the board slab with its painted face, the two bridges and the table. */
import {
  BoxGeometry,
  type BufferGeometry,
  Group,
  type Material,
  Mesh,
  MeshStandardMaterial,
  PlaneGeometry,
  type Texture,
} from 'three';
import { BOARD_DEPTH, BOARD_WIDTH, RIVER, columnX } from './layout';
import { boardFaceTexture, grainTexture } from './textures';

/** Thickness of the board slab below its face (y = 0). */
export const SLAB = 0.42;

/** The built scenery and what it owns. */
export interface Scenery {
  root: Group;
  /** The board face, for picking squares. */
  face: Mesh;
  dispose(): void;
}

export function buildScenery(anisotropy: number): Scenery {
  const geometries: BufferGeometry[] = [];
  const materials: Material[] = [];
  const textures: Texture[] = [];
  const keep = <T extends BufferGeometry>(g: T): T => (geometries.push(g), g);
  const keepM = <T extends Material>(m: T): T => (materials.push(m), m);

  const root = new Group();
  root.name = 'scenery';

  const faceTexture = boardFaceTexture(anisotropy);
  const grain = grainTexture(anisotropy, 11);
  textures.push(faceTexture, grain);

  const face = new Mesh(
    keep(new PlaneGeometry(BOARD_WIDTH, BOARD_DEPTH)),
    keepM(new MeshStandardMaterial({ map: faceTexture, roughness: 0.78, metalness: 0 })),
  );
  face.rotation.x = -Math.PI / 2;
  face.position.y = 0.001;
  face.receiveShadow = true;
  face.name = 'board-face';
  root.add(face);

  const slab = new Mesh(
    keep(new BoxGeometry(BOARD_WIDTH, SLAB, BOARD_DEPTH)),
    keepM(new MeshStandardMaterial({ color: '#b57a3a', map: grain, roughness: 0.7 })),
  );
  slab.position.y = -SLAB / 2;
  slab.castShadow = true;
  slab.receiveShadow = true;
  root.add(slab);

  const table = new Mesh(
    keep(new PlaneGeometry(80, 80)),
    keepM(new MeshStandardMaterial({ color: '#3a302a', roughness: 0.95 })),
  );
  table.rotation.x = -Math.PI / 2;
  table.position.y = -SLAB;
  table.receiveShadow = true;
  root.add(table);

  const bridgeWood = keepM(new MeshStandardMaterial({ color: '#7c4b22', map: grain, roughness: 0.6 }));
  const span = RIVER + 0.28;
  const deck = keep(new BoxGeometry(0.66, 0.05, span));
  const rail = keep(new BoxGeometry(0.05, 0.05, span));
  const post = keep(new BoxGeometry(0.08, 0.16, 0.08));
  for (const column of [1, 4]) {
    const bridge = new Group();
    bridge.name = `bridge-${column === 1 ? 'b' : 'e'}`;
    bridge.position.x = columnX(column);
    const d = new Mesh(deck, bridgeWood);
    d.position.y = 0.025;
    d.castShadow = true;
    d.receiveShadow = true;
    bridge.add(d);
    for (const side of [-1, 1]) {
      const r = new Mesh(rail, bridgeWood);
      r.position.set(side * 0.3, 0.13, 0);
      r.castShadow = true;
      bridge.add(r);
      for (const end of [-1, 1]) {
        const p = new Mesh(post, bridgeWood);
        p.position.set(side * 0.3, 0.08, (end * span) / 2 - end * 0.04);
        p.castShadow = true;
        bridge.add(p);
      }
    }
    root.add(bridge);
  }

  return {
    root,
    face,
    dispose() {
      geometries.forEach((g) => g.dispose());
      materials.forEach((m) => m.dispose());
      textures.forEach((t) => t.dispose());
    },
  };
}

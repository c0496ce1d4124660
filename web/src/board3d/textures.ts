/**
 * Textures painted at run time on 2D canvases: the board's face (wood, lines, river, the marked
 * headquarters and entrances), wood grain for the pieces, and the piece names. Nothing is
 * downloaded; text uses the fonts the system already has.
 */
import { CanvasTexture, LinearMipmapLinearFilter, SRGBColorSpace } from 'three';
import { BOARD_DEPTH, BOARD_WIDTH, CELL, CELLS, MARGIN, RIVER, columnX, rowZ } from './layout';

/** A small deterministic generator, so every run paints the same wood. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

function canvas2d(width: number, height: number): [HTMLCanvasElement, CanvasRenderingContext2D] {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('2D canvas unavailable');
  return [canvas, ctx];
}

function toTexture(canvas: HTMLCanvasElement, anisotropy: number): CanvasTexture {
  const texture = new CanvasTexture(canvas);
  texture.colorSpace = SRGBColorSpace;
  texture.minFilter = LinearMipmapLinearFilter;
  texture.anisotropy = anisotropy;
  return texture;
}

/** Long wavy grain lines across a rectangle of the canvas. */
function paintGrain(
  ctx: CanvasRenderingContext2D,
  width: number,
  height: number,
  rand: () => number,
  lines: number,
  dark: string,
): void {
  ctx.save();
  ctx.strokeStyle = dark;
  for (let i = 0; i < lines; i++) {
    const x0 = rand() * width;
    const amplitude = 2 + rand() * 6;
    const period = 120 + rand() * 260;
    const phase = rand() * Math.PI * 2;
    ctx.globalAlpha = 0.05 + rand() * 0.12;
    ctx.lineWidth = 0.6 + rand() * 2.2;
    ctx.beginPath();
    for (let y = 0; y <= height; y += 8) {
      const x = x0 + amplitude * Math.sin(y / period * Math.PI * 2 + phase);
      if (y === 0) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    }
    ctx.stroke();
  }
  ctx.restore();
}

/** Colours of the board face (the browser tests' pixel checks look for these hues). */
export const BOARD_COLORS = {
  wood: '#dcae68',
  woodDark: '#8a5a26',
  ink: '#2b1d10',
  riverDeep: '#2d6f9f',
  riverLight: '#4d95c4',
  entrance: 'rgba(160, 40, 20, 0.16)',
  hq: 'rgba(120, 70, 20, 0.14)',
} as const;

/** Pixels per world unit on the board face. */
const BOARD_PX = 176;

/**
 * Column letters and row numbers in the margin, as the move record and the battle reports name
 * squares: upright for sente along its own edge and on its left, turned round for gote along the
 * far edge and on the right (gote's left).
 */
function paintCoordinates(ctx: CanvasRenderingContext2D, px: (x: number) => number, pz: (z: number) => number): void {
  ctx.save();
  ctx.fillStyle = 'rgba(43, 29, 16, 0.6)';
  ctx.font = `600 ${Math.round(0.26 * BOARD_PX)}px system-ui, sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  const size = Math.round(0.26 * BOARD_PX);
  const label = (text: string, x: number, z: number, turned: boolean): void => {
    ctx.save();
    ctx.translate(px(x), pz(z));
    if (turned) ctx.rotate(Math.PI);
    ctx.fillText(text, 0, 0);
    // Read from the other side, a turned 6 is a 9: underlined, as on cards and dice, each says
    // which way up it stands.
    if (text === '6' || text === '9') ctx.fillRect(-size * 0.22, size * 0.42, size * 0.44, size * 0.07);
    ctx.restore();
  };
  const inset = MARGIN / 2;
  ['a', 'b', 'c', 'd', 'e', 'f'].forEach((name, column) => {
    label(name, columnX(column), BOARD_DEPTH / 2 - inset, false);
    label(name, columnX(column), -BOARD_DEPTH / 2 + inset, true);
  });
  for (let row = 1; row <= 8; row++) {
    label(String(row), -BOARD_WIDTH / 2 + inset, rowZ(row), false);
    label(String(row), BOARD_WIDTH / 2 - inset, rowZ(row), true);
  }
  ctx.restore();
}

/** The board's top face: wood, square lines, river, headquarters and entrance marks, coordinates. */
export function boardFaceTexture(anisotropy: number): CanvasTexture {
  const width = Math.round(BOARD_WIDTH * BOARD_PX);
  const height = Math.round(BOARD_DEPTH * BOARD_PX);
  const [canvas, ctx] = canvas2d(width, height);
  const rand = seeded(7);
  // World (x, z) → canvas: left edge is column a, top edge is gote's side (row 8).
  const px = (x: number): number => (x + BOARD_WIDTH / 2) * BOARD_PX;
  const pz = (z: number): number => (z + BOARD_DEPTH / 2) * BOARD_PX;

  const base = ctx.createLinearGradient(0, 0, width, height);
  base.addColorStop(0, '#e2b571');
  base.addColorStop(0.5, BOARD_COLORS.wood);
  base.addColorStop(1, '#d4a45d');
  ctx.fillStyle = base;
  ctx.fillRect(0, 0, width, height);
  paintGrain(ctx, width, height, rand, 140, BOARD_COLORS.woodDark);

  // River.
  const top = pz(-RIVER / 2);
  const bottom = pz(RIVER / 2);
  const water = ctx.createLinearGradient(0, top, 0, bottom);
  water.addColorStop(0, BOARD_COLORS.riverDeep);
  water.addColorStop(0.5, BOARD_COLORS.riverLight);
  water.addColorStop(1, BOARD_COLORS.riverDeep);
  ctx.fillStyle = water;
  ctx.fillRect(0, top, width, bottom - top);
  ctx.save();
  ctx.strokeStyle = 'rgba(255,255,255,0.35)';
  ctx.lineWidth = 3;
  for (let i = 0; i < 26; i++) {
    const y = top + (0.2 + rand() * 0.6) * (bottom - top);
    const x = rand() * width;
    const len = 30 + rand() * 60;
    ctx.beginPath();
    ctx.moveTo(x, y);
    ctx.quadraticCurveTo(x + len / 2, y - 6, x + len, y);
    ctx.stroke();
  }
  ctx.restore();

  // Tints for the headquarters and entrances, then the ink lines.
  for (const cell of CELLS.values()) {
    const x0 = px(cell.x - cell.width / 2);
    const z0 = pz(cell.z - CELL / 2);
    const w = cell.width * BOARD_PX;
    const h = CELL * BOARD_PX;
    if (cell.hq || cell.entrance) {
      ctx.fillStyle = cell.hq ? BOARD_COLORS.hq : BOARD_COLORS.entrance;
      ctx.fillRect(x0, z0, w, h);
    }
    ctx.strokeStyle = BOARD_COLORS.ink;
    ctx.lineWidth = 0.028 * BOARD_PX;
    ctx.strokeRect(x0, z0, w, h);
    if (cell.hq || cell.entrance) {
      // A second, inner line marks the special squares.
      ctx.lineWidth = 0.014 * BOARD_PX;
      const d = 0.09 * BOARD_PX;
      ctx.strokeRect(x0 + d, z0 + d, w - 2 * d, h - 2 * d);
    }
    if (cell.hq) paintStar(ctx, px(cell.x), pz(cell.z), 0.2 * BOARD_PX);
    if (cell.entrance) {
      // A chevron pointing at the bridge.
      const towardRiver = cell.row === 4 ? -1 : 1;
      const cx = px(cell.x);
      const edge = pz(cell.z + (towardRiver * CELL) / 2) - towardRiver * 0.3 * BOARD_PX;
      const s = 0.12 * BOARD_PX;
      ctx.fillStyle = 'rgba(150, 35, 20, 0.75)';
      ctx.beginPath();
      ctx.moveTo(cx - s, edge - towardRiver * s * 0.2);
      ctx.lineTo(cx, edge + towardRiver * s * 0.6);
      ctx.lineTo(cx + s, edge - towardRiver * s * 0.2);
      ctx.closePath();
      ctx.fill();
    }
  }
  // Outer frame of both camps.
  ctx.lineWidth = 0.05 * BOARD_PX;
  ctx.strokeStyle = BOARD_COLORS.ink;
  ctx.strokeRect(px(-3), pz(-4 - RIVER / 2), 6 * BOARD_PX, 4 * BOARD_PX);
  ctx.strokeRect(px(-3), pz(RIVER / 2), 6 * BOARD_PX, 4 * BOARD_PX);
  paintCoordinates(ctx, px, pz);
  return toTexture(canvas, anisotropy);
}

function paintStar(ctx: CanvasRenderingContext2D, cx: number, cy: number, r: number): void {
  ctx.save();
  ctx.fillStyle = 'rgba(150, 35, 20, 0.55)';
  ctx.beginPath();
  for (let i = 0; i < 10; i++) {
    const angle = -Math.PI / 2 + (i * Math.PI) / 5;
    const radius = i % 2 === 0 ? r : r * 0.42;
    const x = cx + radius * Math.cos(angle);
    const y = cy + radius * Math.sin(angle);
    if (i === 0) ctx.moveTo(x, y);
    else ctx.lineTo(x, y);
  }
  ctx.closePath();
  ctx.fill();
  ctx.restore();
}

/** A light wood grain in grey, tinted by each material's colour. */
export function grainTexture(anisotropy: number, seed: number): CanvasTexture {
  const [canvas, ctx] = canvas2d(256, 256);
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, 256, 256);
  paintGrain(ctx, 256, 256, seeded(seed), 40, '#6b5030');
  return toTexture(canvas, anisotropy);
}

/** Size in pixels of a label texture; its aspect matches the label plane on a piece. */
export const LABEL_PX = { width: 224, height: 256 } as const;

/** The narrowest a Latin name is condensed to before its font gets smaller. */
const SQUEEZE = 0.62;

const CJK = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]+$/u;

function fontStack(lang: string, cjk: boolean): string {
  const jp = '"Hiragino Mincho ProN", "Yu Mincho", "Noto Serif CJK JP", "Noto Serif JP"';
  const kr = '"Noto Serif CJK KR", "Noto Serif KR", "Nanum Myeongjo", "Batang"';
  const latin = '"Noto Sans", "Helvetica Neue", Arial, "Liberation Sans"';
  const rest = cjk ? 'serif' : 'sans-serif';
  return lang === 'ko' ? `${kr}, ${jp}, ${latin}, ${rest}` : cjk ? `${jp}, ${kr}, ${latin}, ${rest}` : `${latin}, ${jp}, ${kr}, ${rest}`;
}

/**
 * A piece name as ink on a transparent texture. Short CJK names are written vertically like on
 * shogi pieces; other names run horizontally, wrapped at spaces and shrunk to fit.
 */
export function labelTexture(
  label: string,
  ink: string,
  lang: string,
  anisotropy: number,
): CanvasTexture {
  const { width, height } = LABEL_PX;
  const [canvas, ctx] = canvas2d(width, height);
  const chars = Array.from(label.trim());
  const vertical = chars.length > 0 && chars.length <= 4 && CJK.test(label.trim());
  const fonts = fontStack(lang, vertical);
  ctx.fillStyle = ink;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  if (vertical) {
    // Three characters (飛行機, タンク, 스파이) at the size that fits their height were a third
    // smaller than the two-character names beside them, and hard to read on a phone: they keep
    // nine tenths of that size and are condensed in height instead.
    const fit = (n: number): number => Math.min(width * 0.78, (height * 0.96) / n);
    const size = chars.length <= 2 ? fit(chars.length) : fit(2) * 0.9;
    const step = height / chars.length;
    const squash = Math.min(1, (step * 0.96) / size);
    ctx.font = `700 ${Math.floor(size)}px ${fonts}`;
    chars.forEach((ch, i) => {
      ctx.save();
      ctx.translate(width / 2, step * (i + 0.5));
      ctx.scale(1, squash);
      ctx.fillText(ch, 0, 0);
      ctx.restore();
    });
  } else {
    // Long words are condensed (down to SQUEEZE of their width) before they are shrunk.
    const words = label.trim().split(/\s+/);
    const box = width * 0.96;
    const room = box / SQUEEZE;
    for (let size = 100; size >= 12; size -= 2) {
      ctx.font = `700 ${size}px ${fonts}`;
      // Two words stand on two lines ("Lt." over "Col."), each as large as a one-word name.
      const lines = words.length === 2 ? words : wrap(ctx, words, room);
      const lineHeight = size * 1.05;
      const fits =
        lines.length * lineHeight <= height * 0.92 && lines.every((l) => ctx.measureText(l).width <= room);
      if (!fits && size > 12) continue;
      const y0 = height / 2 - ((lines.length - 1) * lineHeight) / 2;
      lines.forEach((l, i) => ctx.fillText(l, width / 2, y0 + i * lineHeight, box));
      break;
    }
  }
  return toTexture(canvas, anisotropy);
}

function wrap(ctx: CanvasRenderingContext2D, words: string[], maxWidth: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && ctx.measureText(candidate).width > maxWidth) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  if (line) lines.push(line);
  return lines;
}

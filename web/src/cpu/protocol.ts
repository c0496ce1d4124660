/**
 * The messages between the page and the CPU worker. The CPU is told one side's view and nothing
 * else: the wasm entry point refuses a view that names an enemy kind while the game goes on.
 */
import type { Arrangement, Side, Square, View } from '../engine';

export type CpuLevel = 'beginner' | 'intermediate' | 'advanced';

export const CPU_LEVELS: readonly CpuLevel[] = ['beginner', 'intermediate', 'advanced'];

/** The start screen's CPU modes (three levels as sente, intermediate as gote), as a kept game names them. */
export const CPU_MODE_IDS = ['cpu-beginner', 'cpu-intermediate', 'cpu-advanced', 'cpu-gote'] as const;
export type CpuModeId = (typeof CPU_MODE_IDS)[number];

/** How long each level may think per move, in milliseconds (measured in the worker). */
export const THINK_MS: Readonly<Record<CpuLevel, number>> = {
  beginner: 200,
  intermediate: 600,
  advanced: 1000,
};

export type CpuRequest =
  | {
      readonly id: number;
      readonly type: 'move';
      /** The CPU's own view (never the game). */
      readonly view: View;
      readonly level: CpuLevel;
      readonly seed: number;
      readonly timeMs: number;
    }
  | { readonly id: number; readonly type: 'deployment'; readonly side: Side; readonly level: CpuLevel; readonly seed: number };

export type CpuResponse =
  | { readonly id: number; readonly ok: true; readonly type: 'move'; readonly move: [Square, Square]; readonly thinkMs: number }
  | { readonly id: number; readonly ok: true; readonly type: 'deployment'; readonly arrangement: Arrangement }
  | { readonly id: number; readonly ok: false; readonly error: string };

/** A move the CPU chose and how long it thought (ms). */
export interface CpuMove {
  readonly from: Square;
  readonly to: Square;
  readonly thinkMs: number;
}

/** The CPU modes of the start screen: three levels with the human as sente, and the CPU as sente. */
import type { Mode } from '../modes';
import type { MessageKey } from '../i18n';
import { WorkerCpu } from './client';
import { CpuMatch } from './match';
import { THINK_MS, type CpuLevel, type CpuModeId } from './protocol';
import { outcomeFor } from '../state/results';
import { newOwner } from '../storage';
import './cpu.css';

/** The thinking indicator shows at least this long, so the CPU's move can be followed. */
export const MIN_DELAY_MS = 450;

function cpuMode(
  id: CpuModeId,
  level: CpuLevel,
  human: 'sente' | 'gote',
  title: Mode['title'],
  description: Mode['description'],
  levelLabel?: MessageKey,
  name?: MessageKey,
): Mode {
  return {
    id,
    title,
    description,
    ...(name === undefined ? {} : { name }),
    // A level of "play the CPU" is listed under that heading, named by its level alone.
    ...(levelLabel === undefined ? {} : { group: { heading: 'modeCpuGroup', label: levelLabel } }),
    keepsResults: true,
    create: (ctx) => {
      const saved = ctx.resume === true ? ctx.cpuGames.load() : null;
      const owner = newOwner(ctx.random);
      return new CpuMatch(ctx.engine, ctx.store, ctx.random, new WorkerCpu(), {
        human,
        level,
        thinkMs: THINK_MS[level],
        minDelayMs: MIN_DELAY_MS,
        startWith: ctx.startWith,
        boardsSettled: ctx.boardsSettled,
        onEnd: (status) => {
          const outcome = outcomeFor(human, status);
          if (outcome !== null) ctx.results.add(id, outcome);
        },
        // This tab's games: another tab's game in the same slot is neither overwritten nor cleared.
        persist: {
          save: (game, claim) => ctx.cpuGames.save(id, game, owner, claim),
          clear: () => ctx.cpuGames.clear(owner),
          discard: () => ctx.cpuGames.clear(),
        },
        resume: saved?.mode === id ? saved.game : undefined,
        draft: ctx.drafts?.open(id, human),
      });
    },
  };
}

export const CPU_MODES: readonly Mode[] = [
  // The seed page's start screen: one "play the CPU" entry whose buttons are the three levels.
  cpuMode('cpu-beginner', 'beginner', 'sente', 'modeCpuBeginner', 'modeCpuBeginnerDesc', 'levelBeginner'),
  cpuMode('cpu-intermediate', 'intermediate', 'sente', 'modeCpuIntermediate', 'modeCpuIntermediateDesc', 'levelIntermediate'),
  cpuMode('cpu-advanced', 'advanced', 'sente', 'modeCpuAdvanced', 'modeCpuAdvancedDesc', 'levelAdvanced'),
  cpuMode('cpu-gote', 'intermediate', 'gote', 'modeCpuGote', 'modeCpuGoteDesc', undefined, 'modeCpuGoteName'),
];

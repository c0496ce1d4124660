/**
 * The ways to play offered on the start screen. Only modes that work are listed; a new mode
 * (CPU, friend by URL) adds an entry here that builds its own `Match`.
 */
import type { PanelKit } from './app';
import type { MessageKey } from './i18n';
import { friendMode } from './online/modes';
import { CPU_MODES } from './cpu/modes';
import { LocalMatch, type Match, type MatchContext } from './state/match';
import { newOwner } from './storage';

export interface Mode {
  readonly id: string;
  readonly title: MessageKey;
  readonly description: MessageKey;
  /**
   * Modes listed together under one heading (the CPU's levels under "play the CPU"): the heading,
   * and this mode's button name within it. `title` still names the mode everywhere else.
   */
  readonly group?: { readonly heading: MessageKey; readonly label: MessageKey };
  /**
   * The mode's name where a game is named (the panel, the offer to go on, the record) when its
   * button's `title` is an action ("start as gote"); absent: the title.
   */
  readonly name?: MessageKey;
  create(ctx: MatchContext): Match;
  /** Whether the player's results in this mode are counted (the CPU modes). */
  readonly keepsResults?: boolean;
  /** Draws the panel itself with the page's parts (null or absent: the page's own panel). */
  panel?(match: Match, kit: PanelKit): Node[] | null;
}

/** In the order the start screen lists them: the CPU first, then two players here, then a friend. */
export const MODES: readonly Mode[] = [
  ...CPU_MODES,
  {
    id: 'local',
    title: 'modeLocal',
    description: 'modeLocalDesc',
    create: (ctx) => new LocalMatch(ctx.engine, ctx.random, ctx.localGames, ctx.resume === true, newOwner(ctx.random)),
  },
  friendMode(null),
];

/** How a game of `mode` is named on the page. */
export function modeName(mode: Mode): MessageKey {
  return mode.name ?? mode.title;
}

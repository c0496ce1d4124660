/**
 * The ways to play offered on the start screen. Only modes that work are listed; a new mode
 * (CPU, friend by URL) adds an entry here with its own start function.
 */
import type { MessageKey } from './i18n';

export interface Mode {
  readonly id: string;
  readonly title: MessageKey;
  readonly description: MessageKey;
}

export const MODES: readonly Mode[] = [
  { id: 'local', title: 'modeLocal', description: 'modeLocalDesc' },
];

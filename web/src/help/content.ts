import { helpEn } from './content.en';
import { helpJa } from './content.ja';
import { helpKo } from './content.ko';
import type { HelpDocument, HelpLang } from './types';

export type { HelpBlock, HelpDocument, HelpLang, HelpLink, HelpListItem, HelpSection } from './types';

/** The long-form help (rules, how to use the page, tips, history, sources, FAQ) per language. */
export const helpContent: Record<HelpLang, HelpDocument> = {
  ja: helpJa,
  ko: helpKo,
  en: helpEn,
};

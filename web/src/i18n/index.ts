/**
 * The page's languages: Japanese, Korean, English. Picked from the browser, switchable,
 * remembered in `localStorage`. Piece names come from the engine (the spec's table).
 */
import type { KindInfo } from '../engine';
import { en, type Catalogue, type MessageKey } from './en';
import { ja } from './ja';
import { ko } from './ko';

export type Lang = 'ja' | 'ko' | 'en';
export type { MessageKey, Catalogue };

export const LANGS: readonly Lang[] = ['ja', 'ko', 'en'];

/** Each language's own name, for the switcher. */
export const LANG_NAMES: Readonly<Record<Lang, string>> = {
  ja: '日本語',
  ko: '한국어',
  en: 'English',
};

export const CATALOGUES: Readonly<Record<Lang, Catalogue>> = { ja, ko, en };

const STORAGE_KEY = 'gunjin.lang';

/** The first of the browser's preferred languages that the page speaks; English otherwise. */
export function detectLang(preferred: readonly string[]): Lang {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    const lang = asLang(base);
    if (lang !== null) return lang;
  }
  return 'en';
}

/** The language an id names (a `?lang=` parameter, a stored choice), if the page speaks it. */
export function asLang(value: string | null | undefined): Lang | null {
  const v = value?.trim().toLowerCase();
  return v === 'ja' || v === 'ko' || v === 'en' ? v : null;
}

/** Fills `{name}` placeholders. */
export function format(template: string, params: Readonly<Record<string, string | number>> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    return value === undefined ? whole : String(value);
  });
}

export interface Storage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** The current language and its strings. */
export class I18n {
  private current: Lang;
  private readonly kindNames = new Map<string, KindInfo>();

  constructor(
    kinds: readonly KindInfo[],
    private readonly storage: Storage | undefined,
    preferred: readonly string[],
  ) {
    for (const k of kinds) this.kindNames.set(k.id, k);
    const saved = storage?.getItem(STORAGE_KEY);
    this.current = asLang(saved) ?? detectLang(preferred);
  }

  get lang(): Lang {
    return this.current;
  }

  /** Switches the language and remembers it. */
  setLang(lang: Lang): void {
    this.current = lang;
    try {
      this.storage?.setItem(STORAGE_KEY, lang);
    } catch {
      // Storage may be full or blocked; the choice still holds for this visit.
    }
  }

  t(key: MessageKey, params?: Readonly<Record<string, string | number>>): string {
    return format(CATALOGUES[this.current][key], params);
  }

  /** A kind's name in the current language, as in the spec's table. */
  kind(id: string): string {
    const info = this.kindNames.get(id);
    if (info === undefined) return id;
    return info[this.current];
  }

  side(side: 'sente' | 'gote'): string {
    return this.t(side);
  }

  /** A span of time in words: whole minutes as minutes, anything else as seconds. */
  duration(seconds: number): string {
    const s = Math.max(0, Math.round(seconds));
    return s >= 60 && s % 60 === 0 ? this.t('durationMinutes', { n: s / 60 }) : this.t('durationSeconds', { n: s });
  }
}

/**
 * The page's languages: Japanese, Korean, English. Picked from the browser, switchable,
 * remembered in `localStorage`. Piece names come from the engine (the spec's table).
 */
import type { KindInfo } from '../engine';
import { en, enPieceFaces, type Catalogue, type MessageKey } from './en';
import { ja } from './ja';
import { ko } from './ko';
import { readText, type KeyValueStorage } from '../storage';

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

/**
 * Japanese, unless the browser prefers Korean to it: the game's players read one of the two (as
 * the seed site is Japanese and Korean). English is there to choose (the switch, `?lang=en`) and
 * is then remembered; a browser's English alone does not pick it, since that is also what a
 * browser says when nobody set a language.
 */
export function detectLang(preferred: readonly string[]): Lang {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    if (base === 'ja' || base === 'ko') return base;
  }
  return 'ja';
}

/** The language an id names (a `?lang=` parameter, a stored choice), if the page speaks it. */
export function asLang(value: string | null | undefined): Lang | null {
  const v = value?.trim().toLowerCase();
  return v === 'ja' || v === 'ko' || v === 'en' ? v : null;
}

/**
 * Korean particles whose form follows the sound the word before them ends in: [after a final
 * consonant, after a vowel]. `로` is the exception: it also follows a final ㄹ.
 */
const KO_PARTICLES: Readonly<Record<string, readonly [string, string]>> = {
  을: ['을', '를'],
  를: ['을', '를'],
  이: ['이', '가'],
  가: ['이', '가'],
  은: ['은', '는'],
  는: ['은', '는'],
  과: ['과', '와'],
  와: ['과', '와'],
  으로: ['으로', '로'],
  로: ['으로', '로'],
};

/** How Korean reads a digit at the end of a word (a square's row): its final consonant, if any. */
const KO_DIGIT_FINAL = ['ㅇ', 'ㄹ', '', 'ㅁ', '', '', 'ㄱ', 'ㄹ', 'ㄹ', ''];
const HANGUL_FINALS = ['', 'ㄱ', 'ㄲ', 'ㄳ', 'ㄴ', 'ㄵ', 'ㄶ', 'ㄷ', 'ㄹ', 'ㄺ', 'ㄻ', 'ㄼ', 'ㄽ', 'ㄾ', 'ㄿ', 'ㅀ', 'ㅁ', 'ㅂ', 'ㅄ', 'ㅅ', 'ㅆ', 'ㅇ', 'ㅈ', 'ㅊ', 'ㅋ', 'ㅌ', 'ㅍ', 'ㅎ'];

/** The final consonant a word ends in when read in Korean ('' for a vowel). */
function koreanFinal(word: string): string {
  const last = word.trimEnd().at(-1) ?? '';
  if (last >= '0' && last <= '9') return KO_DIGIT_FINAL[Number(last)] ?? '';
  const code = last.codePointAt(0) ?? 0;
  if (code >= 0xac00 && code <= 0xd7a3) return HANGUL_FINALS[(code - 0xac00) % 28] ?? '';
  return '';
}

/** The form of a Korean particle that fits after `word` (`을` or `를` after "c3" → 을). */
export function koreanParticle(word: string, particle: string): string {
  const forms = KO_PARTICLES[particle];
  if (forms === undefined) return particle;
  const final = koreanFinal(word);
  const afterVowel = final === '' || (forms[1] === '로' && final === 'ㄹ');
  return afterVowel ? forms[1] : forms[0];
}

/**
 * Fills `{name}` placeholders. `{name|을}` also puts after the value the Korean particle in the
 * form its last sound asks for (을/를, 이/가, 은/는, 과/와, 으로/로).
 */
export function format(template: string, params: Readonly<Record<string, string | number>> = {}): string {
  return template.replace(/\{(\w+)(?:\|([^}]+))?\}/g, (whole, name: string, particle: string | undefined) => {
    const value = params[name];
    if (value === undefined) return whole;
    const text = String(value);
    return particle === undefined ? text : text + koreanParticle(text, particle);
  });
}

/** The current language and its strings. */
export class I18n {
  private current: Lang;
  private readonly kindNames = new Map<string, KindInfo>();

  constructor(
    kinds: readonly KindInfo[],
    private readonly storage: KeyValueStorage | undefined,
    preferred: readonly string[],
  ) {
    for (const k of kinds) this.kindNames.set(k.id, k);
    // A storage that throws on reading (blocked by the browser's settings) is no storage.
    const saved = readText(storage, STORAGE_KEY);
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

  /** A kind's name as written on a 3D piece's face: a short form where the name is long. */
  kindOnPiece(id: string): string {
    return (this.current === 'en' ? enPieceFaces[id] : undefined) ?? this.kind(id);
  }

  side(side: 'sente' | 'gote'): string {
    return this.t(side);
  }

  /**
   * Lines said one after another (in the live region) as sentences: each ends with the
   * language's full stop unless it already ends a sentence, so "…won (b5)" and "The enemy
   * moved…" are not read as one.
   */
  sentences(lines: readonly string[]): string {
    const stop = this.current === 'ja' ? '。' : '.';
    const ended = /[.!?。！？…]$/u;
    const parts = lines.map((l) => l.trim()).filter((l) => l !== '').map((l) => (ended.test(l) ? l : l + stop));
    return parts.join(this.current === 'ja' ? '' : ' ');
  }

  /**
   * A span of time in words: whole minutes as minutes, other spans under two minutes as seconds,
   * longer ones as the whole minutes elapsed (121 s is 2 min).
   */
  duration(seconds: number): string {
    const s = Math.max(0, Math.round(seconds));
    const minutes = s >= 120 || (s >= 60 && s % 60 === 0);
    return minutes ? this.t('durationMinutes', { n: Math.floor(s / 60) }) : this.t('durationSeconds', { n: s });
  }
}

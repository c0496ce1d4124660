import { describe, expect, it } from 'vitest';
import { MemoryStorage, testEngine } from '../test-engine';
import { CATALOGUES, I18n, LANGS, detectLang, format } from './index';

describe('catalogues', () => {
  it('have the same keys, none empty, and the same placeholders', () => {
    const keys = Object.keys(CATALOGUES.en).sort();
    for (const lang of LANGS) {
      const cat = CATALOGUES[lang] as Readonly<Record<string, string>>;
      expect(Object.keys(cat).sort()).toEqual(keys);
      for (const key of keys) {
        const text = cat[key] ?? '';
        expect(text.trim().length, `${lang}.${key}`).toBeGreaterThan(0);
        const holes = (s: string) => [...new Set(s.match(/\{\w+\}/g) ?? [])].sort();
        expect(holes(text), `${lang}.${key}`).toEqual(holes(CATALOGUES.en[key as keyof typeof CATALOGUES.en]));
      }
    }
  });
});

describe('language choice', () => {
  it('follows the browser, falls back to English, and remembers a switch', () => {
    expect(detectLang(['ko-KR', 'en'])).toBe('ko');
    expect(detectLang(['fr', 'ja-JP'])).toBe('ja');
    expect(detectLang(['de'])).toBe('en');
    const storage = new MemoryStorage();
    const i18n = new I18n(testEngine().kinds, storage, ['ja']);
    expect(i18n.lang).toBe('ja');
    expect(i18n.kind('lieutenant_colonel')).toBe('中佐');
    i18n.setLang('ko');
    expect(i18n.kind('lieutenant_colonel')).toBe('중령');
    expect(new I18n(testEngine().kinds, storage, ['en']).lang).toBe('ko');
  });

  it('formats messages with piece names from the engine', () => {
    const i18n = new I18n(testEngine().kinds, undefined, ['en']);
    expect(i18n.t('battleLost', { kind: i18n.kind('lieutenant_colonel'), square: 'c5' })).toBe(
      'Your lieutenant colonel lost (c5).',
    );
    expect(format('{a} and {b}', { a: 1 })).toBe('1 and {b}');
  });
});

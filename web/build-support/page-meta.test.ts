import { describe, expect, it } from 'vitest';
import { en } from '../src/i18n/en';
import { ja } from '../src/i18n/ja';
import { ko } from '../src/i18n/ko';
import { pageMetaTags } from './page-meta';

describe('pageMetaTags', () => {
  const tags = pageMetaTags();
  const metaContent = (key: string, value: string): string[] =>
    tags.filter((t) => t.tag === 'meta' && t.attrs?.[key] === value).map((t) => String(t.attrs?.['content']));

  it('describes the page in Japanese, the language it opens in, and names the game in all three', () => {
    expect(metaContent('name', 'description')).toEqual([ja.pageDescription]);
    expect(metaContent('property', 'og:description')).toEqual([ja.pageDescription]);
    const title = metaContent('property', 'og:title')[0] ?? '';
    for (const c of [ja, ko, en]) expect(title).toContain(c.appTitle);
  });

  it('tells a browser without JavaScript, in each language, what the page needs', () => {
    const noscript = tags.find((t) => t.tag === 'noscript');
    expect(noscript?.injectTo).toBe('body-prepend');
    const paragraphs = Array.isArray(noscript?.children) ? noscript.children : [];
    const texts = paragraphs.map((p) => [p.attrs?.['lang'], p.children]);
    expect(texts).toEqual([
      ['ja', ja.noScript],
      ['ko', ko.noScript],
      ['en', en.noScript],
    ]);
  });
});

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { en } from '../src/i18n/en';
import { ja } from '../src/i18n/ja';
import { ko } from '../src/i18n/ko';
import { manifestPath } from '../src/i18n/manifest';
import { manifest, pageMetaTags } from './page-meta';

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

describe('manifest', () => {
  it('names the installed game in each language, as one app', () => {
    const all = (['ja', 'ko', 'en'] as const).map((lang) => manifest(lang));
    expect(all.map((m) => m['short_name'])).toEqual([ja.appTitle, ko.appTitle, en.appTitle]);
    expect(all.map((m) => m['lang'])).toEqual(['ja', 'ko', 'en']);
    expect(new Set(all.map((m) => m['id']))).toEqual(new Set(['/']));
    expect(manifestPath('ko')).toBe('/manifest.ko.webmanifest');
    const link = pageMetaTags().find((t) => t.tag === 'link' && t.attrs?.['rel'] === 'manifest');
    expect(link?.attrs?.['href']).toBe(manifestPath('ja'));
  });

  it('points at icons that are in public/', () => {
    const icons = manifest('en')['icons'] as { src: string; sizes: string }[];
    expect(icons.some((i) => i.sizes === '512x512')).toBe(true);
    for (const icon of icons) {
      expect(existsSync(fileURLToPath(new URL(`../public${icon.src}`, import.meta.url))), icon.src).toBe(true);
    }
  });
});

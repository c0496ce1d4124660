/**
 * Writes into the built `index.html` what a search engine, a chat app's link preview (a room's
 * URL sent by LINE or KakaoTalk) and a browser without JavaScript read before the app runs: the
 * description and Open Graph tags, and a note in each language that JavaScript is needed. The
 * text comes from the page's own catalogues. The page opens in Japanese (`<html lang="ja">`), so
 * the description is the Japanese one; the preview's title names the game in all three languages.
 */
import type { HtmlTagDescriptor, Plugin } from 'vite';
import { en } from '../src/i18n/en.ts';
import { ja } from '../src/i18n/ja.ts';
import { ko } from '../src/i18n/ko.ts';

const CATALOGUES = { ja, ko, en } as const;

function meta(attrs: Record<string, string>): HtmlTagDescriptor {
  return { tag: 'meta', attrs, injectTo: 'head' };
}

/** The tags added to `index.html`, in order. */
export function pageMetaTags(): HtmlTagDescriptor[] {
  const title = [ja.appTitle, ko.appTitle, en.appTitle].join(' · ');
  return [
    meta({ name: 'description', content: ja.pageDescription }),
    meta({ property: 'og:type', content: 'website' }),
    meta({ property: 'og:site_name', content: title }),
    meta({ property: 'og:title', content: title }),
    meta({ property: 'og:description', content: ja.pageDescription }),
    meta({ property: 'og:locale', content: 'ja_JP' }),
    meta({ property: 'og:locale:alternate', content: 'ko_KR' }),
    meta({ property: 'og:locale:alternate', content: 'en_US' }),
    {
      tag: 'noscript',
      injectTo: 'body-prepend',
      children: Object.entries(CATALOGUES).map(([lang, c]) => ({
        tag: 'p',
        attrs: { lang, class: 'no-script' },
        children: c.noScript,
      })),
    },
  ];
}

/** The Vite plugin. */
export function pageMeta(): Plugin {
  return {
    name: 'gunjin-page-meta',
    transformIndexHtml: () => pageMetaTags(),
  };
}

/**
 * Writes into the built `index.html` what a search engine, a chat app's link preview (a room's
 * URL sent by LINE or KakaoTalk) and a browser without JavaScript read before the app runs: the
 * description and Open Graph tags, and a note in each language that JavaScript is needed. The
 * text comes from the page's own catalogues. The page opens in Japanese (`<html lang="ja">`), so
 * the description is the Japanese one; the preview's title names the game in all three languages.
 * It also writes a web app manifest per language (`/manifest.ja.webmanifest` …), so a phone can
 * put the game on its home screen under its name in the page's language (the page points the
 * manifest link at its language).
 */
import type { HtmlTagDescriptor, Plugin } from 'vite';
import { en } from '../src/i18n/en.ts';
import { ja } from '../src/i18n/ja.ts';
import { manifestPath } from '../src/i18n/manifest.ts';
import { ko } from '../src/i18n/ko.ts';

const CATALOGUES = { ja, ko, en } as const;

/** The colours of the page's wood frame and paper (`src/style.css`), for the installed app. */
const THEME_COLOR = '#2b2118';
const BACKGROUND_COLOR = '#f6efe2';

/** The web app manifest in one language: the same app (`id`) whatever the language. */
export function manifest(lang: keyof typeof CATALOGUES): Record<string, unknown> {
  const c = CATALOGUES[lang];
  const png = (size: number, purpose: string) => ({
    src: `/icons/icon-${size}.png`,
    sizes: `${size}x${size}`,
    type: 'image/png',
    purpose,
  });
  return {
    id: '/',
    name: c.appTitle,
    short_name: c.appTitle,
    description: c.pageDescription,
    lang,
    dir: 'ltr',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: THEME_COLOR,
    background_color: BACKGROUND_COLOR,
    icons: [
      { src: '/icons/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
      png(192, 'any'),
      png(512, 'any'),
      // The icon is drawn full-bleed with the piece inside the safe circle, so it masks well.
      png(192, 'maskable'),
      png(512, 'maskable'),
    ],
  };
}

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
    // Every route is this one page (a room is `/?room=…`): search engines should list `/` alone.
    { tag: 'link', attrs: { rel: 'canonical', href: '/' }, injectTo: 'head' },
    { tag: 'link', attrs: { rel: 'manifest', href: manifestPath('ja') }, injectTo: 'head' },
    { tag: 'link', attrs: { rel: 'apple-touch-icon', href: '/icons/apple-touch-icon.png' }, injectTo: 'head' },
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
    generateBundle() {
      for (const lang of Object.keys(CATALOGUES) as (keyof typeof CATALOGUES)[]) {
        this.emitFile({
          type: 'asset',
          fileName: manifestPath(lang).slice(1),
          source: `${JSON.stringify(manifest(lang), null, 2)}\n`,
        });
      }
    },
  };
}

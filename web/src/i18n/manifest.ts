/** Where the web app manifest in `lang` is served (written by build-support/page-meta.ts). */
export function manifestPath(lang: string): string {
  return `/manifest.${lang}.webmanifest`;
}

/**
 * Plain-data shape of the long-form help (rules, how to use the page, tips, history, FAQ).
 *
 * The content is data, never HTML: `renderHelp` builds the DOM with `textContent` only.
 */

/** Languages the help is written in. */
export type HelpLang = 'ja' | 'ko' | 'en';

/**
 * A link to an outside page. It opens in a new tab, and the renderer adds the catalogue's
 * "opens in a new tab" note to its text. Only `https:` addresses become links; any other
 * address renders as plain text.
 */
export interface HelpLink {
  readonly kind: 'link';
  readonly text: string;
  readonly href: string;
}

/** One item of a list: plain text, or a link whose whole text is the link. */
export type HelpListItem = string | HelpLink;

/**
 * Source numbers (1-based, in the order of the `sources` block) that a paragraph or a section
 * rests on; each renders as a link to its source.
 */
export type HelpCites = readonly number[];

/** One block of a section. `qa` blocks that follow each other render as one definition list. */
export type HelpBlock =
  | { readonly kind: 'p'; readonly text: string; readonly cites?: HelpCites }
  | { readonly kind: 'ul'; readonly items: readonly HelpListItem[] }
  /** The numbered list of sources that `cites` point to (one per document). */
  | { readonly kind: 'sources'; readonly items: readonly HelpListItem[] }
  | { readonly kind: 'qa'; readonly q: string; readonly a: string }
  | {
      readonly kind: 'table';
      readonly head: readonly string[];
      readonly rows: readonly (readonly string[])[];
    };

/** A titled part of the help; top-level sections render as `h2`, subsections as `h3`. */
export interface HelpSection {
  /** Stable across languages; used as the element id and the table-of-contents anchor. */
  readonly id: string;
  readonly title: string;
  readonly blocks: readonly HelpBlock[];
  /** The sources of the section as a whole, listed at its end (for lists and the like). */
  readonly cites?: HelpCites;
  readonly subsections?: readonly HelpSection[];
}

/** The whole help in one language. */
export interface HelpDocument {
  /** The language it is written in. */
  readonly lang: HelpLang;
  /** Title of the help as a whole (for the caller's heading or summary). */
  readonly title: string;
  /** Accessible name of the table of contents. */
  readonly tocLabel: string;
  readonly sections: readonly HelpSection[];
}

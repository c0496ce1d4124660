import type { HelpBlock, HelpCites, HelpDocument, HelpLang, HelpLink, HelpListItem, HelpSection } from './types';

/** Where the help is written: the page's document, and the help's language. */
interface Out {
  readonly doc: Document;
  readonly lang: HelpLang;
}

/** Strings the renderer adds around the content, from the page's i18n catalogue. */
export interface HelpRenderText {
  /**
   * How a link to an outside page reads: a template with a `{link}` hole for the link's own
   * text, the rest being the "opens in a new tab" note (catalogue key `helpNewTab`).
   */
  readonly newTab: string;
  /** The accessible name of a link to source `{n}` (catalogue key `helpCite`). */
  readonly cite: string;
  /** The label before a section's own sources (catalogue key `helpCites`). */
  readonly cites: string;
}

/** The element id of source `n` (1-based) in the sources list. */
export function sourceId(n: number): string {
  return `help-source-${n}`;
}

/**
 * Renders a help document into `container`, replacing what it held.
 *
 * Builds a table of contents (`nav` with nested `ol` of links to the section ids), then one
 * `section` per part with an `h2` (subsections: `h3`), paragraphs, lists, tables, and FAQ
 * entries grouped into a `dl`. Outside links open in a new tab (`target="_blank"`,
 * `rel="noopener noreferrer"`) and say so in their text. Every text goes through
 * `textContent` or a text node: no HTML is parsed.
 */
export function renderHelp(doc: HelpDocument, container: HTMLElement, text: HelpRenderText): void {
  const d: Out = { doc: container.ownerDocument, lang: doc.lang };
  container.textContent = '';

  const nav = make(d, 'nav');
  nav.setAttribute('class', 'help-toc');
  nav.setAttribute('aria-label', doc.tocLabel);
  nav.appendChild(tocList(d, doc.sections));
  container.appendChild(nav);

  for (const section of doc.sections) {
    container.appendChild(renderSection(d, section, 2, text));
  }
}

/**
 * A contents or citation link takes the keyboard to what it names (a section's heading, a
 * source), not only the view: left to the browser, the focus fell to the page behind the dialog,
 * and the address kept the fragment (`#help-pieces`) through the games that followed. The view
 * moves here instead, and what it landed on is marked (`is-target`) as `:target` would be.
 */
export function followInPageLink(container: HTMLElement, event: MouseEvent): void {
  const link = event.target instanceof Element ? event.target.closest('a') : null;
  const href = link?.getAttribute('href');
  if (href === null || href === undefined || !href.startsWith('#')) return;
  const target = container.ownerDocument.getElementById(href.slice(1));
  if (target === null || !container.contains(target)) return;
  event.preventDefault();
  for (const old of container.querySelectorAll('.is-target')) old.classList.remove('is-target');
  target.classList.add('is-target');
  const place = target.querySelector<HTMLElement>(':scope > h2, :scope > h3') ?? target;
  if (!place.hasAttribute('tabindex')) place.setAttribute('tabindex', '-1');
  target.scrollIntoView({ block: 'start' });
  place.focus({ preventScroll: true });
}

function make<K extends keyof HTMLElementTagNameMap>(
  d: Out,
  tag: K,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = d.doc.createElement(tag);
  if (text !== undefined) appendWords(d, node, keepCounted(text));
  return node;
}

/** Japanese words (kana, kanji) in a text of another language. */
const JAPANESE_RUN = /[\u3005\u3040-\u30ff\u3400-\u9fff\uff66-\uff9f]+(?:[\s・]*[\u3005\u3040-\u30ff\u3400-\u9fff\uff66-\uff9f]+)*/gu;

/**
 * Appends `text` to `parent`: in the Korean and English help, each run of Japanese words (the
 * pieces' names, the game's old names) marked `lang="ja"`, so that a screen reader reads it with
 * a Japanese voice rather than spelling it out in the help's.
 */
function appendWords(d: Out, parent: HTMLElement, text: string): void {
  if (d.lang === 'ja') {
    parent.appendChild(d.doc.createTextNode(text));
    return;
  }
  let at = 0;
  for (const run of text.matchAll(JAPANESE_RUN)) {
    if (run.index > at) parent.appendChild(d.doc.createTextNode(text.slice(at, run.index)));
    const span = d.doc.createElement('span');
    span.setAttribute('lang', 'ja');
    span.textContent = run[0];
    parent.appendChild(span);
    at = run.index + run[0].length;
  }
  if (at < text.length) parent.appendChild(d.doc.createTextNode(text.slice(at)));
}

/**
 * Joins a number to the Japanese or Korean counter after it ("6 種類", "100 手", "23 개") with a
 * no-break space: a line broken between them reads as two words.
 */
export function keepCounted(text: string): string {
  return text.replace(/(\d) (?=[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])/gu, '$1\u00a0');
}

function tocList(d: Out, sections: readonly HelpSection[]): HTMLOListElement {
  const list = make(d, 'ol');
  for (const section of sections) {
    const item = make(d, 'li');
    const link = make(d, 'a', section.title);
    link.setAttribute('href', `#${section.id}`);
    item.appendChild(link);
    if (section.subsections !== undefined && section.subsections.length > 0) {
      item.appendChild(tocList(d, section.subsections));
    }
    list.appendChild(item);
  }
  return list;
}

function renderSection(d: Out, section: HelpSection, level: 2 | 3, text: HelpRenderText): HTMLElement {
  const root = make(d, 'section');
  root.setAttribute('id', section.id);
  root.setAttribute('class', 'help-section');
  const headingId = `${section.id}-title`;
  root.setAttribute('aria-labelledby', headingId);
  const heading = make(d, level === 2 ? 'h2' : 'h3', section.title);
  heading.setAttribute('id', headingId);
  root.appendChild(heading);

  let faq: HTMLDListElement | null = null;
  for (const block of section.blocks) {
    if (block.kind === 'qa') {
      if (faq === null) {
        faq = make(d, 'dl');
        faq.setAttribute('class', 'help-faq');
        root.appendChild(faq);
      }
      faq.appendChild(make(d, 'dt', block.q));
      faq.appendChild(make(d, 'dd', block.a));
    } else {
      faq = null;
      root.appendChild(renderBlock(d, block, text));
    }
  }

  if (section.cites !== undefined && section.cites.length > 0) {
    const line = make(d, 'p', `${text.cites} `);
    line.setAttribute('class', 'help-cites');
    line.appendChild(citeLinks(d, section.cites, text));
    root.appendChild(line);
  }

  for (const sub of section.subsections ?? []) {
    root.appendChild(renderSection(d, sub, 3, text));
  }
  return root;
}

/** `[1][3]`, each number a link to its source in the sources list. */
function citeLinks(d: Out, cites: HelpCites, text: HelpRenderText): HTMLElement {
  const sup = make(d, 'sup');
  sup.setAttribute('class', 'help-cite');
  for (const n of cites) {
    const a = make(d, 'a', `[${n}]`);
    a.setAttribute('href', `#${sourceId(n)}`);
    a.setAttribute('aria-label', text.cite.replace('{n}', String(n)));
    sup.appendChild(a);
  }
  return sup;
}

function listItems(d: Out, list: HTMLElement, items: readonly HelpListItem[], newTab: string, ids?: (i: number) => string): void {
  items.forEach((item, i) => {
    const li = typeof item === 'string' ? make(d, 'li', item) : make(d, 'li');
    if (typeof item !== 'string') appendLink(d, li, item, newTab);
    if (ids !== undefined) li.setAttribute('id', ids(i));
    list.appendChild(li);
  });
}

function renderBlock(
  d: Out,
  block: Exclude<HelpBlock, { kind: 'qa' }>,
  text: HelpRenderText,
): HTMLElement {
  switch (block.kind) {
    case 'p': {
      const p = make(d, 'p', block.text);
      if (block.cites !== undefined && block.cites.length > 0) p.appendChild(citeLinks(d, block.cites, text));
      return p;
    }
    case 'ul': {
      const list = make(d, 'ul');
      listItems(d, list, block.items, text.newTab);
      return list;
    }
    case 'sources': {
      const list = make(d, 'ol');
      list.setAttribute('class', 'help-source-list');
      listItems(d, list, block.items, text.newTab, (i) => sourceId(i + 1));
      return list;
    }
    case 'table': {
      const table = make(d, 'table');
      const head = make(d, 'thead');
      const headRow = make(d, 'tr');
      for (const cell of block.head) {
        const th = make(d, 'th', cell);
        th.setAttribute('scope', 'col');
        headRow.appendChild(th);
      }
      head.appendChild(headRow);
      table.appendChild(head);
      const body = make(d, 'tbody');
      for (const row of block.rows) {
        const tr = make(d, 'tr');
        // The first cell names the row (the piece): a screen reader says it with each other cell.
        row.forEach((cell, i) => {
          const el = make(d, i === 0 ? 'th' : 'td', cell);
          if (i === 0) el.setAttribute('scope', 'row');
          tr.appendChild(el);
        });
        body.appendChild(tr);
      }
      table.appendChild(body);
      return table;
    }
  }
}

/** The address of an outside link if it is an absolute `https:` URL, else null. */
function safeHref(href: string): string | null {
  try {
    return new URL(href).protocol === 'https:' ? href : null;
  } catch {
    return null;
  }
}

/**
 * Appends an anchor that opens `link` in a new tab, its text being the link's text set into the
 * `newTab` template; the note part of the template goes into a `help-newtab` span inside the
 * anchor, so it is both shown and part of the link's accessible name. An address that is not
 * `https:` gives the plain text instead of a link.
 */
function appendLink(d: Out, parent: HTMLElement, link: HelpLink, newTab: string): void {
  const href = safeHref(link.href);
  if (href === null) {
    appendWords(d, parent, link.text);
    return;
  }
  const anchor = make(d, 'a');
  anchor.setAttribute('href', href);
  anchor.setAttribute('target', '_blank');
  anchor.setAttribute('rel', 'noopener noreferrer');
  const hole = newTab.indexOf('{link}');
  const before = hole < 0 ? '' : newTab.slice(0, hole);
  const after = hole < 0 ? ` ${newTab}` : newTab.slice(hole + '{link}'.length);
  appendNote(d, anchor, before);
  appendWords(d, anchor, link.text);
  appendNote(d, anchor, after);
  parent.appendChild(anchor);
}

/** Appends a note: its surrounding spaces as text, the rest in a `help-newtab` span. */
function appendNote(d: Out, parent: HTMLElement, note: string): void {
  const words = note.trim();
  if (words === '') {
    if (note !== '') parent.appendChild(d.doc.createTextNode(note));
    return;
  }
  const start = note.indexOf(words);
  if (start > 0) parent.appendChild(d.doc.createTextNode(note.slice(0, start)));
  const span = make(d, 'span', words);
  span.setAttribute('class', 'help-newtab');
  parent.appendChild(span);
  const end = start + words.length;
  if (end < note.length) parent.appendChild(d.doc.createTextNode(note.slice(end)));
}

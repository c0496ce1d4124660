import type { HelpBlock, HelpDocument, HelpSection } from './types';

/**
 * Renders a help document into `container`, replacing what it held.
 *
 * Builds a table of contents (`nav` with nested `ol` of links to the section ids), then one
 * `section` per part with an `h2` (subsections: `h3`), paragraphs, lists, tables, and FAQ
 * entries grouped into a `dl`. Every text goes through `textContent`: no HTML is parsed.
 */
export function renderHelp(doc: HelpDocument, container: HTMLElement): void {
  const d = container.ownerDocument;
  container.textContent = '';

  const nav = make(d, 'nav');
  nav.setAttribute('class', 'help-toc');
  nav.setAttribute('aria-label', doc.tocLabel);
  nav.appendChild(tocList(d, doc.sections));
  container.appendChild(nav);

  for (const section of doc.sections) {
    container.appendChild(renderSection(d, section, 2));
  }
}

function make<K extends keyof HTMLElementTagNameMap>(
  d: Document,
  tag: K,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = d.createElement(tag);
  if (text !== undefined) node.textContent = text;
  return node;
}

function tocList(d: Document, sections: readonly HelpSection[]): HTMLOListElement {
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

function renderSection(d: Document, section: HelpSection, level: 2 | 3): HTMLElement {
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
      root.appendChild(renderBlock(d, block));
    }
  }

  for (const sub of section.subsections ?? []) {
    root.appendChild(renderSection(d, sub, 3));
  }
  return root;
}

function renderBlock(d: Document, block: Exclude<HelpBlock, { kind: 'qa' }>): HTMLElement {
  switch (block.kind) {
    case 'p':
      return make(d, 'p', block.text);
    case 'ul': {
      const list = make(d, 'ul');
      for (const item of block.items) list.appendChild(make(d, 'li', item));
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
        for (const cell of row) tr.appendChild(make(d, 'td', cell));
        body.appendChild(tr);
      }
      table.appendChild(body);
      return table;
    }
  }
}

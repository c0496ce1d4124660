import { describe, expect, it } from 'vitest';
import { renderHelp } from './render';
import type { HelpDocument } from './types';

/** Just enough of the DOM for `renderHelp`: elements with attributes, children and text. */
class FakeElement {
  readonly children: FakeElement[] = [];
  readonly attributes = new Map<string, string>();
  private ownText = '';
  constructor(
    readonly tagName: string,
    readonly ownerDocument: FakeDocument,
  ) {}
  get textContent(): string {
    return this.ownText + this.children.map((c) => c.textContent).join('');
  }
  set textContent(value: string) {
    this.children.length = 0;
    this.ownText = value;
  }
  appendChild(child: FakeElement): FakeElement {
    this.children.push(child);
    return child;
  }
  setAttribute(name: string, value: string): void {
    this.attributes.set(name, value);
  }
  /** Descendants in document order with the given tag. */
  all(tag: string): FakeElement[] {
    return this.children.flatMap((c) => [...(c.tagName === tag ? [c] : []), ...c.all(tag)]);
  }
}

class FakeDocument {
  createElement(tag: string): FakeElement {
    return new FakeElement(tag, this);
  }
}

const doc: HelpDocument = {
  title: 'Help',
  tocLabel: 'Contents',
  sections: [
    {
      id: 'help-a',
      title: 'Rules',
      blocks: [{ kind: 'p', text: '<b>not markup</b>' }],
      subsections: [
        {
          id: 'help-a1',
          title: 'Board',
          blocks: [
            { kind: 'ul', items: ['one', 'two'] },
            { kind: 'table', head: ['piece', 'count'], rows: [['spy', '1'], ['mine', '2']] },
          ],
        },
      ],
    },
    {
      id: 'help-faq',
      title: 'FAQ',
      blocks: [
        { kind: 'qa', q: 'Q1?', a: 'A1.' },
        { kind: 'qa', q: 'Q2?', a: 'A2.' },
        { kind: 'p', text: 'between' },
        { kind: 'qa', q: 'Q3?', a: 'A3.' },
      ],
    },
  ],
};

function render(): FakeElement {
  const container = new FakeDocument().createElement('div');
  container.textContent = 'old content';
  renderHelp(doc, container as unknown as HTMLElement);
  return container;
}

describe('renderHelp', () => {
  it('replaces the container content with a table of contents and the sections', () => {
    const root = render();
    expect(root.textContent).not.toContain('old content');
    expect(root.children.map((c) => c.tagName)).toEqual(['nav', 'section', 'section']);
    const nav = root.children[0];
    expect(nav?.attributes.get('aria-label')).toBe('Contents');
    expect(nav?.all('a').map((a) => a.attributes.get('href'))).toEqual([
      '#help-a',
      '#help-a1',
      '#help-faq',
    ]);
  });

  it('gives sections ids and headings by depth', () => {
    const root = render();
    const sections = root.all('section');
    expect(sections.map((s) => s.attributes.get('id'))).toEqual(['help-a', 'help-a1', 'help-faq']);
    expect(root.all('h2').map((h) => h.textContent)).toEqual(['Rules', 'FAQ']);
    expect(root.all('h3').map((h) => h.textContent)).toEqual(['Board']);
    expect(sections[0]?.attributes.get('aria-labelledby')).toBe('help-a-title');
  });

  it('keeps text as text and builds lists and tables', () => {
    const root = render();
    expect(root.all('p')[0]?.textContent).toBe('<b>not markup</b>');
    expect(root.all('b')).toEqual([]);
    expect(root.all('li').map((l) => l.textContent)).toContain('two');
    expect(root.all('th').map((t) => t.textContent)).toEqual(['piece', 'count']);
    expect(root.all('td').map((t) => t.textContent)).toEqual(['spy', '1', 'mine', '2']);
  });

  it('groups consecutive questions into one definition list', () => {
    const root = render();
    const lists = root.all('dl');
    expect(lists.map((dl) => dl.all('dt').map((dt) => dt.textContent))).toEqual([
      ['Q1?', 'Q2?'],
      ['Q3?'],
    ]);
    expect(lists[0]?.all('dd').map((dd) => dd.textContent)).toEqual(['A1.', 'A2.']);
  });
});

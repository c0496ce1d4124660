import { describe, expect, it } from 'vitest';
import { CATALOGUES, LANGS } from '../i18n';
import { helpContent } from './content';
import { keepCounted, renderHelp } from './render';
import type { HelpDocument } from './types';

/** A text node: text only. */
class FakeText {
  readonly tagName = '#text';
  readonly children: FakeNode[] = [];
  constructor(readonly textContent: string) {}
  all(): FakeElement[] {
    return [];
  }
}

type FakeNode = FakeElement | FakeText;

/** Just enough of the DOM for `renderHelp`: elements with attributes, children and text. */
class FakeElement {
  readonly children: FakeNode[] = [];
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
  appendChild<T extends FakeNode>(child: T): T {
    this.children.push(child);
    return child;
  }
  setAttribute(name: string, value: string): void {
    this.attributes.set(name, value);
  }
  /** Descendants in document order with the given tag. */
  all(tag: string): FakeElement[] {
    return this.children.flatMap((c) => [...(c instanceof FakeElement && c.tagName === tag ? [c] : []), ...c.all(tag)]);
  }
}

class FakeDocument {
  createElement(tag: string): FakeElement {
    return new FakeElement(tag, this);
  }
  createTextNode(text: string): FakeText {
    return new FakeText(text);
  }
}

const NEW_TAB = '{link} (new tab)';

const doc: HelpDocument = {
  lang: 'en',
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
            {
              kind: 'ul',
              items: [
                { kind: 'link', text: 'Outside', href: 'https://example.org/a?q=%E8%BB%8D' },
                { kind: 'link', text: 'Script', href: 'javascript:alert(1)' },
                { kind: 'link', text: 'Plain http', href: 'http://example.org/' },
                { kind: 'link', text: 'Relative', href: '/local' },
              ],
            },
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

function render(help: HelpDocument = doc, newTab = NEW_TAB, cite = 'Source {n}', cites = 'Sources:'): FakeElement {
  const container = new FakeDocument().createElement('div');
  container.textContent = 'old content';
  renderHelp(help, container as unknown as HTMLElement, { newTab, cite, cites });
  return container;
}

/** The outside links (not the table of contents) under `root`. */
function outsideLinks(root: FakeElement): FakeElement[] {
  return root.all('a').filter((a) => !(a.attributes.get('href') ?? '').startsWith('#'));
}

describe('renderHelp', () => {
  it('replaces the container content with a table of contents and the sections', () => {
    const root = render();
    expect(root.textContent).not.toContain('old content');
    expect(root.children.map((c) => c.tagName)).toEqual(['nav', 'section', 'section']);
    const nav = root.all('nav')[0];
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
    expect(root.all('thead')[0]!.all('th').map((t) => t.textContent)).toEqual(['piece', 'count']);
    // Each row named by its first cell.
    expect(root.all('tbody')[0]!.all('th').map((t) => [t.textContent, t.attributes.get('scope')])).toEqual([
      ['spy', 'row'],
      ['mine', 'row'],
    ]);
    expect(root.all('td').map((t) => t.textContent)).toEqual(['1', '2']);
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

describe('renderHelp links', () => {
  it('opens an https link in a new tab, safely, and says so inside the link', () => {
    const links = outsideLinks(render());
    expect(links).toHaveLength(1);
    const a = links[0];
    expect(a?.attributes.get('href')).toBe('https://example.org/a?q=%E8%BB%8D');
    expect(a?.attributes.get('target')).toBe('_blank');
    expect(a?.attributes.get('rel')).toBe('noopener noreferrer');
    expect(a?.textContent).toBe('Outside (new tab)');
    const note = a?.all('span') ?? [];
    expect(note.map((s) => [s.attributes.get('class'), s.textContent])).toEqual([['help-newtab', '(new tab)']]);
  });

  it('keeps the note where the template puts it, even before the link text', () => {
    const a = outsideLinks(render(doc, '[new tab] {link}'))[0];
    expect(a?.textContent).toBe('[new tab] Outside');
    expect(a?.all('span').map((s) => s.textContent)).toEqual(['[new tab]']);
  });

  it('renders any address that is not https as plain text', () => {
    const items = render().all('li').map((l) => l.textContent);
    expect(items).toEqual(expect.arrayContaining(['Script', 'Plain http', 'Relative']));
    expect(outsideLinks(render()).map((a) => a.textContent)).not.toContain('Script');
  });
});

describe('help sources', () => {
  // The sources in the order the help lists them; null: no address, so no link. The first three
  // have no address of their own that is sure to last: their links search for them.
  const expected: readonly (string | null)[] = [
    'https://cir.nii.ac.jp/all?q=%E6%97%A5%E6%9C%AC%E3%81%A8%E4%B8%96%E7%95%8C%E3%81%AE%E8%A1%8C%E8%BB%8D%E5%B0%86%E6%A3%8B', // Takahashi 2016, the paper in the institute's bulletin
    'https://search.worldcat.org/search?q=Art%20et%20savoir%20de%20l%27Inde%20Van%20Langendonckt', // Boutin 2015, the chapter in Art et savoir de l'Inde
    'https://www.google.com/search?q=%E4%B8%80%E3%83%8E%E7%80%AC%E6%AD%A6%E5%BF%97%20%E8%BB%8D%E4%BA%BA%E5%B0%86%E6%A3%8B%E3%83%AB%E3%83%BC%E3%83%AB%E7%A0%94%E7%A9%B6', // Ichinose 2014, the rule study
    'https://kotobank.jp/search?q=%E8%A1%8C%E8%BB%8D%E5%B0%86%E6%A3%8B',
    'https://kotobank.jp/search?q=%E8%BB%8D%E4%BA%BA%E5%B0%86%E6%A3%8B',
    'https://patents.google.com/patent/FR379625A',
    'https://patents.google.com/patent/US1141505A',
    'https://patents.google.com/patent/FR396795A',
    'https://ja.wikipedia.org/wiki/%E8%BB%8D%E4%BA%BA%E5%B0%86%E6%A3%8B',
    'https://en.wikipedia.org/wiki/L%27Attaque',
    'https://en.wikipedia.org/wiki/Stratego',
  ];

  for (const lang of LANGS) {
    it(`${lang}: render as links that open in a new tab`, () => {
      const newTab = CATALOGUES[lang].helpNewTab;
      const note = newTab.replace('{link}', '').trim();
      const root = render(helpContent[lang], newTab);
      const section = root.all('section').find((s) => s.attributes.get('id') === 'help-sources');
      const items = section?.all('li') ?? [];
      expect(items).toHaveLength(expected.length);
      items.forEach((li, i) => {
        const href = expected[i];
        const anchors = li.all('a');
        if (href === null || href === undefined) {
          expect(anchors, `${lang} source ${i + 1}`).toEqual([]);
          expect(li.textContent).not.toContain(note);
          return;
        }
        expect(anchors, `${lang} source ${i + 1}`).toHaveLength(1);
        const a = anchors[0];
        expect(a?.attributes.get('href')).toBe(href);
        expect(a?.attributes.get('target')).toBe('_blank');
        expect(a?.attributes.get('rel')).toBe('noopener noreferrer');
        // The whole item is the link, and the link itself carries the new-tab note.
        expect(a?.textContent).toBe(li.textContent);
        expect(a?.all('span').filter((s) => s.attributes.get('class') === 'help-newtab').map((s) => s.textContent)).toEqual([note]);
      });
    });
  }

  for (const lang of LANGS) {
    it(`${lang}: every citation links to a numbered source that is there, named in the language`, () => {
      const catalogue = CATALOGUES[lang];
      const root = render(helpContent[lang], catalogue.helpNewTab, catalogue.helpCite, catalogue.helpCites);
      const section = root.all('section').find((s) => s.attributes.get('id') === 'help-sources');
      const list = section?.all('ol') ?? [];
      expect(list).toHaveLength(1);
      const ids = list[0]?.all('li').map((li) => li.attributes.get('id')) ?? [];
      expect(ids).toEqual(expected.map((_, i) => `help-source-${i + 1}`));
      const cites = root.all('sup').flatMap((sup) => sup.all('a'));
      // The history cites its sources paragraph by paragraph; the rules and tips section by section.
      expect(cites.length).toBeGreaterThan(20);
      const cited = new Set<number>();
      for (const a of cites) {
        const n = Number(/^\[(\d+)\]$/.exec(a.textContent)?.[1]);
        expect(a.attributes.get('href')).toBe(`#help-source-${n}`);
        expect(a.attributes.get('aria-label')).toBe(catalogue.helpCite.replace('{n}', String(n)));
        expect(a.attributes.get('target')).toBeUndefined();
        cited.add(n);
      }
      // Every source is cited somewhere.
      expect([...cited].sort((a, b) => a - b)).toEqual(expected.map((_, i) => i + 1));
      const history = root.all('section').find((s) => s.attributes.get('id') === 'help-history');
      expect(history?.all('p').every((p) => p.all('sup').length === 1)).toBe(true);
      const tips = root.all('section').find((s) => s.attributes.get('id') === 'help-tips');
      const line = tips?.all('p').find((p) => p.attributes.get('class') === 'help-cites');
      expect(line?.textContent).toBe(`${catalogue.helpCites} [9]`);
    });
  }

  it('each language says "opens in a new tab" in its own words', () => {
    const notes = LANGS.map((lang) => CATALOGUES[lang].helpNewTab);
    for (const n of notes) expect(n).toContain('{link}');
    expect(new Set(notes).size).toBe(LANGS.length);
  });
});

describe('keepCounted', () => {
  it('marks Japanese words in the Korean and English help as Japanese, for a screen reader’s voice', () => {
    const mixed = (lang: 'en' | 'ko' | 'ja'): FakeElement =>
      render({ ...doc, lang, sections: [{ id: 'help-x', title: 'x', blocks: [{ kind: 'p', text: 'The general (大将) and the plane (ヒコーキ・飛行機) beat 地雷.' }] }] });
    const p = mixed('en').all('p')[0]!;
    expect(p.all('span').map((s) => [s.attributes.get('lang'), s.textContent])).toEqual([
      ['ja', '大将'],
      ['ja', 'ヒコーキ・飛行機'],
      ['ja', '地雷'],
    ]);
    expect(p.textContent).toBe('The general (大将) and the plane (ヒコーキ・飛行機) beat 地雷.');
    expect(mixed('ko').all('span')).toHaveLength(3);
    // The Japanese help is Japanese throughout: the page's own language says so.
    expect(mixed('ja').all('span')).toHaveLength(0);
    // Korean words are Korean, not Japanese.
    const ko = render({ ...doc, lang: 'ko', sections: [{ id: 'help-y', title: 'y', blocks: [{ kind: 'p', text: '대장은 가장 강합니다.' }] }] });
    expect(ko.all('span')).toHaveLength(0);
  });

  it('keeps a number with the Japanese or Korean counter after it, and leaves other spaces', () => {
    expect(keepCounted('6 種類の駒、100 手で引き分け')).toBe('6\u00a0種類の駒、100\u00a0手で引き分け');
    expect(keepCounted('말 23 개')).toBe('말 23\u00a0개');
    expect(keepCounted('6 kinds in 2 rows')).toBe('6 kinds in 2 rows');
  });
});

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { en } from '../i18n/en';
import { ja } from '../i18n/ja';
import { ko } from '../i18n/ko';
import { helpContent, type HelpDocument, type HelpSection } from './content';

const docs: Record<string, HelpDocument> = helpContent;

/** Every user-visible string of a document. */
function texts(doc: HelpDocument): string[] {
  const out = [doc.title, doc.tocLabel];
  const walk = (s: HelpSection): void => {
    out.push(s.id, s.title);
    for (const b of s.blocks) {
      switch (b.kind) {
        case 'p':
          out.push(b.text);
          break;
        case 'ul':
        case 'sources':
          out.push(...b.items.map((item) => (typeof item === 'string' ? item : item.text)));
          break;
        case 'qa':
          out.push(b.q, b.a);
          break;
        case 'table':
          out.push(...b.head, ...b.rows.flat());
          break;
      }
    }
    for (const sub of s.subsections ?? []) walk(sub);
  };
  for (const s of doc.sections) walk(s);
  return out;
}

function sectionIds(doc: HelpDocument): string[] {
  const out: string[] = [];
  const walk = (s: HelpSection): void => {
    out.push(s.id);
    for (const sub of s.subsections ?? []) walk(sub);
  };
  for (const s of doc.sections) walk(s);
  return out;
}

/** How each language's help names a label of the page: quoted, or heading a list item. */
const NAMINGS: Record<string, ((label: string) => string)[]> = {
  en: [(label) => `“${label}”`, (label) => `\n${label}: `],
  ja: [(label) => `「${label}」`, (label) => `\n${label}：`],
  ko: [(label) => `‘${label}’`, (label) => `\n${label}: `],
};

/** Controls the help tells the reader to press: it must call them what the page calls them. */
const CONTROLS = [
  'view3dDiagonal',
  'view3dTop',
  'rearrange',
  'mirror',
  'previous',
  'confirm',
  'handOver',
  'resign',
  'playAgain',
  'chooseModeAgain',
  'sound',
] as const;

describe('help content', () => {
  for (const [lang, catalogue] of Object.entries({ en, ja, ko })) {
    it(`${lang}: names the controls it explains by the page's own labels`, () => {
      const text = `\n${texts(docs[lang]!).join('\n')}`;
      const named = (label: string): boolean => NAMINGS[lang]!.some((name) => text.includes(name(label)));
      expect(CONTROLS.filter((key) => !named(catalogue[key])).map((key) => catalogue[key])).toEqual([]);
    });
  }

  it('has the same sections, in the same order, in every language', () => {
    const ja = sectionIds(helpContent.ja);
    expect(ja.length).toBeGreaterThan(10);
    expect(sectionIds(helpContent.ko)).toEqual(ja);
    expect(sectionIds(helpContent.en)).toEqual(ja);
  });

  it('cites the same sources in the same places in every language, each one in the list', () => {
    const cites = (doc: HelpDocument): string[] => {
      const out: string[] = [];
      const walk = (s: HelpSection): void => {
        out.push(`${s.id}:${(s.cites ?? []).join(',')}`);
        s.blocks.forEach((b, i) => {
          if (b.kind === 'p' && b.cites !== undefined) out.push(`${s.id}.${i}:${b.cites.join(',')}`);
        });
        for (const sub of s.subsections ?? []) walk(sub);
      };
      doc.sections.forEach(walk);
      return out;
    };
    expect(cites(helpContent.ko)).toEqual(cites(helpContent.ja));
    expect(cites(helpContent.en)).toEqual(cites(helpContent.ja));
    for (const doc of Object.values(docs)) {
      const lists = doc.sections.flatMap((s) => s.blocks).filter((b) => b.kind === 'sources');
      expect(lists).toHaveLength(1);
      const count = lists[0]?.kind === 'sources' ? lists[0].items.length : 0;
      const numbers = cites(doc).flatMap((c) => c.split(':')[1]?.split(',').filter((n) => n !== '').map(Number) ?? []);
      expect(numbers.length).toBeGreaterThan(20);
      for (const n of numbers) expect(Number.isInteger(n) && n >= 1 && n <= count, `source ${n}`).toBe(true);
    }
  });

  it('has the same block shapes in every language', () => {
    const shape = (doc: HelpDocument): string[] => {
      const out: string[] = [];
      const walk = (s: HelpSection): void => {
        for (const b of s.blocks) {
          out.push(
            `${s.id}:${b.kind}:${b.kind === 'ul' || b.kind === 'sources' ? b.items.length : b.kind === 'table' ? b.rows.length : 1}`,
          );
        }
        for (const sub of s.subsections ?? []) walk(sub);
      };
      doc.sections.forEach(walk);
      return out;
    };
    expect(shape(helpContent.ko)).toEqual(shape(helpContent.ja));
    expect(shape(helpContent.en)).toEqual(shape(helpContent.ja));
  });

  it('lists the 23 pieces with the spec names and counts', () => {
    // Spec §2 order: id, ja, ko, count.
    const spec: [string, string, number][] = [
      ['大将', '대장', 1],
      ['中将', '중장', 1],
      ['少将', '소장', 1],
      ['大佐', '대령', 1],
      ['中佐', '중령', 1],
      ['少佐', '소령', 1],
      ['大尉', '대위', 2],
      ['中尉', '중위', 2],
      ['少尉', '소위', 2],
      ['騎兵', '기병', 1],
      ['工兵', '공병', 2],
      ['タンク', '탱크', 2],
      ['飛行機', '비행기', 2],
      ['スパイ', '스파이', 1],
      ['地雷', '지뢰', 2],
      ['軍旗', '군기', 1],
    ];
    const table = (doc: HelpDocument): readonly (readonly string[])[] => {
      const pieces = doc.sections
        .flatMap((s) => s.subsections ?? [])
        .find((s) => s.id === 'help-pieces');
      const block = pieces?.blocks.find((b) => b.kind === 'table');
      return block?.kind === 'table' ? block.rows : [];
    };
    expect(table(helpContent.ja).map((r) => [r[0], Number(r[1])])).toEqual(
      spec.map(([ja, , n]) => [ja, n]),
    );
    expect(table(helpContent.ko).map((r) => [r[0], Number(r[1])])).toEqual(
      spec.map(([, ko, n]) => [ko, n]),
    );
    expect(table(helpContent.en).map((r) => Number(r[1]))).toEqual(spec.map(([, , n]) => n));
    expect(spec.reduce((sum, [, , n]) => sum + n, 0)).toBe(23);
  });

  for (const [lang, doc] of Object.entries(docs)) {
    it(`${lang}: has no empty strings, tables are rectangular, ids are unique`, () => {
      for (const t of texts(doc)) expect(t.trim()).not.toBe('');
      const ids = sectionIds(doc);
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of ids) expect(id).toMatch(/^help-[a-z0-9-]+$/);
      const walk = (s: HelpSection): void => {
        for (const b of s.blocks) {
          if (b.kind === 'table') {
            for (const row of b.rows) expect(row.length).toBe(b.head.length);
          }
          if (b.kind === 'ul') expect(b.items.length).toBeGreaterThan(0);
        }
        for (const sub of s.subsections ?? []) walk(sub);
      };
      doc.sections.forEach(walk);
    });

    it(`${lang}: names games like this one: one of hidden information and one of board battles`, () => {
      const similar = doc.sections.find((s) => s.id === 'help-similar');
      const items = similar?.blocks.flatMap((b) => (b.kind === 'ul' ? b.items : [])) ?? [];
      const names: Record<string, readonly RegExp[]> = {
        ja: [/ヒットアンドブロー/, /チェッカー/],
        ko: [/히트 앤드 블로/, /체커/],
        en: [/Hit and Blow/, /Checkers/],
      };
      for (const name of names[lang] ?? [/$^/]) {
        expect(items.some((item) => typeof item === 'string' && name.test(item)), String(name)).toBe(true);
      }
    });

    it(`${lang}: has at least seven FAQ entries`, () => {
      const faq = doc.sections.find((s) => s.id === 'help-faq');
      expect(faq?.blocks.filter((b) => b.kind === 'qa').length ?? 0).toBeGreaterThanOrEqual(7);
    });
  }
});

// --- Copied-text check: no run of RUN characters of any seed document may appear in the help.

const RUN = 16;
const here = dirname(fileURLToPath(import.meta.url));
const seedDir = process.env['GUNJIN_SEEDS'] ?? resolve(here, '../../../../shared/seeds');

/**
 * Names the seeds give that the help may repeat word for word: UI labels, piece names and the
 * titles / authors of the sources. In the seeds and in the help alike, each is replaced by one
 * placeholder character before the check: a name then counts as a single character of a run, so
 * it never makes a match on its own, while a seed sentence built around it is still caught. Each
 * entry must occur in a seed (checked below), so the list cannot become a way around the check.
 */
const ALLOWED: readonly string[] = [
  // UI labels, as the seed quotes them (ja).
  '「おまかせで並べ直す」',
  '「左右反転」',
  '「前回の並べ方」',
  '「この並べ方で決定」',
  '「決定して相手を待つ」',
  '「もう一度」',
  '「投了」',
  '「遊び方を選び直す」',
  '「斜めから」',
  '「真上から」',
  '「勝敗表」',
  '「ボタンで操作」',
  '「先手の番を始める」',
  '「後手の番を始める」',
  '「交代する」',
  // The page's button that ends a friend game for a new one against the CPU (its own label).
  'CPU と新しく対局する（今の対局は終わります）',
  // UI labels, as the seed quotes them (ko).
  '‘자동 배치’',
  '‘좌우 반전’',
  '‘지난번 배치’',
  '‘이 배치로 확정’',
  '‘비스듬히’',
  '‘위에서’',
  '‘승패표’',
  '‘버튼으로 조작’',
  '‘교대하기’',
  '‘플레이 방식 다시 선택하기’',
  'AI와 새 게임 시작하기(지금 게임은 끝납니다)',
  // Piece names: the six ranks that can occupy the HQ.
  '大将・中将・少将・大佐・中佐・少佐',
  '대장·중장·소장·대령·중령·소령',
  // Proper names: sources, their authors and editors.
  '大阪商業大学アミューズメント産業研究所紀要',
  '오사카 상업대학 어뮤즈먼트 산업연구소 기요',
  '一ノ瀬武志',
  '軍人将棋ルール研究',
  'Art et savoir de l\u2019Inde',
  'Michel Van Langendonckt',
  'Jeu de la guerre',
  'Josephine E. Tilden',
];

/** Stands in for an allowed name (it occurs in no seed or help text). */
const MASK = '\u0000';

/** Two views of a text: whitespace collapsed to one space, and NFKC with all whitespace removed. */
const views: readonly ((text: string) => string)[] = [
  (text) => text.replace(/\s+/g, ' '),
  (text) => text.normalize('NFKC').replace(/\s+/g, ''),
];

/** The views of a text, each allowed name replaced by MASK (longest names first). */
function maskedViews(text: string): string[] {
  const names = [...ALLOWED].sort((a, b) => b.length - a.length);
  return views.map((view) => {
    let t = view(text);
    for (const name of names) t = t.split(view(name)).join(MASK);
    return t;
  });
}

/** Straight and curly apostrophes are the same letter for the "is it in a seed" check. */
const apostrophes = (text: string): string => text.replace(/\u2019/g, "'");

function seedTexts(): string[] {
  return readdirSync(seedDir)
    .filter((name) => name.endsWith('.txt'))
    .map((name) => readFileSync(join(seedDir, name), 'utf8'));
}

function seedRuns(): Set<string> {
  const runs = new Set<string>();
  for (const seed of seedTexts()) {
    for (const text of maskedViews(seed)) {
      for (let i = 0; i + RUN <= text.length; i++) runs.add(text.slice(i, i + RUN));
    }
  }
  return runs;
}

/** The longest stretches of `text` made of runs that also occur in the seeds (names shown as «…»). */
function copiedRuns(text: string, runs: Set<string>): string[] {
  const hits: string[] = [];
  const show = (hit: string): string => hit.split(MASK).join('«…»');
  for (const t of maskedViews(text)) {
    let end = -1;
    let start = -1;
    for (let i = 0; i + RUN <= t.length; i++) {
      if (!runs.has(t.slice(i, i + RUN))) continue;
      if (i > end) {
        if (start >= 0) hits.push(show(t.slice(start, end)));
        start = i;
      }
      end = i + RUN;
    }
    if (start >= 0) hits.push(show(t.slice(start, end)));
  }
  return hits;
}

describe.skipIf(!existsSync(seedDir))('help content is written in our own words', () => {
  // The body of a skipped describe still runs at collection: read the seeds only if present.
  const seeds = existsSync(seedDir) ? seedTexts() : [];
  const runs = existsSync(seedDir) ? seedRuns() : new Set<string>();
  const collapsed = seeds.map((s) => s.replace(/\s+/g, ' '));

  it('every allowed name really is a name from a seed', () => {
    const flat = collapsed.map(apostrophes);
    for (const name of ALLOWED) {
      const wanted = apostrophes(name).replace(/\s+/g, ' ');
      expect(flat.some((s) => s.includes(wanted)), name).toBe(true);
    }
    for (const text of [...seeds, ...Object.values(docs).flatMap(texts)]) {
      expect(text.includes(MASK)).toBe(false);
    }
  });

  it(`the check finds a copied run of ${RUN} characters, but not one of ${RUN - 1}`, () => {
    const body = collapsed.find((s) => s.length > 400) ?? '';
    expect(body).not.toBe('');
    const at = body.indexOf('。', 200) + 1 || body.indexOf('. ', 200) + 2;
    const run = body.slice(at, at + RUN);
    expect(copiedRuns(`前置き${run}後書き`, runs)[0]).toBe(run);
    // One character short of a run is not flagged.
    expect(copiedRuns(`〓${run.slice(0, RUN - 1)}〓`, runs)).toEqual([]);
  });

  it('the check finds a copied sentence even when it is built around allowed labels', () => {
    for (const label of ['「左右反転」', '「真上から」', '‘비스듬히’']) {
      const seed = collapsed.find((s) => s.includes(label)) ?? '';
      const at = seed.indexOf(label);
      const from = Math.max(seed.lastIndexOf('。', at), seed.lastIndexOf('. ', at)) + 1;
      const ends = [seed.indexOf('。', at), seed.indexOf('. ', at)].filter((i) => i >= 0);
      const sentence = seed.slice(from, Math.min(...ends) + 1).trim();
      expect(sentence, label).toContain(label);
      expect(copiedRuns(sentence, runs).length, sentence).toBeGreaterThan(0);
    }
    // An allowed label inside our own sentence is fine.
    expect(copiedRuns('並びを鏡に映したいなら「左右反転」を使ってください。', runs)).toEqual([]);
  });

  for (const [lang, doc] of Object.entries(docs)) {
    it(`${lang}: copies no ${RUN}-character run of a seed`, () => {
      const hits = texts(doc).flatMap((t) => copiedRuns(t, runs));
      expect(hits).toEqual([]);
    });
  }

  // The page's own strings (mode descriptions, hints, curtains) are user-facing sentences too.
  for (const [lang, catalogue] of Object.entries({ ja, ko, en })) {
    it(`${lang}: the page's strings copy no ${RUN}-character run of a seed`, () => {
      const hits = Object.entries(catalogue).flatMap(([key, value]) =>
        typeof value === 'string' ? copiedRuns(value, runs).map((hit) => `${key}: ${hit}`) : [],
      );
      expect(hits).toEqual([]);
    });
  }
});

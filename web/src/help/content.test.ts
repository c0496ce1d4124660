import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
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

describe('help content', () => {
  it('has the same sections, in the same order, in every language', () => {
    const ja = sectionIds(helpContent.ja);
    expect(ja.length).toBeGreaterThan(10);
    expect(sectionIds(helpContent.ko)).toEqual(ja);
    expect(sectionIds(helpContent.en)).toEqual(ja);
  });

  it('has the same block shapes in every language', () => {
    const shape = (doc: HelpDocument): string[] => {
      const out: string[] = [];
      const walk = (s: HelpSection): void => {
        for (const b of s.blocks) {
          out.push(
            `${s.id}:${b.kind}:${b.kind === 'ul' ? b.items.length : b.kind === 'table' ? b.rows.length : 1}`,
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

    it(`${lang}: has at least seven FAQ entries`, () => {
      const faq = doc.sections.find((s) => s.id === 'help-faq');
      expect(faq?.blocks.filter((b) => b.kind === 'qa').length ?? 0).toBeGreaterThanOrEqual(7);
    });
  }
});

// --- Copied-text check: no run of RUN characters of any seed document may appear in the help.

const RUN = 24;
const here = dirname(fileURLToPath(import.meta.url));
const seedDir = process.env['GUNJIN_SEEDS'] ?? resolve(here, '../../../../shared/seeds');

/** Two views of a text: whitespace collapsed to one space, and NFKC with all whitespace removed. */
function normalized(text: string): string[] {
  return [text.replace(/\s+/g, ' '), text.normalize('NFKC').replace(/\s+/g, '')];
}

function seedRuns(): Set<string> {
  const runs = new Set<string>();
  for (const name of readdirSync(seedDir)) {
    if (!name.endsWith('.txt')) continue;
    for (const text of normalized(readFileSync(join(seedDir, name), 'utf8'))) {
      for (let i = 0; i + RUN <= text.length; i++) runs.add(text.slice(i, i + RUN));
    }
  }
  return runs;
}

/** The longest stretches of `text` made of runs that also occur in the seeds. */
function copiedRuns(text: string, runs: Set<string>): string[] {
  const hits: string[] = [];
  for (const t of normalized(text)) {
    let end = -1;
    let start = -1;
    for (let i = 0; i + RUN <= t.length; i++) {
      if (!runs.has(t.slice(i, i + RUN))) continue;
      if (i > end) {
        if (start >= 0) hits.push(t.slice(start, end));
        start = i;
      }
      end = i + RUN;
    }
    if (start >= 0) hits.push(t.slice(start, end));
  }
  return hits;
}

describe.skipIf(!existsSync(seedDir))('help content is written in our own words', () => {
  // The body of a skipped describe still runs at collection: read the seeds only if present.
  const runs = existsSync(seedDir) ? seedRuns() : new Set<string>();

  it('the check itself finds a copied run', () => {
    const seed = readdirSync(seedDir).find((n) => n.endsWith('.txt'));
    expect(seed).toBeDefined();
    const body = readFileSync(join(seedDir, seed ?? ''), 'utf8').replace(/\s+/g, ' ');
    const sample = `前置き${body.slice(200, 200 + RUN + 5)}後書き`;
    expect(copiedRuns(sample, runs).length).toBeGreaterThan(0);
  });

  for (const [lang, doc] of Object.entries(docs)) {
    it(`${lang}: copies no ${RUN}-character run of a seed`, () => {
      const hits = texts(doc).flatMap((t) => copiedRuns(t, runs));
      expect(hits).toEqual([]);
    });
  }
});

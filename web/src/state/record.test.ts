import { describe, expect, it } from 'vitest';
import { I18n } from '../i18n';
import { testEngine } from '../test-engine';
import { gameRecordText } from './record';
import { reviewFrames } from './review';

/** A short game of the first legal moves from two automatic arrangements, ended by resignation. */
function shortGame(plies: number) {
  const engine = testEngine();
  const setups = { sente: engine.autoArrangement('sente', 7), gote: engine.autoArrangement('gote', 8) };
  const game = engine.newGame(setups.sente, setups.gote);
  for (let i = 0; i < plies; i++) {
    const [from, to] = game.legalMoves()[i % 3]!;
    game.play(from, to);
  }
  const history = game.view('sente').history;
  game.dispose();
  return { engine, setups, frames: reviewFrames(setups, history), history };
}

describe('gameRecordText', () => {
  it('writes the header, both arrangements square by square and every move with its kinds', () => {
    const { engine, setups, frames, history } = shortGame(12);
    const t = new I18n(engine.kinds, undefined, []);
    t.setLang('en');
    const text = gameRecordText(t, {
      mode: 'Play the CPU (beginner)',
      result: ['Gote wins: Sente resigned.'],
      date: new Date(2026, 11, 5, 13, 0),
      frames,
    });
    const lines = text.split('\n');
    expect(lines.slice(0, 2)).toEqual(['Gunjin Shogi — Play the CPU (beginner) — 2026-12-05', 'Gote wins: Sente resigned.']);
    expect(text.endsWith('\n')).toBe(true);
    // Every square of both arrangements, each once, with its kind's name.
    for (const side of ['sente', 'gote'] as const) {
      for (const [square, kind] of Object.entries(setups[side])) {
        const found = lines.filter((l) => l.startsWith('  ') && l.includes(`${square} ${t.kind(kind)}`));
        expect(found, `${side} ${square}`).toHaveLength(1);
      }
    }
    expect(lines).toContain('Sente: arrangement');
    expect(lines).toContain('Gote: arrangement');
    // Sente's back row first, gote's back row first (as each sees its camp).
    const senteRows = lines.slice(lines.indexOf('Sente: arrangement') + 1, lines.indexOf('Sente: arrangement') + 5);
    expect(senteRows[0]).toMatch(/^ {2}a1 /);
    expect(senteRows[3]).toMatch(/^ {2}a4 /);
    const goteFirst = lines[lines.indexOf('Gote: arrangement') + 1];
    expect(goteFirst).toMatch(/^ {2}a8 /);
    // One numbered line per ply, in order, naming the mover's kind.
    const plyLines = lines.filter((l) => /^\d+\. /.test(l));
    expect(plyLines).toHaveLength(history.length);
    history.forEach((ply, i) => {
      const mover = setups[ply.side][ply.from];
      expect(plyLines[i]).toContain(`${i + 1}. `);
      expect(plyLines[i]).toContain(`${ply.from} → ${ply.to}`);
      if (i === 0 && mover !== undefined) expect(plyLines[i]).toContain(t.kind(mover));
    });
  });

  it('speaks the page language', () => {
    const { engine, frames } = shortGame(2);
    const ja = gameRecordText(new I18n(engine.kinds, undefined, ['ja']), { mode: 'CPU', result: [], date: new Date(2026, 0, 2), frames });
    expect(ja.split('\n')[0]).toBe('軍人将棋（CPU） 2026-01-02');
    expect(ja).toContain('先手の配置');
    expect(ja).toContain('1. 先手の');
    const ko = gameRecordText(new I18n(engine.kinds, undefined, ['ko']), { mode: 'AI', result: [], date: new Date(2026, 0, 2), frames });
    expect(ko).toContain('선공 배치');
    expect(ko.split('\n')[0]).toBe('군인장기 — AI — 2026-01-02');
  });
});

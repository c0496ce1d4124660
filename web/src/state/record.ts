/**
 * A finished game as text a player can keep or share (the "copy the game record" button under
 * the review): both arrangements and every move with the kinds that took part, in the page's
 * language. Everything is revealed once the game is over, so nothing here is hidden from anyone.
 */
import type { Ply, Side, Square } from '../engine';
import type { I18n } from '../i18n';
import type { ReviewFrame, RevealedPiece } from './review';

/** What a ply did, with the kinds that took part (taken from the position before it). */
export function plyLine(t: I18n, before: readonly RevealedPiece[], ply: Ply): string {
  const kindAt = (sq: Square): string => {
    const k = before.find((p) => p.square === sq)?.kind;
    return k === undefined ? '' : t.kind(k);
  };
  const params = { side: t.side(ply.side), kind: kindAt(ply.from), from: ply.from, to: ply.to };
  return ply.battle === null
    ? t.t('reviewMove', params)
    : t.t('reviewBattle', { ...params, defender: kindAt(ply.to), outcome: t.t(`outcome_${ply.battle.outcome}`) });
}

/** Row then column, the side's back row first, as the side sees its camp. */
function arrangementLines(t: I18n, pieces: readonly RevealedPiece[], side: Side): string[] {
  const own = pieces.filter((p) => p.side === side);
  const row = (sq: Square): number => Number(sq.replace(/^[a-f]+/, ''));
  const rows = [...new Set(own.map((p) => row(p.square)))].sort((a, b) => (side === 'sente' ? a - b : b - a));
  return rows.map((r) =>
    own
      .filter((p) => row(p.square) === r)
      .sort((a, b) => a.square.localeCompare(b.square))
      .map((p) => `${p.square} ${t.kind(p.kind)}`)
      .join(' · '),
  );
}

export interface RecordInput {
  /** The mode's name as the start screen shows it. */
  readonly mode: string;
  /** How the game ended, told of the sides (not "you won": the record is shared). */
  readonly result: readonly string[];
  /** When the game ended (the record says the day). */
  readonly date: Date;
  /** Every position from the arrangements to the end (`reviewFrames`). */
  readonly frames: readonly ReviewFrame[];
}

/** The whole record as lines of text, ending with a newline. */
export function gameRecordText(t: I18n, input: RecordInput): string {
  const day = [input.date.getFullYear(), input.date.getMonth() + 1, input.date.getDate()]
    .map((n, i) => String(n).padStart(i === 0 ? 4 : 2, '0'))
    .join('-');
  const lines = [t.t('recordHeader', { title: t.t('appTitle'), mode: input.mode, date: day }), ...input.result, ''];
  const start = input.frames[0]?.pieces ?? [];
  for (const side of ['sente', 'gote'] as const) {
    lines.push(t.t('recordArrangement', { side: t.side(side) }), ...arrangementLines(t, start, side).map((l) => `  ${l}`), '');
  }
  input.frames.forEach((frame, i) => {
    const before = input.frames[i - 1];
    if (frame.ply === null || before === undefined) return;
    lines.push(t.t('recordPly', { n: i, line: plyLine(t, before.pieces, frame.ply) }));
  });
  return `${lines.join('\n')}\n`;
}

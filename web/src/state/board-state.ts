/** The board to draw for the match's current phase, from the viewer's view only. */
import { opponent, type Arrangement, type Side, type View } from '../engine';
import type { BoardState, PieceState } from '../board';
import type { Match } from './match';

function fromView(view: View, label: (kind: string) => string, hideAll: boolean): PieceState[] {
  return Object.entries(view.pieces).map(([square, p]) => {
    const kind = hideAll ? undefined : p.kind;
    return { square, side: p.side, kind, label: kind === undefined ? undefined : label(kind) };
  });
}

function hidden(arrangement: Arrangement | undefined, side: Side): PieceState[] {
  return Object.keys(arrangement ?? {}).map((square) => ({ square, side }));
}

/**
 * The board state for whoever looks now. While a curtain is down no kind appears at all.
 */
export function boardState(match: Match, label: (kind: string) => string): BoardState {
  const p = match.phase;
  const empty = { moveTargets: [], attackTargets: [] } as const;
  switch (p.kind) {
    case 'setup-curtain': {
      // Arrangements confirmed so far, face down.
      const pieces = [...hidden(match.arrangement('sente'), 'sente'), ...hidden(match.arrangement('gote'), 'gote')];
      return { viewer: p.side, pieces, ...empty };
    }
    case 'setup': {
      const own = Object.entries(p.setup.arrangement).map(([square, kind]) => ({
        square,
        side: p.side,
        kind,
        label: label(kind),
      }));
      const other = opponent(p.side);
      return {
        viewer: p.side,
        pieces: [...own, ...hidden(match.arrangement(other), other)],
        selected: p.setup.chosen ?? undefined,
        ...empty,
      };
    }
    default:
      break;
  }
  const view = match.view(p.side);
  if (view === null) return { viewer: p.side, pieces: [], ...empty };
  const last = view.history[view.history.length - 1];
  const lastMove = last === undefined ? undefined : { from: last.from, to: last.to };
  const battle = last?.battle ?? undefined;
  if (p.kind === 'turn-curtain') {
    return { viewer: p.side, pieces: fromView(view, label, true), lastMove, ...empty };
  }
  const sel = p.kind === 'turn' ? match.selected : null;
  return {
    viewer: p.side,
    pieces: fromView(view, label, false),
    selected: sel?.square,
    moveTargets: sel?.destinations.moves ?? [],
    attackTargets: sel?.destinations.attacks ?? [],
    lastMove,
    battle,
  };
}

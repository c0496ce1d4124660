/**
 * The board as a 6×8 grid of buttons (the HQ is one button spanning two columns). It mirrors the
 * board for keyboards and screen readers and is the whole board where WebGL is missing.
 *
 * Arrow keys move between squares (one tab stop for the whole grid), Enter or Space presses.
 * Each button's accessible name begins with its square and says what stands there.
 */
import type { BoardState, BoardView, PieceState } from '../board';
import type { Side, Square, SquareInfo } from '../engine';

/** Text the grid needs, in the page's language. */
export interface GridText {
  /** Accessible name of the grid. */
  label: string;
  river: string;
  empty(square: Square): string;
  own(square: Square, kind: string): string;
  enemy(square: Square): string;
  /** A piece of either side with its kind (after the end) or without (behind the curtain). */
  revealed(square: Square, side: Side, kind: string): string;
  hidden(square: Square, side: Side): string;
  selected: string;
  move: string;
  attack: string;
  last: string;
  hq: string;
  /** The four bridge ends, where no mine or flag may stand. */
  entrance: string;
  enemyMark: string;
  /** Joins the parts of a square's name (a language's list separator). */
  separator: string;
}

interface Cell {
  readonly info: SquareInfo;
  readonly button: HTMLButtonElement;
  readonly face: HTMLSpanElement;
}

function sameWords(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** Visual placement of a square for a viewer: row 0 at the top, columns c0..c1 (HQ spans two). */
export function placement(info: SquareInfo, viewer: Side): { row: number; c0: number; c1: number } {
  const row = viewer === 'sente' ? 8 - info.row : info.row - 1;
  if (info.hq) return { row, c0: 2, c1: 3 };
  const col = viewer === 'sente' ? info.col : 5 - info.col;
  return { row, c0: col, c1: col };
}

export class GridBoard implements BoardView {
  readonly element: HTMLDivElement;
  private readonly cells = new Map<Square, Cell>();
  private readonly river: HTMLDivElement;
  private readonly listeners = new Set<(square: Square) => void>();
  private state: BoardState | null = null;
  private focusSquare: Square;
  /** The column a vertical walk tries to keep (so passing through an HQ does not drift). */
  private wantedCol = 0;
  private text: GridText;
  private interactive = true;

  constructor(squares: readonly SquareInfo[], text: GridText) {
    this.text = text;
    const d = document;
    this.element = d.createElement('div');
    this.element.className = 'grid';
    this.element.setAttribute('role', 'group');
    this.river = d.createElement('div');
    this.river.className = 'river';
    this.river.setAttribute('aria-hidden', 'true');
    // Not a place to stop on, but where the bridges are matters: the board's description.
    this.river.id = 'grid-river';
    this.element.setAttribute('aria-describedby', this.river.id);
    this.element.appendChild(this.river);
    for (const info of squares) {
      const button = d.createElement('button');
      button.type = 'button';
      button.className = 'cell';
      button.dataset['square'] = info.name;
      button.tabIndex = -1;
      const coord = d.createElement('span');
      coord.className = 'coord';
      coord.setAttribute('aria-hidden', 'true');
      coord.textContent = info.name;
      const face = d.createElement('span');
      face.className = 'face';
      face.setAttribute('aria-hidden', 'true');
      button.append(coord, face);
      button.addEventListener('click', () => this.pressed(info.name));
      button.addEventListener('focus', () => {
        this.focusSquare = info.name;
        this.updateTabStop();
      });
      this.cells.set(info.name, { info, button, face });
      this.element.appendChild(button);
    }
    this.focusSquare = squares.find((s) => s.name === 'b3')?.name ?? squares[0]?.name ?? 'a1';
    this.element.addEventListener('keydown', (e) => this.onKey(e));
    this.setText(text);
    this.layout('sente');
    this.updateTabStop();
  }

  setText(text: GridText): void {
    this.text = text;
    this.element.setAttribute('aria-label', text.label);
    this.river.textContent = text.river;
    if (this.state !== null) this.setState(this.state);
  }

  /** Whether presses do anything. Off (the start screen, a curtain), the grid is also out of the
   * Tab order and the reading: nothing there to press. */
  setInteractive(on: boolean): void {
    this.interactive = on;
    this.element.classList.toggle('inert', !on);
    this.element.inert = !on;
  }

  onSquare(listener: (square: Square) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  setState(state: BoardState): void {
    const previous = this.state;
    this.state = state;
    if (previous === null || previous.viewer !== state.viewer) this.layout(state.viewer);
    const pieces = new Map<Square, PieceState>();
    for (const p of state.pieces) pieces.set(p.square, p);
    const moves = new Set(state.moveTargets);
    const attacks = new Set(state.attackTargets);
    for (const [square, cell] of this.cells) {
      const piece = pieces.get(square);
      const flags = {
        selected: state.selected === square,
        move: moves.has(square),
        attack: attacks.has(square),
        last: state.lastMove !== undefined && (state.lastMove.from === square || state.lastMove.to === square),
      };
      const b = cell.button;
      b.classList.toggle('selected', flags.selected);
      b.classList.toggle('move', flags.move);
      b.classList.toggle('attack', flags.attack);
      b.classList.toggle('last', flags.last);
      b.classList.toggle('has-piece', piece !== undefined);
      b.classList.toggle('sente', piece?.side === 'sente');
      b.classList.toggle('gote', piece?.side === 'gote');
      b.classList.toggle('own', piece !== undefined && piece.side === state.viewer);
      b.classList.toggle('enemy', piece !== undefined && piece.side !== state.viewer);
      b.classList.toggle('known', piece?.label !== undefined);
      b.classList.toggle('hq', cell.info.hq);
      b.classList.toggle('camp-sente', cell.info.camp === 'sente');
      b.classList.toggle('camp-gote', cell.info.camp === 'gote');
      const text = piece === undefined ? '' : (piece.face ?? piece.label ?? (piece.side !== state.viewer ? this.text.enemyMark : ''));
      cell.face.textContent = text;
      // A long word ("lieutenant") is set to the square's width, not the page's (CSS).
      cell.face.toggleAttribute('data-long', text.split(/\s+/).some((word) => word.length > 7));
      if (piece?.kind !== undefined) b.dataset['kind'] = piece.kind;
      else delete b.dataset['kind'];
      const place = cell.info.hq ? this.text.hq : cell.info.entrance ? this.text.entrance : null;
      b.setAttribute('aria-label', this.name(square, piece, state.bySide === true ? null : state.viewer, flags, place));
    }
  }

  /** `viewer` null: nobody's in particular, every piece named by its side. */
  private name(
    square: Square,
    piece: PieceState | undefined,
    viewer: Side | null,
    flags: { selected: boolean; move: boolean; attack: boolean; last: boolean },
    place: string | null,
  ): string {
    const t = this.text;
    let main: string;
    // The name holds what the square shows, so that a voice user can say it ("Lt. Col.").
    const label =
      piece?.label === undefined || piece.face === undefined || sameWords(piece.face, piece.label)
        ? piece?.label
        : `${piece.label} (${piece.face})`;
    if (piece === undefined) main = t.empty(square);
    else if (piece.side === viewer && label !== undefined) main = t.own(square, label);
    else if (viewer !== null && piece.side !== viewer && label === undefined) main = t.enemy(square);
    else if (label !== undefined) main = t.revealed(square, piece.side, label);
    else main = t.hidden(square, piece.side);
    const extra: string[] = [];
    if (place !== null) extra.push(place);
    if (flags.selected) extra.push(t.selected);
    if (flags.move) extra.push(t.move);
    if (flags.attack) extra.push(t.attack);
    if (flags.last) extra.push(t.last);
    return [main, ...extra].join(t.separator);
  }

  private layout(viewer: Side): void {
    const placed: { button: HTMLButtonElement; row: number; c0: number }[] = [];
    for (const cell of this.cells.values()) {
      const at = placement(cell.info, viewer);
      const gridRow = at.row + 1 + (at.row >= 4 ? 1 : 0);
      cell.button.style.gridRow = String(gridRow);
      cell.button.style.gridColumn = `${at.c0 + 1} / ${at.c1 + 2}`;
      cell.button.dataset['row'] = String(at.row);
      cell.button.dataset['c0'] = String(at.c0);
      cell.button.dataset['c1'] = String(at.c1);
      placed.push({ button: cell.button, row: at.row, c0: at.c0 });
    }
    // A screen reader reads the squares in document order: make it the order on screen, from
    // the far row down to the viewer's own, each row left to right.
    const focused = document.activeElement;
    placed.sort((a, b) => a.row - b.row || a.c0 - b.c0);
    for (const { button } of placed) this.element.appendChild(button);
    if (focused instanceof HTMLElement && this.element.contains(focused) && document.activeElement !== focused) {
      focused.focus({ preventScroll: true });
    }
    this.element.dataset['viewer'] = viewer;
  }

  /**
   * Moves the focus to `square` (or the grid's tab stop). The page scrolls to it only when
   * `scroll` is set (the player is moving through the grid): a focus the page places by itself
   * must not pull a player who plays on the 3D board away from it.
   */
  focus(square?: Square, scroll = false): void {
    if (square !== undefined && this.cells.has(square)) this.focusSquare = square;
    this.updateTabStop();
    this.cells.get(this.focusSquare)?.button.focus({ preventScroll: !scroll });
  }

  private updateTabStop(): void {
    for (const [square, cell] of this.cells) cell.button.tabIndex = square === this.focusSquare ? 0 : -1;
  }

  private cellAt(row: number, col: number): Square | undefined {
    for (const [square, cell] of this.cells) {
      const at = placement(cell.info, this.state?.viewer ?? 'sente');
      if (at.row === row && col >= at.c0 && col <= at.c1) return square;
    }
    return undefined;
  }

  private onKey(e: KeyboardEvent): void {
    const cell = this.cells.get(this.focusSquare);
    if (cell === undefined) return;
    const at = placement(cell.info, this.state?.viewer ?? 'sente');
    let target: Square | undefined;
    switch (e.key) {
      case 'ArrowLeft':
        target = this.cellAt(at.row, at.c0 - 1);
        if (target !== undefined) this.wantedCol = at.c0 - 1;
        break;
      case 'ArrowRight':
        target = this.cellAt(at.row, at.c1 + 1);
        if (target !== undefined) this.wantedCol = at.c1 + 1;
        break;
      case 'ArrowUp':
      case 'ArrowDown': {
        const col = this.wantedCol >= at.c0 && this.wantedCol <= at.c1 ? this.wantedCol : at.c0;
        this.wantedCol = col;
        target = this.cellAt(at.row + (e.key === 'ArrowUp' ? -1 : 1), col);
        break;
      }
      case 'Home':
        target = this.cellAt(at.row, 0);
        break;
      case 'End':
        target = this.cellAt(at.row, 5);
        break;
      case 'Escape': {
        // Lets go of the picked piece or square: the same as pressing it again.
        const picked = this.state?.selected;
        if (picked === undefined) return;
        e.preventDefault();
        this.pressed(picked);
        this.focus(picked, true);
        return;
      }
      default:
        return;
    }
    e.preventDefault();
    if (target !== undefined) this.focus(target, true);
  }

  private pressed(square: Square): void {
    this.focusSquare = square;
    this.updateTabStop();
    if (!this.interactive) return;
    for (const l of this.listeners) l(square);
  }

  resize(): void {
    // The grid is laid out by CSS; nothing to measure.
  }

  dispose(): void {
    this.listeners.clear();
    this.element.remove();
  }
}

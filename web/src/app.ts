/**
 * The root object: owns the parts of the page (language, match state, the boards, the panel,
 * dialogs, announcements) and wires them together. `update` redraws from the state, `resize`
 * passes size changes to the boards, `dispose` removes everything. No part is a singleton: each
 * is created here and handed what it needs.
 */
import type { Board3DText } from './board3d/types';
import type { Board3DView, BoardState, BoardView } from './board';
import { withoutHiddenNames } from './board';
import { opponent, type BattleTable, type Engine, type KindId, type Side, type Square, type Status, type View } from './engine';
import { removedEnemyKinds } from './state/removed';
import { en } from './i18n/en';
import { I18n, LANG_NAMES, LANGS, type Lang, type MessageKey } from './i18n';
import { manifestPath } from './i18n/manifest';
import { MODES, modeName, type Mode } from './modes';
import { boardState } from './state/board-state';
import type { CarriedArrangement, Match, Phase } from './state/match';
import type { Report } from './state/messages';
import { CPU_MODES } from './cpu/modes';
import { CpuGameStore } from './cpu/saved';
import { SeatStore } from './online/lobby';
import { friendMode } from './online/modes';
import { LocalGameStore } from './state/saved';
import { ResultStore } from './state/results';
import { gameRecordText, plyLine } from './state/record';
import { reviewFrames, type ReviewFrame } from './state/review';
import { ArrangementStore, SetupDraftStore, type SetupDraft, type SetupEvent, type SetupState } from './state/setup';
import { button, finishPressesCutByRedraws, guardRepeatedPresses, h, sideBadge, withBadge } from './ui/dom';
import { GridBoard, type GridText } from './ui/grid';
import { renderTable } from './ui/table';
import { cueFor, heardOf, Sounds, type Heard } from './ui/sound';

export interface AppEnv {
  readonly storage: Storage | undefined;
  readonly languages: readonly string[];
  /** Seeds for automatic arrangements. */
  readonly random: () => number;
}

/**
 * The page's parts a mode may use to draw its own panel (`Mode.panel`, e.g. the online rooms),
 * so every mode shows the same reports, lists and buttons.
 */
export interface PanelKit {
  readonly i18n: I18n;
  /** Redraws the page. */
  update(): void;
  /**
   * Shows a notice in the panel and announces it. The notice is kept as the way to word it, so a
   * change of language rewords it.
   */
  note(message: (t: I18n) => string, tone?: 'info' | 'warn'): void;
  /** Announces text in the live region. */
  say(text: string): void;
  notice(): Node;
  /** Re-arrange, mirror, previous, undo. */
  setupTools(match: Match, setup: SetupState): Node;
  reports(reports: readonly Report[]): Node;
  /** Removed pieces during the game (own by kind, the enemy's as a count). */
  removed(view: View): Node;
  /** Both sides' removed pieces after the end. */
  revealedRemoved(view: View): Node[];
  log(match: Match): Node;
  /** The resign button. */
  resign(match: Match): Node;
  /**
   * The box that says how a game ended, for the player at `side` ("you won", and why), that takes
   * the focus at the end.
   */
  result(status: Status | undefined, side: Side): HTMLElement;
  reportText(r: Report): string;
  /** The start screen's modes, and starting one. */
  readonly modes: readonly Mode[];
  /** Starts a mode, setting up from `startWith` if given (the arrangement made while waiting). */
  startMode(mode: Mode, startWith?: CarriedArrangement): void;
  chooseModeAgain(): void;
}

/** A finished game being looked back over: its positions, the one shown, and a step just taken back. */
interface Review {
  readonly match: Match;
  readonly frames: readonly ReviewFrame[];
  at: number;
  undone: { readonly from: Square; readonly to: Square } | undefined;
}

type Screen = { readonly kind: 'start' } | { readonly kind: 'match'; readonly mode: Mode; readonly match: Match; readonly off: () => void };

/**
 * A button that shows `icon` in place of its words on a phone (CSS: `.btn-icon`, `.btn-words`),
 * where four worded buttons took two rows above the board; its name stays the words.
 */
function withIcon(icon: string, b: HTMLButtonElement): HTMLButtonElement {
  const words = b.textContent ?? '';
  b.replaceChildren(h('span', { class: 'btn-icon', text: icon, attrs: { 'aria-hidden': 'true' } }), h('span', { class: 'btn-words', text: words }));
  return b;
}


/** Plies without a battle from which the count is news (the draw comes at 100). */
const QUIET_NEWS = 80;

/** What the undo says it took back, for the changes that name no square. */
const UNDONE = { rearrange: 'undoneRearrange', mirror: 'undoneMirror', load: 'undoneLoad' } as const;

/** The phases before a game begins, when its arrangements are made. */
function isArranging(kind: string): boolean {
  return kind === 'setup' || kind === 'setup-curtain';
}

export class App {
  readonly i18n: I18n;
  private screen: Screen = { kind: 'start' };
  private readonly store: ArrangementStore;
  private readonly results: ResultStore;
  private readonly cpuGames: CpuGameStore;
  /** Seats in friend rooms kept in this browser (the start screen's way back to the last one). */
  private readonly seats: SeatStore;
  private readonly localGames: LocalGameStore;
  /** The arrangement being made against the CPU or in a room, kept for a reload. */
  private readonly drafts: SetupDraftStore;
  private readonly grid: GridBoard;
  private readonly boards: BoardView[] = [];
  /** The square picked on the boards, as last drawn (Escape lets go of it). */
  private picked: Square | null = null;
  /** The 3D board once mounted (it shows text that follows the language). */
  private board3d: Board3DView | null = null;
  /** Whether the page found no WebGL and plays on the grid alone (said once, above the board). */
  private no3d = false;
  private readonly cleanups: (() => void)[] = [];

  private readonly root: HTMLElement;
  private readonly titleEl: HTMLElement;
  private readonly taglineEl: HTMLElement;
  private readonly toolbar: HTMLElement;
  private readonly stage: HTMLElement;
  /** Where the 3D board mounts (see `mountBoard`). */
  readonly boardMount: HTMLDivElement;
  /** Holds the 3D board's view buttons: at the board's top right, above it rather than over its far corner. */
  readonly board3dBar: HTMLDivElement;
  private readonly gridHeading: HTMLElement;
  private readonly gridSection: HTMLElement;
  private readonly no3dNote: HTMLElement;
  /** After the end, the controls that step through the game (above the board, or beside it). */
  private readonly reviewBar: HTMLElement;
  private readonly strip: HTMLElement;
  private readonly curtain: HTMLElement;
  private readonly panel: HTMLElement;
  private readonly live: HTMLElement;
  private dialog: HTMLDialogElement | null = null;
  /** The last news said while a dialog was open, to say again when it closes. */
  private saidUnderDialog: string | null = null;
  /** The note of the waiting phase last drawn (the CPU thinking, resuming, failed), if waiting. */
  private lastWaitingNote: string | null = null;
  /** The language and sound setting the toolbar was drawn for. */
  private toolbarDrawnFor = '';
  /** Whether the record of moves is open in the panel (it stays open while you play). */
  private logOpen = false;
  /** Whether the win/loss table is open in the panel (it stays open while you play). */
  private tableOpen = false;
  private battleTable: BattleTable | null = null;
  /** The panel's notice; `until`, if given, takes it away at the first redraw where it holds. */
  private notice: { message: (t: I18n) => string; tone: 'info' | 'warn'; until?: () => boolean } | null = null;
  /**
   * The game "play again" left unfinished, kept until the new one begins: one press had thrown a
   * game away (a stray tap, or the player waiting behind the curtain).
   */
  private setAside: { readonly match: Match; readonly moves: number; readonly restore: () => void } | null = null;
  private lastPhaseKey = '';
  /** A friend room's invitation or join button was on the panel at the last redraw. */
  private callShown = false;
  /** The board was brought into view for the game on screen's first move (reset by a new game). */
  private boardShownForPlay = false;
  /** The player's last action was a key, not a pointer. */
  private keyboardLast = false;
  /** The result of the game on screen has been announced (the result box, focused, does not repeat it). */
  private resultSaid = false;
  /** Reports already announced (the player's own move), so the opponent's answer adds only its own. */
  private spoken: ReadonlySet<Report> = new Set();
  /**
   * Looking back over the finished game: its positions from the start and the one on the board
   * (the last one is the end as it was played).
   */
  private review: Review | null = null;
  /** The last copy of a finished game's record: whether the clipboard took it, and the text. */
  private recordCopy: { readonly match: Match; readonly ok: boolean; readonly text: string } | null = null;
  /** The grid square each side last pressed, to put the focus back there on its next turn. */
  private readonly lastSquare: { sente?: Square; gote?: Square } = {};
  private readonly sounds: Sounds;
  /** The game as the last redraw showed it, to hear what changed since. */
  private heard: Heard | null = null;

  constructor(
    private readonly host: HTMLElement,
    private readonly engine: Engine,
    private readonly env: AppEnv,
  ) {
    this.i18n = new I18n(engine.kinds, env.storage, env.languages);
    this.store = new ArrangementStore(env.storage, engine);
    this.results = new ResultStore(env.storage);
    this.cpuGames = new CpuGameStore(env.storage);
    this.seats = new SeatStore(env.storage);
    this.localGames = new LocalGameStore(env.storage);
    this.drafts = new SetupDraftStore(env.storage, engine);
    this.sounds = new Sounds(env.storage);

    this.titleEl = h('h1', { class: 'title' });
    this.taglineEl = h('p', { class: 'tagline' });
    this.toolbar = h('nav', { class: 'toolbar' });
    this.grid = new GridBoard(engine.squares, this.gridText());
    this.boardMount = h('div', { class: 'board3d-mount', attrs: { 'data-board3d': '' } });
    this.boardMount.hidden = true;
    this.board3dBar = h('div', { class: 'board3d-bar' });
    this.board3dBar.hidden = true;
    this.curtain = h('div', { class: 'curtain', attrs: { role: 'region' } });
    this.curtain.hidden = true;
    this.gridHeading = h('h2', { class: 'grid-heading', attrs: { id: 'grid-heading' } });
    this.gridHeading.hidden = true;
    this.no3dNote = h('p', { class: 'no3d-note', attrs: { role: 'note' } });
    this.no3dNote.hidden = true;
    this.reviewBar = h('div', { class: 'review-bar' });
    this.reviewBar.hidden = true;
    // Within the review's buttons the arrow keys step too (Home and End go to the start and end).
    this.reviewBar.addEventListener('keydown', (e) => {
      const r = this.review;
      const step: Record<string, (at: number, last: number) => number> = {
        ArrowLeft: (at) => at - 1,
        ArrowRight: (at) => at + 1,
        Home: () => 0,
        End: (_, last) => last,
      };
      const to = step[e.key];
      // In the record's text the arrows move the caret.
      if (r === null || to === undefined || e.target instanceof HTMLTextAreaElement) return;
      e.preventDefault();
      this.reviewTo(r, to(r.at, r.frames.length - 1));
    });
    this.gridSection = h('section', { class: 'grid-section', attrs: { 'aria-labelledby': 'grid-heading' } }, this.gridHeading, h('div', { class: 'grid-wrap' }, this.grid.element));
    this.stage = h(
      'div',
      { class: 'board-stage' },
      this.board3dBar,
      this.boardMount,
      // Named by its heading ("play with buttons") even while the heading is hidden: a landmark.
      this.gridSection,
      this.curtain,
    );
    // Hidden from screen readers: the live region and the panel already say all of it.
    this.strip = h('div', { class: 'status-strip', attrs: { 'aria-hidden': 'true', 'data-status-strip': '' } });
    this.strip.hidden = true;
    this.panel = h('aside', { class: 'panel' });
    this.live = h('div', { class: 'sr-only live', attrs: { 'aria-live': 'polite', role: 'status' } });
    this.root = h(
      'div',
      { class: 'app' },
      h('header', { class: 'topbar' }, h('div', { class: 'brand' }, this.titleEl, this.taglineEl), this.toolbar),
      // The review's controls come first, as they are read: above the board on a narrow screen,
      // at the top of the side column on a wide one (where above the board they pushed the
      // board's own rows below a laptop's screen).
      h('main', { class: 'layout' }, this.reviewBar, h('section', { class: 'board-area' }, this.no3dNote, this.stage, this.strip), this.panel),
      this.live,
    );
    host.append(this.root);
    // The strip's height, for the squares to keep clear of it when the keyboard moves to them.
    if (typeof ResizeObserver === 'function') {
      const stripHeight = new ResizeObserver(() => this.root.style.setProperty('--strip-height', `${this.strip.offsetHeight}px`));
      stripHeight.observe(this.strip);
      this.cleanups.push(() => stripHeight.disconnect());
    }
    this.cleanups.push(this.grid.onSquare((sq) => this.onSquare(sq)));
    this.boards.push(this.grid);
    const onResize = (): void => this.resize();
    window.addEventListener('resize', onResize);
    this.cleanups.push(() => window.removeEventListener('resize', onResize));
    // A phone turned in mid-game: the page reflows (held sideways the board takes the window's
    // height) and the board may slide out of view; it is brought back.
    if (typeof window.matchMedia === 'function') {
      const sideways = window.matchMedia('(orientation: landscape)');
      const onTurn = (): void => {
        if (this.match !== null && this.match.viewer !== null) this.showBoard();
      };
      sideways.addEventListener('change', onTurn);
      this.cleanups.push(() => sideways.removeEventListener('change', onTurn));
    }
    const unlock = (): void => this.sounds.unlock();
    // The events that let a page start sound (HTML's activation-triggering events): on a touch
    // screen that is the finger's lift, not its press, and Safari holds to it.
    for (const type of ['pointerdown', 'pointerup', 'touchend', 'click', 'keydown'] as const) {
      document.addEventListener(type, unlock, { capture: true });
      this.cleanups.push(() => document.removeEventListener(type, unlock, { capture: true }));
    }
    // Escape lets go of a square picked on the 3D board as the grid's own Escape does (a click
    // there leaves the focus on the page, not on a square).
    const onEscape = (e: KeyboardEvent): void => {
      if (e.key !== 'Escape' || e.defaultPrevented || this.picked === null) return;
      const active = document.activeElement;
      const onBoard = active === null || active === document.body || this.boardMount.contains(active);
      if (!onBoard || document.querySelector('dialog[open]') !== null) return;
      e.preventDefault();
      this.onSquare(this.picked);
    };
    document.addEventListener('keydown', onEscape);
    this.cleanups.push(() => document.removeEventListener('keydown', onEscape));
    // Whether the player last acted with the keys or a pointer: see `focusBoard`.
    // Until the first of them, the first mode's focus ring is not drawn (`untouched`): drawn at
    // load it looked like a level already chosen. The keyboard still starts there.
    this.root.classList.add('untouched');
    const byKeys = (keys: boolean) => (): void => {
      this.keyboardLast = keys;
      this.root.classList.remove('untouched');
    };
    for (const [type, keys] of [['keydown', true], ['pointerdown', false]] as const) {
      const listener = byKeys(keys);
      document.addEventListener(type, listener, { capture: true });
      this.cleanups.push(() => document.removeEventListener(type, listener, { capture: true }));
    }
    this.cleanups.push(guardRepeatedPresses(document), finishPressesCutByRedraws(document));
    this.update();
  }

  /**
   * Mounts another board (the 3D board) beside the grid: it receives the same state and its
   * square presses act like the grid's. Returns a function that unmounts it.
   */
  mountBoard(view: BoardView): () => void {
    this.boards.push(view);
    this.boardMount.hidden = false;
    this.board3dBar.hidden = false;
    this.stage.classList.add('with-3d');
    const off = view.onSquare((sq) => this.onSquare(sq));
    this.update();
    // The board above it took its room: the call to act slid down, out of view on a phone.
    const call = this.callToAct();
    if (call !== null) this.showCall(call);
    return () => {
      off();
      const i = this.boards.indexOf(view);
      if (i >= 0) this.boards.splice(i, 1);
      this.boardMount.hidden = this.boards.length <= 1;
      this.board3dBar.hidden = this.boardMount.hidden;
      this.stage.classList.toggle('with-3d', this.boards.length > 1);
    };
  }

  /**
   * Mounts the 3D board (`board3d/load.ts`) as the main view, above the grid, which stays
   * playable below it; its labels follow the page's language from now on.
   */
  mountBoard3D(board: Board3DView): () => void {
    this.board3d = board;
    board.setText(this.i18n.lang, this.board3dText()); // the language may have changed while it loaded
    this.gridHeading.hidden = false;
    const off = this.mountBoard(board);
    return () => {
      off();
      this.board3d = null;
      this.gridHeading.hidden = true;
    };
  }

  /** No WebGL here: the page says so once, above the board, and the grid plays the game. */
  without3D(): void {
    this.no3d = true;
    // The button board is the whole board now; its section keeps its name.
    this.gridHeading.hidden = false;
    this.update();
  }

  /** The 3D board's text in the current language: view buttons and the canvas's name. */
  board3dText(): Board3DText {
    const t = this.i18n;
    return { diagonal: t.t('view3dDiagonal'), top: t.t('view3dTop'), board: t.t('board3dLabel'), lost: t.t('board3dLost'), zoomHint: t.t('board3dZoomHint'), turnHint: t.t('board3dTurnHint') };
  }

  // ---- actions -------------------------------------------------------------------------------

  /** Starts `mode`: a new game (set up from `startWith` if given), or its kept unfinished one. */
  startMode(mode: Mode, startWith?: CarriedArrangement, resume = false): void {
    this.endMatch();
    const match = mode.create({
      engine: this.engine,
      store: this.store,
      results: this.results,
      cpuGames: this.cpuGames,
      localGames: this.localGames,
      drafts: this.drafts,
      resume,
      random: this.env.random,
      startWith,
      boardsSettled: async () => {
        await Promise.all(this.boards.map((b) => b.settled?.()));
      },
    });
    const off = match.onChange?.(() => this.update()) ?? (() => {});
    this.screen = { kind: 'match', mode, match, off };
    this.notice = null;
    // A new game always starts afresh, even in the phase the last one was in (leaving a room
    // being arranged for a CPU game being arranged): the focus goes where the phase puts it.
    this.lastPhaseKey = '';
    this.update();
    this.showBoard();
  }

  /**
   * Brings the board into view for a game that begins: on a phone the mode (or "play again")
   * was chosen a screen or more below it. A keyboard player is taken to the grid by the focus.
   */
  private showBoard(): void {
    if (this.keyboardLast) return;
    const board = this.mainBoard();
    if (typeof board.scrollIntoView !== 'function') return;
    // The 3D board with its view buttons above it, where both fit: they are the way back to a
    // preset view after a turn or a pinch, and the board's top edge at the window's had left
    // them a scroll above.
    const box = board.getBoundingClientRect();
    const views = board === this.boardMount && !this.board3dBar.hidden ? this.board3dBar.getBoundingClientRect().top : box.top;
    const top = Math.min(views, box.top);
    const room = window.innerHeight - this.pinnedStrip();
    if (box.bottom - top <= room) {
      if (top < 0) window.scrollBy(0, top);
      else if (box.bottom > room) window.scrollBy(0, box.bottom - room);
      return;
    }
    if (box.bottom - top <= window.innerHeight) {
      window.scrollBy(0, top);
      return;
    }
    // Taller than the window (the grid alone on a phone held sideways): its top.
    board.scrollIntoView({ block: 'start' });
  }

  /**
   * The end: the board, and above it on a phone the review's controls where both fit the window
   * (beside the pinned strip); before, the end showed the board with the controls a scroll above.
   */
  private showEnd(): void {
    if (this.keyboardLast) return;
    const bar = this.reviewBar;
    const board = this.mainBoard();
    if (!bar.hidden) {
      // From the review's controls, or the board's view buttons beside them on a wide screen.
      const views = this.board3dBar.hidden ? Infinity : this.board3dBar.getBoundingClientRect().top;
      const top = Math.min(bar.getBoundingClientRect().top, views);
      const bottom = board.getBoundingClientRect().bottom;
      const room = window.innerHeight - this.pinnedStrip();
      if (top >= 0 && bottom <= room) return;
      if (bottom - top <= room) {
        window.scrollBy(0, top);
        return;
      }
    }
    this.showBoard();
  }

  /** A line of the record pressed by touch or mouse: the board it sets, if not all of it is in view. */
  private showReviewedBoard(): void {
    if (this.keyboardLast) return;
    const box = this.mainBoard().getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight - this.pinnedStrip()) this.showEnd();
  }

  /** The board the player looks at: the 3D one, or the button board where there is none. */
  private mainBoard(): HTMLElement {
    return this.boardMount.hidden ? this.gridSection : this.boardMount;
  }

  /** How much of the window's bottom the status strip pinned there covers (a phone's; held sideways it stands beside the board). */
  private pinnedStrip(): number {
    if (this.strip.hidden) return 0;
    const style = getComputedStyle(this.strip);
    return style.position === 'sticky' && style.bottom !== 'auto' ? this.strip.offsetHeight : 0;
  }

  private endMatch(): void {
    if (this.screen.kind === 'match') {
      this.screen.off();
      this.screen.match.dispose();
    }
  }

  chooseModeAgain(): void {
    this.endMatch();
    this.screen = { kind: 'start' };
    this.notice = null;
    // Nothing said of the game left may stay to be read on the start screen.
    this.say('');
    this.update();
    // The choice begins at its heading: the page had stayed where the game's panel was scrolled.
    // (The page's top, where that shows it: a wide screen keeps the title and the board's views.)
    const heading = this.panel.querySelector('h2');
    if (heading === null || typeof heading.scrollIntoView !== 'function') return;
    if (heading.getBoundingClientRect().top + window.scrollY < window.innerHeight / 2) window.scrollTo(0, 0);
    else heading.scrollIntoView({ block: 'start' });
  }

  setLang(lang: Lang): void {
    this.i18n.setLang(lang);
    // An address that names a language (`?lang=ja`) names the one chosen since, so a reload or a
    // shared link keeps it instead of going back.
    const address = new URL(location.href);
    if (address.searchParams.has('lang') && address.searchParams.get('lang') !== lang) {
      address.searchParams.set('lang', lang);
      history.replaceState(history.state, '', address.toString());
    }
    this.closeDialog();
    // The last thing said was said in the other language: not left to be read under this one.
    this.say('');
    this.grid.setText(this.gridText());
    this.board3d?.setText(lang, this.board3dText());
    this.update();
  }

  private get match(): Match | null {
    return this.screen.kind === 'match' ? this.screen.match : null;
  }

  /** A game two players share on this screen, and it is over: both may be looking now. */
  private sharedAndOver(): boolean {
    return this.mode?.id === 'local' && this.match?.phase.kind === 'over';
  }

  /** The mode of the game on screen, if one is. */
  private get mode(): Mode | null {
    return this.screen.kind === 'match' ? this.screen.mode : null;
  }

  private onSquare(square: Square): void {
    const match = this.match;
    if (match === null) return;
    const p = match.phase;
    if (p.kind === 'setup' || p.kind === 'turn') this.lastSquare[p.side] = square;
    if (p.kind === 'setup') {
      this.setupEvent(p.setup.press(square), square);
    } else if (p.kind === 'turn') {
      const picked = match.selected?.square;
      const ev = match.press(square);
      // Each press replaces the last notice; a piece that cannot move (a mine, the flag, a
      // boxed-in piece) says so on the panel, not only to screen readers.
      this.notice = null;
      if (ev.type === 'selected') {
        const { moves, attacks } = ev.destinations;
        if (moves.length + attacks.length === 0) {
          // A mine or the flag never moves; any other piece is only boxed in for now.
          const kind = match.view(p.side)?.pieces[square]?.kind;
          this.note((t) => t.t(kind === 'mine' || kind === 'flag' ? 'neverMoves' : 'noMoves'), 'warn');
        } else {
          // The squares themselves, not their number: a plane's or an engineer's reach is far
          // across the board, where a reader would have to hunt for it square by square.
          const t = this.i18n;
          const list = (squares: readonly Square[]) => (squares.length === 0 ? t.t('removedNone') : squares.join(t.t('listSeparator')));
          this.say(t.t('selected', { square, moves: list(moves), attacks: list(attacks) }));
        }
      } else if (ev.type === 'deselected') {
        // A press on a square the piece cannot reach lets it go: say so on the panel, and why, or
        // it looks ignored. Pressing the piece itself again, or Esc, lets it go on purpose: only spoken.
        if (picked !== square) this.note((t) => t.t('unreachable', { square }));
        else this.say(this.i18n.t('unchosen'));
      } else if (ev.type === 'unsent') {
        const why = ev.why === 'replaced' ? 'onlineReplacedMove' : 'onlineMoveNotSent';
        // Stale once the connection is back: the move can be played again.
        this.note((t) => t.t(why), 'warn', () => match.canSend !== false);
      } else if (ev.type === 'sent') {
        // The move itself is told when the referee's answer comes, with its battle.
        this.say(this.i18n.t('onlineSending'));
      } else if (ev.type === 'ignored') {
        // An empty square or an enemy piece with nothing chosen: a screen-reader user hears why
        // nothing happened (a sighted one sees it).
        this.say(this.i18n.t('pickOwnFirst'));
      } else if (ev.type === 'moved') {
        this.spoken = new Set(ev.reports);
        // The last move of a game two share ends it for both: told by side, not to "you".
        const bySide = ev.status.state !== 'ongoing' && this.mode?.id === 'local';
        const lines = ev.reports.map((r) => (bySide ? this.reportTextBySide(r, ev.ply.side) : this.reportText(r)));
        if (ev.status.state !== 'ongoing') {
          lines.push(...this.resultLines(ev.status, ev.ply.side));
          this.resultSaid = true;
        }
        this.say(this.i18n.sentences(lines));
      }
    } else if (p.kind === 'waiting') {
      // A press while the other side thinks does nothing: say why.
      this.say(this.i18n.t(p.note));
    } else if (p.kind === 'moved' && this.mode?.id === 'friend' && match.view(p.side)?.to_move !== p.side) {
      // The same while the friend is to move.
      this.say(this.i18n.t('onlineTheirTurnSpoken'));
    }
    this.update();
  }

  private setupEvent(ev: SetupEvent, square: Square): void {
    switch (ev.type) {
      case 'chosen':
        this.note((t) => t.t('chosen', { square: ev.square }));
        break;
      case 'unchosen':
        this.note((t) => t.t('unchosen'));
        break;
      case 'swapped':
        this.note((t) => t.t('swapped', { a: ev.a, b: ev.b, kindA: t.kind(ev.kindA), kindB: t.kind(ev.kindB) }));
        break;
      case 'refused': {
        const v = ev.violation;
        const key = `rule_${v.rule}`;
        const known = key in CATALOGUE_KEYS;
        this.note((t) => {
          const reason = known
            ? t.t(key as MessageKey, { square: v.square ?? '' })
            : t.t('rule_other', { rule: v.rule });
          return t.t('refused', { reason });
        }, 'warn');
        break;
      }
      case 'ignored':
        // A square of the other camp: shown and said, or a piece chosen to swap would look stuck.
        this.note((t) => t.t(ev.dropped === undefined ? 'rule_outside_camp' : 'outsideCampUnchosen', { square }), 'warn');
        break;
    }
  }

  private note(message: (t: I18n) => string, tone: 'info' | 'warn' = 'info', until?: () => boolean): void {
    this.notice = until === undefined ? { message, tone } : { message, tone, until };
    this.say(message(this.i18n));
  }

  /** Whose move it is, as said aloud: "your move" where the page has one player, the side where two share it. */
  private turnSpoken(side: Side): string {
    const t = this.i18n;
    return this.mode?.id === 'local' ? t.t('turnSpoken', { side: t.side(side) }) : t.t('yourTurnSpoken', { side: t.side(side) });
  }

  /** Announces text in the live region. */
  private say(text: string): void {
    this.live.textContent = text;
    // A modal dialog hides the page's live region from screen readers: what was said meanwhile
    // (the CPU's answer while the rules are read) is said again when it closes.
    this.saidUnderDialog = this.dialog !== null && text !== '' ? text : null;
  }

  // ---- drawing --------------------------------------------------------------------------------

  update(): void {
    const t = this.i18n;
    if (this.notice?.until?.() === true) this.notice = null;
    document.documentElement.lang = t.lang;
    // Against a friend the answer may come while the player is in another tab: the tab says whose move it is.
    const yourMove = this.mode?.id === 'friend' && this.match?.phase.kind === 'turn';
    document.title = yourMove ? t.t('titleYourMove', { app: t.t('appTitle') }) : t.t('appTitle');
    // Added to a home screen, the game takes its name in this language.
    document.querySelector('link[rel="manifest"]')?.setAttribute('href', manifestPath(t.lang));
    // What a bookmark or a shared link picks up from the open page is in its language too.
    document.querySelector('meta[name="description"]')?.setAttribute('content', t.t('pageDescription'));
    this.titleEl.textContent = t.t('appTitle');
    this.taglineEl.textContent = t.t('appTagline');
    // Read before anything is redrawn: the toolbar too is drawn anew (a new language).
    const focusKey = (document.activeElement as HTMLElement | null)?.dataset?.['focusKey'];
    const hadFocus = document.activeElement !== document.body && this.root.contains(document.activeElement);
    const inGrid = this.grid.element.contains(document.activeElement);
    const gridSquare = inGrid ? (document.activeElement as HTMLElement).dataset['square'] : undefined;
    this.drawToolbar();
    this.gridHeading.textContent = t.t('gridHeading');
    this.panel.setAttribute('aria-label', t.t('panelLabel'));
    this.no3dNote.hidden = !this.no3d;
    this.no3dNote.textContent = this.no3d ? t.t('board3dUnavailable') : '';
    const match = this.match;
    const phaseKey = match === null ? 'start' : `${match.phase.kind}:${match.phase.side}`;
    const phaseChanged = phaseKey !== this.lastPhaseKey;
    const wasWaiting = this.lastPhaseKey.startsWith('waiting:');
    const wasArranging = this.lastPhaseKey.startsWith('setup:') || this.lastPhaseKey.startsWith('turn-curtain:');
    const wasCurtained = this.lastPhaseKey.startsWith('turn-curtain:');
    const wasSetupCurtain = this.lastPhaseKey.startsWith('setup-curtain:');
    const wasOver = this.lastPhaseKey.startsWith('over:');
    this.lastPhaseKey = phaseKey;
    if (match?.phase.kind !== 'over') this.resultSaid = false;
    if (this.setAside !== null && (match !== this.setAside.match || !isArranging(match.phase.kind))) this.setAside = null;
    if (phaseChanged) {
      if (match?.phase.kind !== 'setup') this.notice = null;
      const why = match?.phase.kind === 'setup' ? match.phase.note : undefined;
      if (why !== undefined) this.notice = { message: (t) => t.t(why), tone: 'warn' };
      if (match?.phase.kind === 'setup' && match.viewer !== null) {
        // A game begins (a mode chosen, "play again", a rematch, the curtain lifted): what to do
        // now, as the panel's heading says it, and why the board looks as it does.
        const side = t.side(match.phase.side);
        this.say(t.sentences([t.t('setupTitle', { side }), t.t('setupHint'), why === undefined ? '' : t.t(why)]));
      }
    }

    this.listen(match);
    if (match?.phase.kind !== 'over' || this.review?.match !== match) this.review = null;
    // "Play again" keeps the match object: a copy of the last game must not show under the next.
    if (match?.phase.kind !== 'over' || this.recordCopy?.match !== match) this.recordCopy = null;
    const reviewed = this.reviewedFrame();
    const seen: BoardState =
      match === null
        ? { viewer: 'sente', pieces: [], moveTargets: [], attackTargets: [] }
        : reviewed !== null
          ? this.reviewState(reviewed, match.phase.side, this.review?.undone)
          : withoutHiddenNames(boardState(match, (k) => t.kind(k)), match.phase.kind === 'over');
    const state: BoardState = this.sharedAndOver() ? { ...seen, bySide: true } : seen;
    const faces = this.boards.length > 1 ? { ...this.onPieceFaces(state), faceUp: match?.phase.kind === 'over' } : state;
    // The grid's squares show the pieces' short names too (its buttons are named in full).
    const onGrid: BoardState = {
      ...state,
      pieces: state.pieces.map((p) => (p.label === undefined || p.kind === undefined ? p : { ...p, face: t.kindOnPiece(p.kind) })),
    };
    for (const b of this.boards) b.setState(b === this.grid ? onGrid : faces);
    this.picked = state.selected ?? null;
    // A step back slides once; a later redraw (a new language, say) shows the position still.
    if (this.review) this.review.undone = undefined;
    const looking = match !== null && match.viewer !== null;
    this.grid.setInteractive(looking);
    // Behind a curtain the 3D board's view buttons are as out of reach as the grid: the keyboard
    // found them there, under the curtain, with no focus ring in sight.
    const curtainUp = match !== null && match.viewer === null && match.phase.kind.endsWith('curtain');
    this.board3dBar.inert = curtainUp;
    this.boardMount.inert = curtainUp;
    // Before a game the 3D board shows the empty board; an empty grid under it only pushed the
    // choice of mode a screen further down on a phone.
    this.gridSection.hidden = match === null && this.boards.length > 1;
    this.root.dataset['phase'] = match === null ? 'start' : match.phase.kind;

    this.drawCurtain(match);
    if (phaseChanged && wasWaiting && match !== null && match.viewer !== null) {
      // The opponent has answered on its own: tell what happened (the player's own move was
      // told when it was played).
      const lines = match.reports.filter((r) => !this.spoken.has(r)).map((r) => this.reportText(r));
      if (match.phase.kind === 'over') {
        lines.push(...this.resultLines(match.phase.status, match.phase.side));
        this.resultSaid = true;
      }
      if (match.phase.kind === 'turn') lines.push(this.turnSpoken(match.phase.side));
      this.say(this.i18n.sentences(lines));
    }
    if (phaseChanged && match !== null && match.viewer !== null && match.phase.kind === 'over' && !this.resultSaid) {
      // Ended by neither this player's move nor an answer awaited (a friend resigning during
      // this player's turn): the result box takes the focus named by its heading alone.
      this.say(t.sentences(this.resultLines(match.phase.status, match.phase.side)));
      this.resultSaid = true;
    }
    if (phaseChanged && wasArranging && match !== null && match.viewer !== null && match.phase.kind === 'turn') {
      // The game starts, or the curtain lifts: whose move it is, after what the opponent did.
      const lines = match.reports.map((r) => this.reportText(r));
      lines.push(this.turnSpoken(match.phase.side));
      this.say(this.i18n.sentences(lines));
    }
    const waitingNote = match?.phase.kind === 'waiting' ? match.phase.note : null;
    if (waitingNote !== this.lastWaitingNote) {
      // The wait turned into something to know (the CPU failed, a kept game resumes): said, or
      // the last move stayed the news. Thinking is what a move is followed by anyway.
      if (waitingNote !== null && waitingNote !== 'cpuThinking') this.say(t.t(waitingNote));
      this.lastWaitingNote = waitingNote;
    }
    if (phaseChanged && match !== null && match.viewer === null) {
      // Nothing said to the last player may remain for the next one to read. The curtain's
      // words are read once, as the name of the card that takes the focus: said here too, a
      // screen reader read them twice at every hand-over.
      this.say('');
    }
    this.panel.replaceChildren(...(match === null ? this.startPanel() : this.panelFor(match)), this.panelTools(match !== null && match.viewer === null));
    const review = match === null ? null : this.reviewEl(match);
    this.reviewBar.hidden = review === null;
    this.reviewBar.replaceChildren(...(review === null ? [] : [review]));
    this.drawStrip(match);

    const stay = focusKey === undefined ? null : this.root.querySelector<HTMLElement>(`[data-focus-key="${focusKey}"]`);
    const stayDisabled = stay instanceof HTMLButtonElement && stay.disabled;
    const curtained = match !== null && match.viewer === null && match.phase.kind.endsWith('curtain');
    // After a finished game, or "play again" in the middle of one, the buttons stay where they
    // were, but a new game has begun: the keyboard goes to the board, as when a mode is chosen.
    const newGame = wasOver || focusKey === 'play-again';
    // The player moved about the grid while the answer was awaited: the turn starts where they are.
    if (phaseChanged && wasWaiting && gridSquare !== undefined && match?.phase.kind === 'turn') this.lastSquare[match.phase.side] = gridSquare;
    if (phaseChanged && (inGrid || curtained || stay === null || stayDisabled || newGame)) {
      this.focusForPhase(match?.phase ?? null);
    } else if (stay !== null && !stayDisabled) {
      // Back on the control redrawn in its place. When the phase changed, this is a player reading
      // elsewhere (the record, the table): not pulled back to the board when the turn comes
      // round, the announcement tells them.
      stay.focus({ preventScroll: true });
    } else if (stay !== null) {
      // The press itself disabled it (undo with nothing left to undo): stay beside it rather
      // than drop the keyboard player back to the top of the page.
      const usable = (el: Element | null): boolean => !(el instanceof HTMLButtonElement && el.disabled);
      let near = stay.previousElementSibling;
      while (near !== null && !usable(near)) near = near.previousElementSibling;
      if (near === null) {
        near = stay.nextElementSibling;
        while (near !== null && !usable(near)) near = near.nextElementSibling;
      }
      if (near instanceof HTMLElement) near.focus({ preventScroll: true });
    }
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (hadFocus && lost) this.keepFocus();
    // Play begins (the arrangement confirmed, a curtain lifted): on a phone the button pressed
    // was a screen below the board. Once a game, at its first turn or the CPU's first answer
    // (a friend room's host who confirms before the friend has come stays by the URL to send),
    // and at each turn two players take behind the curtain.
    if (match === null || match.phase.kind === 'setup' || match.phase.kind === 'setup-curtain') this.boardShownForPlay = false;
    const kind = match?.phase.kind;
    const begins = !this.boardShownForPlay && (kind === 'turn' || kind === 'waiting');
    const seeing = match !== null && match.viewer !== null;
    if (seeing && phaseChanged && (begins || (wasCurtained && kind === 'turn'))) {
      this.boardShownForPlay = true;
      this.showBoard();
    }
    // The end: every piece turns face up on the board, and on a phone the strip under it says
    // the result; a resignation was pressed in the panel, a screen below.
    if (match !== null && phaseChanged && kind === 'over' && !wasOver) this.showEnd();
    // A friend's rematch agreed to (the offer and its answer were in the panel, a screen below
    // on a phone): the new arrangement is on the board. Other modes' "play again" start a match
    // and show it there.
    if (seeing && phaseChanged && wasOver && kind === 'setup') this.showBoard();
    // Two players on one phone: the curtain lowered (after 「交代する」 or a confirmed arrangement,
    // pressed in the panel below) and lifted into the next arrangement are where the phone is
    // handed over and looked at: the board, not the panel.
    if (phaseChanged && (kind === 'setup-curtain' || kind === 'turn-curtain' || (wasSetupCurtain && kind === 'setup'))) this.showBoard();
    // A friend room's first call to act (the URL to send, the button to join) is in the panel,
    // on a phone a screen below the board: brought into view once, when it comes.
    const call = this.callToAct();
    if (call !== null && !this.callShown) this.showCall(call);
    this.callShown = call !== null;
  }

  /** A friend room's invitation (the URL to send) or its join button, when the panel shows one. */
  private callToAct(): HTMLElement | null {
    return this.panel.querySelector<HTMLElement>('.online-invite, [data-focus-key="online-join"]');
  }

  private showCall(call: HTMLElement): void {
    if (!this.keyboardLast && typeof call.scrollIntoView === 'function') call.scrollIntoView({ block: 'nearest' });
  }

  /** Sounds what changed in the game on screen since the last redraw. */
  private listen(match: Match | null): void {
    const view = match?.view(match.phase.side) ?? null;
    if (match === null) this.heard = null;
    if (match === null || view === null) return;
    const now = heardOf(match, view, match.phase.side, this.mode?.id === 'local');
    const cue = cueFor(this.heard, now);
    this.heard = now;
    if (cue !== null) this.sounds.play(cue);
  }

  /**
   * When a redraw took away the focused element (an invitation gone once the friend joined, a
   * button that became a message), puts the focus where the player acts next instead of leaving
   * it at the top of the page. Runs after the panels' own choices (`focusIfLost`, which wait a
   * microtask) and after any redraw that follows at once, so it never overrides them.
   */
  private keepFocus(): void {
    setTimeout(() => {
      const active = document.activeElement;
      if (active !== null && active !== document.body) return;
      const match = this.match;
      if (match === null) return;
      const phase = match.phase;
      if (phase.kind === 'setup-curtain' || phase.kind === 'turn-curtain') this.focusCurtain();
      // Nobody is seated yet (a room still loading or inviting): its panel places the focus.
      else if (match.viewer === null) return;
      else if (phase.kind === 'over') this.focusInPanel(this.panel.querySelector<HTMLElement>('.result'));
      else this.focusBoard(phase.side);
    }, 0);
  }

  /**
   * Puts the keyboard on the grid, at the player's square. A player using the keys is scrolled
   * to it (with the 3D board above, the grid starts below the screen, and a focus out of sight
   * is no focus); a player using a pointer watches the board and is not moved.
   */
  private focusBoard(side: Side): void {
    this.grid.focus(this.ownSquareToFocus(side), this.keyboardLast);
  }

  private focusForPhase(phase: Phase | null): void {
    if (phase === null) {
      const offer = this.panel.querySelector<HTMLElement>('[data-focus-key^="resume"]');
      (offer ?? this.panel.querySelector<HTMLElement>('.mode-button'))?.focus({ preventScroll: true });
      // What a player coming back looks for; on a phone it stands a screen below the empty board.
      const section = offer?.closest('.resume');
      if (section instanceof HTMLElement && typeof section.scrollIntoView === 'function') section.scrollIntoView({ block: 'nearest' });
      return;
    }
    switch (phase.kind) {
      case 'setup-curtain':
      case 'turn-curtain':
        this.focusCurtain();
        break;
      case 'setup':
      case 'turn':
        this.focusBoard(phase.side);
        break;
      case 'moved':
        this.focusInPanel(this.panel.querySelector<HTMLElement>('[data-focus-key="hand-over"]'));
        break;
      case 'over':
        this.focusInPanel(this.panel.querySelector<HTMLElement>('.result'));
        break;
    }
  }

  /**
   * Focuses a control of the panel. A keyboard player is shown it (on a phone or a zoomed page
   * the panel is a screen below the board, and a focus out of sight is lost); a finger or a
   * mouse keeps the view, which the strip serves.
   */
  private focusInPanel(el: HTMLElement | null): void {
    if (el === null) return;
    el.focus({ preventScroll: true });
    if (this.keyboardLast && typeof el.scrollIntoView === 'function') el.scrollIntoView({ block: 'nearest' });
  }

  /**
   * Where the panel sits below the board (narrow screens), a strip pinned to the bottom of the
   * screen repeats its news: whose turn, who is thinking, what the last moves did, the result.
   * Taken from the panel as drawn, so every mode's panel feeds it alike.
   */
  private drawStrip(match: Match | null): void {
    const texts = (selector: string): string[] =>
      [...this.panel.querySelectorAll(selector)].map((el) => el.textContent?.trim() ?? '').filter((text) => text !== '');
    // A notice answers a tap (a swap refused, a piece that cannot move): on a phone the panel
    // holding it is a screen below, so the strip carries it too, while arranging as well.
    // A friend room's trouble (the connection lost, the friend away, the offer of the CPU) is
    // news the player must not miss below the board either.
    const orHint = (notices: string[], hint: MessageKey): string[] => (notices.length > 0 ? notices : [this.i18n.t(hint)]);
    const trouble = (): string[] =>
      texts('[data-connection="waiting"] > p:first-child, [data-connection="stopped"] > p:first-child, [data-presence="away"], .online-offer > p:first-child');
    const lines =
      match === null || match.viewer === null
        ? []
        : match.phase.kind === 'setup'
          ? // What to do now, and how to finish: the panel saying so is a screen below the board.
            // After "play again" in mid-game, that the game left is kept comes before the hint.
            [...texts('h2:not(.online-title)').slice(0, 1), ...orHint([...texts('[data-notice]'), ...texts('#set-aside-text')], 'setupStripHint'), ...trouble(), ...texts('[data-friend-news]')]
          : match.phase.kind === 'over'
            ? [...texts('.result-verdict, .result-text'), ...texts('[data-friend-news]')]
            : [...texts('h2:not(.online-title)').slice(0, 1), ...trouble(), ...texts('[data-waiting]'), ...texts('[data-notice]'), ...texts('.reports li'), ...texts('[data-quiet-news]')];
    // Drawn from an attribute by CSS: the page's text holds each message once, so a search for
    // it (a player's find-in-page, a test) does not meet a second copy.
    const paragraphs = lines.map((text) => h('p', { attrs: { 'data-text': text } }));
    // Two on one phone: the hand-over is pressed every turn, and the panel's button is a screen
    // below the board. The strip's copy is for a finger only (the strip is hidden from the
    // reading and out of the Tab order; the panel's button serves the keyboard).
    // (A friend room's 'moved' is its wait for the friend: nothing to hand over there.)
    // A strip button is for a finger only: out of the Tab order, its label drawn from an attribute.
    const stripAction = (key: string, text: string, primary: boolean, onClick: () => void): HTMLButtonElement => {
      const b = h('button', {
        class: `btn strip-action${primary ? ' primary' : ''}`,
        attrs: { type: 'button', tabindex: '-1', 'data-text': text, 'data-strip-action': key },
      });
      b.addEventListener('click', onClick);
      return b;
    };
    const handOver =
      match !== null && match.phase.kind === 'moved' && this.mode?.id === 'local'
        ? stripAction('hand-over', this.i18n.t('handOver'), true, () => {
            match.handOver();
            this.update();
          })
        : null;
    const aside = this.setAside;
    const back =
      aside !== null && match === aside.match && match.phase.kind === 'setup'
        ? stripAction('set-aside-back', this.i18n.t('setAsideBack'), false, aside.restore)
        : null;
    // The step that ends the arrangement, and what follows the game's end, are a screen or more
    // below the board on a phone or a tablet (past the whole button board): the strip offers
    // them too, as presses of the panel's own buttons.
    const phase = match === null || match.viewer === null ? null : match.phase.kind;
    const nextKeys = phase === 'over' ? ['play-again', 'rematch'] : phase === 'setup' ? ['confirm'] : [];
    const panelButton = (key: string): HTMLButtonElement | null => this.panel.querySelector<HTMLButtonElement>(`[data-focus-key="${key}"]`);
    const next = nextKeys.flatMap((key) => {
      const b = panelButton(key);
      if (b === null || b.disabled) return [];
      // The panel's button of the moment is pressed: the panel may have been drawn again since.
      return [stripAction(key, b.textContent ?? '', b.classList.contains('primary'), () => panelButton(key)?.click())];
    });
    const actions = [handOver, back, ...next].filter((b) => b !== null);
    this.strip.replaceChildren(...paragraphs, ...actions);
    this.strip.hidden = lines.length === 0 && actions.length === 0;
    // The board's place on a phone held sideways follows the game, not the strip: behind each
    // curtain the strip is empty, and the board had widened and narrowed at every hand-over.
    this.strip.parentElement?.classList.toggle('with-strip', match !== null);
  }

  /**
   * The curtain's card is what the next player must see, whole, wherever the last one had
   * scrolled to (on a phone, the hand-over button is far below it). The keyboard lands on its
   * words, not its button: the Enter that handed the device over, pressed again or held, had
   * lifted the curtain for the player who had just moved, showing the other's pieces. The next
   * player goes on to the button (Tab) on purpose.
   */
  private focusCurtain(): void {
    const card = this.curtain.querySelector<HTMLElement>('.curtain-card');
    card?.focus({ preventScroll: true });
    if (card !== null && typeof card.scrollIntoView === 'function') card.scrollIntoView({ block: 'nearest' });
  }

  /** Where the grid focus lands when a player starts looking: the square they last used if it
   * still holds one of their pieces, else their piece nearest the front. */
  private ownSquareToFocus(side: Side): Square | undefined {
    const own = (sq: Square | undefined): boolean =>
      sq !== undefined && this.root.querySelector(`.cell.own[data-square="${sq}"]`) !== null;
    const remembered = this.lastSquare[side];
    if (own(remembered)) return remembered;
    const cells = [...this.root.querySelectorAll<HTMLElement>('.cell.own')];
    cells.sort((a, b) => Number(a.dataset['row']) - Number(b.dataset['row']) || Number(a.dataset['c0']) - Number(b.dataset['c0']));
    // In play, a piece that can move now rather than a mine (the front row's pieces often cannot).
    const movable = new Set((this.match?.legalMoves() ?? []).map(([from]) => from));
    const first = cells.find((c) => movable.has(c.dataset['square'] ?? '')) ?? cells[0];
    return first?.dataset['square'];
  }

  private drawToolbar(): void {
    const t = this.i18n;
    // Drawn again only when what it shows changes: a language list being stepped through with
    // the arrows keeps its step when the CPU's or the friend's move redraws the page (replaced,
    // the list lost the focus and its half-made choice was applied).
    const drawnFor = `${t.lang}|${this.sounds.enabled}`;
    if (this.toolbarDrawnFor === drawnFor) return;
    this.toolbarDrawnFor = drawnFor;
    // Named by its label below (an aria-label as well made readers say "Language" twice).
    const select = h('select', { class: 'lang' });
    select.dataset['focusKey'] = 'lang';
    for (const lang of LANGS) {
      const opt = h('option', { text: LANG_NAMES[lang], attrs: { value: lang, lang } });
      opt.selected = lang === t.lang;
      select.append(opt);
    }
    // Keys on the closed list (arrows, a first letter) change its value, and fire `change`, as
    // they step: going from 日本語 to English redrew the whole page in Korean on the way. A
    // choice stepped to takes effect on Enter or when the focus leaves the list; one made with
    // the pointer, or in the opened list, at once.
    let keyDown = false;
    let stepped = false;
    const apply = (): void => {
      stepped = false;
      if (select.value !== this.i18n.lang) this.setLang(select.value as Lang);
    };
    select.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && stepped) {
        // Chromium would also open the list, which then held the next keys.
        e.preventDefault();
        apply();
        return;
      }
      // A change during this key's own default action is a step (Alt+arrow opens the list).
      if (!e.altKey) {
        keyDown = true;
        setTimeout(() => {
          keyDown = false;
        }, 0);
      }
    });
    select.addEventListener('change', () => {
      if (keyDown) stepped = true;
      else apply();
    });
    // Once the focus has landed where it went, so the redraw finds it there to keep.
    select.addEventListener('blur', () => {
      if (stepped) setTimeout(apply, 0);
    });
    const sound = button(t.t('sound'), () => this.toggleSound(), { key: 'sound', class: 'btn ghost sound-toggle' });
    sound.setAttribute('aria-pressed', String(this.sounds.enabled));
    this.toolbar.replaceChildren(
      sound,
      button(t.t('help'), () => void this.openHelp(), { key: 'open-help', class: 'btn ghost' }),
      h('label', { class: 'lang-label' }, h('span', { class: 'sr-only', text: t.t('language') }), select),
    );
  }

  /**
   * The panel's own tools, under whatever the mode shows: the win/loss table, opened in the panel
   * itself (beside the board, or below it on a narrow screen) so you can play while you read it.
   */
  private panelTools(curtained: boolean): Node {
    const t = this.i18n;
    const toggle = button(t.t('table'), () => this.toggleTable(), { key: 'open-table', class: 'btn ghost wide' });
    // Under a curtain nobody is looking: no kind name stays on the page, not even the table's.
    const shown = this.tableOpen && !curtained;
    toggle.setAttribute('aria-expanded', String(shown));
    // Only a panel that is there can be named as controlled.
    if (!shown) return h('div', { class: 'panel-tools' }, toggle);
    toggle.setAttribute('aria-controls', 'battle-table-panel');
    this.battleTable ??= this.engine.battleTable();
    return h(
      'div',
      { class: 'panel-tools' },
      toggle,
      h(
        'section',
        { class: 'table-panel', attrs: { id: 'battle-table-panel', 'aria-labelledby': 'battle-table-title' } },
        h('h2', { text: t.t('tableTitle'), attrs: { id: 'battle-table-title' } }),
        renderTable(this.battleTable, t),
        // The table is long: whoever has read to its end closes it there, not a screen above.
        button(t.t('tableClose'), () => this.closeTableFromEnd(), { key: 'close-table', class: 'btn ghost wide' }),
      ),
    );
  }

  toggleSound(): void {
    this.sounds.toggle();
    this.update();
  }

  toggleTable(): void {
    this.tableOpen = !this.tableOpen;
    this.update();
    // The panel may end below the fold of its own scroll: opening the table shows it, whole where
    // it fits the window, else from its toggle down. The toggle just above it stays in sight
    // either way: scrolled to the table's title, the toggle pressed by the keyboard went out of
    // sight, its focus ring with it.
    const table = this.tableOpen ? document.getElementById('battle-table-panel') : null;
    if (table === null || typeof table.scrollIntoView !== 'function') return;
    const fits = table.getBoundingClientRect().height <= window.innerHeight;
    const toggle = this.root.querySelector<HTMLElement>('[data-focus-key="open-table"]') ?? table;
    if (fits) table.scrollIntoView({ block: 'nearest' });
    toggle.scrollIntoView({ block: fits ? 'nearest' : 'start' });
  }

  private closeTableFromEnd(): void {
    this.toggleTable();
    // The button pressed is gone with the table: the keyboard and the eye go back to its toggle.
    const toggle = this.root.querySelector<HTMLElement>('[data-focus-key="open-table"]');
    toggle?.focus({ preventScroll: true });
    toggle?.scrollIntoView({ block: 'nearest' });
  }

  private drawCurtain(match: Match | null): void {
    const p = match?.phase;
    const t = this.i18n;
    if (p === undefined || (p.kind !== 'setup-curtain' && p.kind !== 'turn-curtain')) {
      this.curtain.hidden = true;
      this.curtain.replaceChildren();
      this.stage.classList.remove('curtained');
      return;
    }
    const side = t.side(p.side);
    const setup = p.kind === 'setup-curtain';
    this.curtain.hidden = false;
    this.stage.classList.add('curtained');
    this.curtain.setAttribute('aria-label', t.t('curtainFirst'));
    this.curtain.replaceChildren(
      h(
        'div',
        { class: `curtain-card side-${p.side}`, attrs: { tabindex: '-1', role: 'group', 'aria-labelledby': 'curtain-text', 'data-focus-key': 'curtain' } },
        h('div', { class: 'curtain-crest', attrs: { 'aria-hidden': 'true' } }),
        h('p', { class: 'curtain-text', attrs: { id: 'curtain-text' }, text: t.t(setup ? 'curtainSetup' : 'curtainTurn', { side }) }),
        // One name for the curtain's button whether the side arranges or moves next: the seed
        // page's 「先手の番を始める」.
        button(
          t.t('startTurn', { side }),
          () => {
            match?.reveal();
            const reports = match?.reports ?? [];
            if (reports.length > 0) this.say(this.i18n.sentences(reports.map((r) => this.reportText(r))));
            this.update();
          },
          { key: 'reveal', class: 'btn primary big' },
        ),
      ),
    );
  }

  private startPanel(): Node[] {
    const t = this.i18n;
    const list = h('div', { class: 'modes' });
    let group: { heading: MessageKey; el: HTMLElement } | null = null;
    for (const mode of MODES) {
      const b = this.modeButton(mode);
      if (mode.group === undefined) {
        group = null;
        list.append(b);
        continue;
      }
      if (group === null || group.heading !== mode.group.heading) {
        const id = `mode-group-${mode.id}`;
        const el = h('div', { class: 'mode-group-buttons' });
        list.append(
          h(
            'div',
            { class: 'mode-group', attrs: { role: 'group', 'aria-labelledby': id } },
            h('h3', { class: 'mode-group-title', attrs: { id }, text: t.t(mode.group.heading) }),
            el,
          ),
        );
        group = { heading: mode.group.heading, el };
      }
      group.el.append(b);
    }
    return [...this.resumeEl(), h('h2', { text: t.t('chooseMode') }), list];
  }

  /** A start-screen button, named by its title (or its label in a group) alone: what a player says or searches for. */
  private modeButton(mode: Mode): HTMLElement {
    const t = this.i18n;
    const b = h(
      'button',
      {
        class: mode.group === undefined ? 'mode-button' : 'mode-button in-group',
        attrs: { type: 'button', 'aria-labelledby': `mode-title-${mode.id}`, 'aria-describedby': `mode-desc-${mode.id}` },
      },
      h('span', { class: 'mode-title', attrs: { id: `mode-title-${mode.id}` }, text: t.t(mode.group?.label ?? mode.title) }),
      h('span', { class: 'mode-desc', attrs: { id: `mode-desc-${mode.id}` }, text: t.t(mode.description) }),
      this.recordEl(mode, `mode-record-${mode.id}`),
    );
    if (b.querySelector('.mode-record') !== null) b.setAttribute('aria-describedby', `mode-desc-${mode.id} mode-record-${mode.id}`);
    b.dataset['focusKey'] = `mode-${mode.id}`;
    b.dataset['mode'] = mode.id;
    b.addEventListener('click', () => this.startAnew(mode));
    return b;
  }

  /**
   * A game chosen on the start screen: an arrangement left half made (by a reload) is given up
   * with it, as the start screen said.
   */
  private startAnew(mode: Mode, resume = false): void {
    const offered = this.offeredDraft();
    // The offered arrangement's own mode chosen again starts from it: the offer gives it up only
    // for another game ("おまかせで並べ直す" is a press away).
    if (offered !== null && offered.place === mode.id && !resume) {
      this.startMode(mode, { side: offered.side, arrangement: offered.arrangement });
      return;
    }
    if (offered !== null) this.drafts.discard(offered.place);
    this.startMode(mode, undefined, resume);
  }

  /** The newest arrangement against the CPU that a reload cut short (a room brings back its own). */
  private offeredDraft(): SetupDraft | null {
    return this.drafts.latest((place) => CPU_MODES.some((m) => m.id === place));
  }

  /** How far a kept game went: its moves, or that none was played yet. */
  private progress(moves: number): string {
    return moves === 0 ? this.i18n.t('resumeNoMoves') : this.i18n.t('resumeMoves', { moves });
  }

  /** The unfinished games kept in the browser, to go on with (nothing if there is none). */
  private resumeEl(): Node[] {
    const t = this.i18n;
    const kept: { mode: Mode; text: string; key: string; label?: MessageKey; go?: () => void }[] = [];
    const cpu = this.cpuGames.load();
    const cpuMode = cpu === null ? undefined : CPU_MODES.find((m) => m.id === cpu.mode);
    if (cpu !== null && cpuMode !== undefined) {
      kept.push({ mode: cpuMode, text: t.t('resumeText', { mode: t.t(modeName(cpuMode)), progress: this.progress(cpu.game.moves.length) }), key: 'resume' });
    }
    const local = this.localGames.load();
    const localMode = MODES.find((m) => m.id === 'local');
    if (local !== null && localMode !== undefined) {
      const progress = local.gote === null ? t.t('resumeSecondArranging', { side: t.side('gote') }) : this.progress(local.moves.length);
      kept.push({ mode: localMode, text: t.t('resumeLocalText', { mode: t.t(localMode.title), progress }), key: 'resume-local' });
    }
    // A game with a friend left by choosing another mode: its room URL went with it.
    const room = this.seats.lastRoom();
    if (room !== null) kept.push({ mode: friendMode(room), text: t.t('resumeFriendText'), key: 'resume-friend', label: 'resumeRoom' });
    const draft = this.offeredDraft();
    const draftMode = draft === null ? undefined : CPU_MODES.find((m) => m.id === draft.place);
    if (draft !== null && draftMode !== undefined) {
      kept.push({
        mode: draftMode,
        text: t.t('resumeSetupText', { mode: t.t(modeName(draftMode)) }),
        key: 'resume-setup',
        label: 'resumeSetup',
        go: () => this.startMode(draftMode, { side: draft.side, arrangement: draft.arrangement }),
      });
    }
    if (kept.length === 0) return [];
    return [
      h(
        'section',
        { class: 'resume', attrs: { 'aria-labelledby': 'resume-title' } },
        h('h2', { text: t.t('resumeTitle'), attrs: { id: 'resume-title' } }),
        ...kept.flatMap(({ mode, text, key, label, go: goOn }) => {
          // Two kept games give two buttons of one label: each is described by its own game.
          const go = button(t.t(label ?? 'resume'), goOn ?? (() => this.startAnew(mode, true)), { key, class: 'btn primary wide' });
          go.setAttribute('aria-describedby', `${key}-text`);
          return [h('p', { text, attrs: { id: `${key}-text` } }), go];
        }),
      ),
    ];
  }

  private panelFor(match: Match): Node[] {
    const mode = this.mode;
    const own = mode?.panel?.(match, this.panelKit());
    if (own !== undefined && own !== null) return own;
    // Which game this is (which CPU level, above all), as the start screen named it.
    const name = mode === null ? [] : [h('p', { class: 'mode-name', attrs: { 'data-mode-name': mode.id }, text: this.i18n.t(modeName(mode)) })];
    return [...name, ...this.matchPanel(match)];
  }

  private panelKit(): PanelKit {
    return {
      i18n: this.i18n,
      update: () => this.update(),
      note: (message, tone) => this.note(message, tone),
      say: (text) => this.say(text),
      notice: () => this.noticeEl(),
      setupTools: (match, setup) => this.setupTools(match, setup),
      reports: (reports) => this.reportsEl(reports),
      removed: (view) => this.removedEl(view.removed.own, view.removed.enemy_count, view.plies_without_battle),
      revealedRemoved: (view) => {
        const other = opponent(view.side);
        return [
          this.removedListEl(this.i18n.t('removedOwn'), view.side, view.removed.own),
          this.removedListEl(this.i18n.t('removedEnemy'), other, removedEnemyKinds(view, this.engine.kinds)),
        ];
      },
      log: (match) => this.logEl(match),
      resign: (match) => this.resignButton(match),
      result: (status, side) =>
        status === undefined ? this.resultEl('', '', null) : this.resultEl(this.verdictText(status, side), this.statusText(status), null),
      reportText: (r) => this.reportText(r),
      modes: MODES,
      startMode: (mode, startWith) => this.startMode(mode, startWith),
      chooseModeAgain: () => this.chooseModeAgain(),
    };
  }

  /** Re-arrange, mirror, previous (where the match offers it: not two people at one device), undo. */
  private setupTools(match: Match, s: SetupState): Node {
    const t = this.i18n;
    const loadPrevious = match.loadPrevious?.bind(match);
    return h(
      'div',
      { class: 'button-grid' },
      button(t.t('rearrange'), () => {
        s.rearrange(this.env.random());
        this.note((t) => t.t('rearranged'));
        this.update();
      }, { key: 'rearrange' }),
      button(t.t('mirror'), () => {
        s.mirror();
        this.note((t) => t.t('mirrored'));
        this.update();
      }, { key: 'mirror' }),
      loadPrevious !== undefined
        ? button(t.t('previous'), () => {
            const loaded = loadPrevious();
            this.note((t) => t.t(loaded ? 'previousLoaded' : 'noPrevious'));
            this.update();
          }, { key: 'previous' })
        : null,
      button(t.t('undoSwap'), () => {
        const change = s.undo() ? s.undone : null;
        if (change !== null) {
          this.note((t) => (change.type === 'swap' ? t.t('undoneSwap', { a: change.a, b: change.b }) : t.t(UNDONE[change.type])));
        }
        this.update();
      }, { key: 'undo', disabled: !s.canUndo }),
    );
  }

  private resignButton(match: Match): Node {
    return button(this.i18n.t('resign'), () => {
      const status = match.resign();
      if (status !== null) {
        this.say(this.i18n.sentences(this.resultLines(status, match.phase.side)));
        this.resultSaid = true;
      }
      this.update();
    }, { key: 'resign', class: 'btn danger wide', disabled: !match.canResign });
  }

  private matchPanel(match: Match): Node[] {
    const t = this.i18n;
    const mode = this.mode;
    const p = match.phase;
    const side = t.side(p.side);
    const out: Node[] = [];
    const badge = sideBadge(p.side, side);
    switch (p.kind) {
      case 'setup-curtain':
      case 'turn-curtain':
        out.push(h('h2', {}, badge), h('p', { class: 'hint', text: t.t('curtainFirst') }));
        break;
      case 'setup': {
        const s = p.setup;
        out.push(
          h('h2', { text: t.t('setupTitle', { side }) }),
          h('p', { class: 'hint', text: t.t('setupHint') }),
          this.noticeEl(),
          this.setupTools(match, s),
          button(t.t('confirm'), () => {
            match.confirmSetup();
            this.update();
          }, { key: 'confirm', class: 'btn primary wide' }),
        );
        break;
      }
      case 'turn':
      case 'moved':
      case 'waiting': {
        const view = match.view(p.side);
        if (p.kind === 'waiting') {
          const failed = p.note === 'cpuFailed';
          // Whose move it is while the CPU thinks: the CPU's, under its side's badge.
          const cpuSide = t.side(opponent(p.side));
          const cpuBadge = sideBadge(opponent(p.side), cpuSide);
          out.push(
            p.note === 'cpuThinking' ? h('h2', {}, ...withBadge(t.t('cpuTurnTitle', { side: cpuSide }), cpuSide, cpuBadge)) : h('h2', {}, badge),
            h('p', { class: failed ? 'thinking failed' : 'thinking', text: t.t(p.note), attrs: { 'data-waiting': '' } }),
          );
        } else {
          out.push(
            // Against the CPU the page has one player: "your move", under the side's badge.
            h('h2', {}, ...withBadge(t.t(p.kind === 'moved' ? 'movedTitle' : this.mode?.id === 'local' ? 'turnTitle' : 'yourTurnTitle', { side }), side, badge)),
            h('p', { class: 'hint', text: t.t(p.kind === 'turn' ? 'turnHint' : 'movedHint') }),
            this.noticeEl(),
          );
        }
        const caution = match.caution;
        if (caution !== undefined) out.push(h('p', { class: 'notice warn', text: t.t(caution), attrs: { 'data-caution': '' } }));
        out.push(this.reportsEl(match.reports));
        if (p.kind === 'moved') {
          out.push(button(t.t('handOver'), () => {
            match.handOver();
            this.update();
          }, { key: 'hand-over', class: 'btn primary wide' }));
        }
        if (view !== null) out.push(this.removedEl(view.removed.own, view.removed.enemy_count, view.plies_without_battle));
        break;
      }
      case 'over': {
        const view = match.view(p.side);
        const result = this.resultEl(this.verdictHere(p.status, p.side), this.statusText(p.status), mode === null ? null : this.recordEl(mode));
        // Two players share the screen: once the game is over, "you" would name whoever moved
        // last, so the last moves and the losses are told by side.
        const shared = mode?.id === 'local';
        out.push(result, this.reportsEl(match.reports, shared ? p.side : undefined));
        if (view !== null) {
          out.push(
            this.removedListEl(t.t(shared ? 'removedOfSide' : 'removedOwn'), p.side, view.removed.own),
            this.removedListEl(t.t(shared ? 'removedOfSide' : 'removedEnemy'), opponent(p.side), removedEnemyKinds(view, this.engine.kinds)),
          );
        }
        break;
      }
    }
    if (p.kind !== 'setup' && p.kind !== 'setup-curtain') out.push(this.logEl(match));
    const aside = this.setAside;
    if (aside !== null && aside.match === match) {
      out.push(
        h(
          'section',
          { class: 'set-aside', attrs: { 'aria-labelledby': 'set-aside-text' } },
          h('p', { text: this.setAsideText(aside.moves), attrs: { id: 'set-aside-text' } }),
          button(t.t('setAsideBack'), aside.restore, { key: 'set-aside-back', class: 'btn wide' }),
        ),
      );
    }
    out.push(
      h(
        'div',
        { class: 'game-buttons' },
        button(t.t('playAgain'), () => {
          // Pressed again while arranging, the game set aside stays set aside.
          const aside = this.setAsideOf(match) ?? (this.setAside?.match === match ? this.setAside : null);
          match.restart();
          this.setAside = aside;
          this.say('');
          this.update();
          this.showBoard();
          // What the redraw said (the curtain), or else what to do now: a new game was dealt.
          const said = this.live.textContent ?? '';
          const heading = said === '' ? this.panel.querySelector('h2')?.textContent ?? '' : said;
          this.say(this.i18n.sentences([heading, ...(aside === null ? [] : [this.setAsideText(aside.moves)])]));
        }, { key: 'play-again' }),
        button(t.t('chooseModeAgain'), () => this.chooseModeAgain(), { key: 'choose-mode' }),
      ),
    );
    // Last in the panel, for the keyboard too: next to the board (the first stop after it) or
    // to the hand-over, one stray press had lost the game. The two buttons above lose nothing.
    if (p.kind === 'turn' || p.kind === 'moved' || p.kind === 'waiting') out.push(this.resignButton(match));
    return out;
  }

  private setAsideText(moves: number): string {
    return this.i18n.t('setAsideText', { progress: this.progress(moves) });
  }

  /**
   * How to bring back `match`'s game once "play again" has begun another: the game as kept in
   * the browser, while it is this game (another tab may keep its own); null for a game over or
   * not yet begun, which "play again" loses nothing of.
   */
  private setAsideOf(match: Match): App['setAside'] {
    const mode = this.mode;
    const p = match.phase;
    if (mode === null || p.kind === 'over' || isArranging(p.kind)) return null;
    const played = match.view(p.side)?.history.length;
    const back = (keep: () => void) => () => {
      this.endMatch();
      keep();
      this.startMode(mode, undefined, true);
    };
    if (mode.id === 'local') {
      const kept = this.localGames.load();
      if (kept === null || kept.moves.length !== played) return null;
      return { match, moves: played, restore: back(() => this.localGames.save(kept)) };
    }
    const kept = this.cpuGames.load();
    if (kept === null || kept.mode !== mode.id || kept.game.moves.length !== played) return null;
    return { match, moves: played, restore: back(() => this.cpuGames.save(kept.mode, kept.game)) };
  }

  /** The review of `match`, built on first use once the game is over; null if it cannot be replayed. */
  private reviewOf(match: Match): Review | null {
    if (match.phase.kind !== 'over') return null;
    if (this.review?.match === match) return this.review;
    const setups = match.setups();
    const view = match.view(match.phase.side);
    if (setups === null || view === null) return null;
    const frames = reviewFrames(setups, view.history);
    // A replay that falls short of the record would show a game that was not played.
    if (frames.length !== view.history.length + 1 || frames.length < 2) return null;
    this.review = { match, frames, at: frames.length - 1, undone: undefined };
    return this.review;
  }

  /** The position the review shows, unless it shows the end (then the board is the match's own). */
  private reviewedFrame(): ReviewFrame | null {
    const r = this.review;
    return r === null || r.at >= r.frames.length - 1 ? null : (r.frames[r.at] ?? null);
  }

  /**
   * The state as the 3D board writes it on the pieces' faces: short names where the full one is
   * long. The grid keeps the full names, which its squares' accessible names read out.
   */
  private onPieceFaces(state: BoardState): BoardState {
    const t = this.i18n;
    return {
      ...state,
      pieces: state.pieces.map((p) => (p.label === undefined || p.kind === undefined ? p : { ...p, label: t.kindOnPiece(p.kind) })),
    };
  }

  private reviewState(frame: ReviewFrame, viewer: Side, undone: Review['undone']): BoardState {
    const t = this.i18n;
    const ply = frame.ply;
    return {
      viewer,
      pieces: frame.pieces.map((p) => ({ ...p, label: t.kind(p.kind) })),
      moveTargets: [],
      attackTargets: [],
      lastMove: ply === null ? undefined : { from: ply.from, to: ply.to },
      battle: ply?.battle ?? undefined,
      undone,
    };
  }

  /** Where the review stands, and what the ply that led there was, with the kinds that took part. */
  private reviewLines(r: { readonly frames: readonly ReviewFrame[]; readonly at: number }): string[] {
    const t = this.i18n;
    const total = r.frames.length - 1;
    const ply = r.frames[r.at]?.ply ?? null;
    if (ply === null) return [t.t('reviewStart', { total })];
    return [t.t('reviewAt', { n: r.at, total }), plyLine(t, r.frames[r.at - 1]?.pieces ?? [], ply)];
  }

  /** Copies the finished game's record; where the clipboard refuses, shows it to copy by hand. */
  private copyRecord(match: Match, frames: readonly ReviewFrame[]): void {
    const t = this.i18n;
    const mode = this.mode;
    const p = match.phase;
    if (p.kind !== 'over') return;
    const text = gameRecordText(t, {
      mode: mode === null ? '' : t.t(modeName(mode)),
      result: [this.statusText(p.status)],
      date: new Date(),
      frames,
    });
    const done = (ok: boolean): void => {
      this.recordCopy = { match, ok, text };
      this.say(t.t(ok ? 'recordCopied' : 'recordCopyFailed'));
      this.update();
    };
    if (navigator.clipboard === undefined) done(false);
    else navigator.clipboard.writeText(text).then(() => done(true), () => done(false));
  }

  /** Shows the position after `at` plies (0: the start) and says what led there. */
  private reviewTo(r: Review, at: number): void {
    const from = r.at;
    r.at = Math.max(0, Math.min(r.frames.length - 1, at));
    const back = r.at === from - 1 ? r.frames[from]?.ply : null;
    r.undone = back ? { from: back.from, to: back.to } : undefined;
    this.say(this.i18n.sentences(this.reviewLines(r)));
    this.update();
  }

  private reviewEl(match: Match): Node | null {
    const r = this.reviewOf(match);
    if (r === null) return null;
    const t = this.i18n;
    const last = r.frames.length - 1;
    const go = (at: number): void => this.reviewTo(r, at);
    const [where, what] = this.reviewLines(r);
    return h(
      'section',
      { class: 'review', attrs: { 'aria-labelledby': 'review-title', 'data-review-at': String(r.at) } },
      // h2: the section stands beside the board's own, right under the page's h1.
      h('h2', { text: t.t('reviewTitle'), attrs: { id: 'review-title' } }),
      h('p', { class: 'hint', text: t.t('reviewHint') }),
      h('p', { class: 'review-at', text: where ?? '' }),
      what === undefined ? null : h('p', { class: 'review-ply', text: what }),
      h(
        'div',
        { class: 'button-grid review-buttons' },
        withIcon('|◀', button(t.t('reviewFirst'), () => go(0), { key: 'review-first', disabled: r.at === 0 })),
        withIcon('◀', button(t.t('reviewBack'), () => go(r.at - 1), { key: 'review-back', disabled: r.at === 0 })),
        withIcon('▶', button(t.t('reviewForward'), () => go(r.at + 1), { key: 'review-forward', disabled: r.at === last })),
        withIcon('▶|', button(t.t('reviewLast'), () => go(last), { key: 'review-last', disabled: r.at === last })),
      ),
      button(t.t('recordCopy'), () => this.copyRecord(match, r.frames), { key: 'record-copy' }),
      this.recordCopyEl(match),
    );
  }

  /** What came of copying the record: a note, and the record itself where copying failed. */
  private recordCopyEl(match: Match): Node | null {
    const c = this.recordCopy;
    if (c === null || c.match !== match) return null;
    const t = this.i18n;
    const note = h('p', { class: `notice ${c.ok ? 'info' : 'warn'}`, text: t.t(c.ok ? 'recordCopied' : 'recordCopyFailed'), attrs: { 'data-record-copy': c.ok ? 'ok' : 'failed' } });
    if (c.ok) return note;
    const area = h('textarea', { class: 'record-text', attrs: { readonly: '', rows: '8', 'aria-label': t.t('recordText') } });
    area.value = c.text;
    return h('div', {}, note, area);
  }

  /** The player's results in a mode that keeps them, once there is one; else nothing. */
  private recordEl(mode: Mode, id?: string): Node | null {
    if (mode.keepsResults !== true) return null;
    const { won, lost, drawn } = this.results.tally(mode.id);
    if (won + lost + drawn === 0) return null;
    return h('span', { class: 'mode-record', text: this.i18n.t('modeRecord', { won, lost, drawn }), attrs: id === undefined ? {} : { id } });
  }

  private noticeEl(): Node {
    const n = this.notice;
    return h('p', { class: `notice ${n?.tone ?? ''}`, text: n === null ? '' : n.message(this.i18n), attrs: { 'data-notice': '' } });
  }

  /** The last moves' reports; `bySide`: told by side name, as seen by that side, not to "you". */
  private reportsEl(reports: readonly Report[], bySide?: Side): Node {
    const list = h('ul', { class: 'reports' });
    // While the review shows an earlier position, the last move's report would describe another board.
    for (const r of this.reviewedFrame() === null ? reports : []) {
      const text = bySide === undefined ? this.reportText(r) : this.reportTextBySide(r, bySide);
      if (text === '') continue;
      list.append(h('li', { class: r.type === 'battle' ? `battle ${r.result}` : 'move', text }));
    }
    return list;
  }

  private removedEl(own: readonly string[], enemyCount: number, quiet: number): Node {
    const t = this.i18n;
    return h(
      'div',
      { class: 'removed' },
      h('h3', { text: t.t('removedOwn') }),
      h('p', { class: 'removed-own', text: this.kindList(own) }),
      h('h3', { text: t.t('removedEnemy') }),
      h('p', { class: 'removed-enemy', text: t.t('removedCount', { count: enemyCount }) }),
      // Near the draw it is news: the strip over a phone's board carries it too.
      quiet > 0 ? h('p', { class: 'small', text: t.t('noBattleCount', { count: quiet }), attrs: quiet >= QUIET_NEWS ? { 'data-quiet-news': '' } : {} }) : null,
    );
  }

  private removedListEl(title: string, side: Side, kinds: readonly string[]): Node {
    const t = this.i18n;
    return h(
      'div',
      { class: 'removed' },
      // The side follows the title: before it, "Gote: enemy pieces removed" read as Gote's catch.
      h('h3', {}, title, ' ', sideBadge(side, t.side(side))),
      h('p', { text: this.kindList(kinds) }),
    );
  }

  /** Piece names in the order of the piece table, officers first (the order of the removals
   * says nothing useful). */
  private kindList(kinds: readonly string[]): string {
    const t = this.i18n;
    if (kinds.length === 0) return t.t('removedNone');
    const rank = new Map(this.engine.kinds.map((k, i) => [k.id as string, i]));
    const sorted = [...kinds].sort((a, b) => (rank.get(a) ?? 99) - (rank.get(b) ?? 99));
    return sorted.map((k) => t.kind(k)).join(t.t('listSeparator'));
  }

  private logEl(match: Match): Node {
    const t = this.i18n;
    const p = match.phase;
    const view = p.kind === 'setup' || p.kind === 'setup-curtain' ? null : match.view(p.side);
    const history = view?.history ?? [];
    const review = this.reviewOf(match);
    // A list that scrolls is a Tab stop of its own: named as its summary is, not read out whole.
    const list = h('ol', { class: 'log', attrs: { 'aria-label': t.t('logSummary', { n: history.length }) } });
    history.forEach((ply, i) => {
      const params = {
        n: i + 1,
        side: t.side(ply.side),
        from: ply.from,
        to: ply.to,
        outcome: ply.battle === null ? '' : t.t(`outcome_${ply.battle.outcome}`),
      };
      const text = t.t(ply.battle === null ? 'plyLine' : 'plyBattle', params);
      // After the end each line also sets the review to the position after that move.
      const jump =
        review === null
          ? null
          : button(text, () => {
              this.reviewTo(review, i + 1);
              this.showReviewedBoard();
            }, { key: `log-${i + 1}`, class: 'log-jump' });
      if (jump !== null) {
        if (review?.at === i + 1) jump.setAttribute('aria-current', 'step');
        // One Tab stop for the whole record (the move shown, else the last): the arrow keys go
        // through its lines, so the keys after it are not a hundred presses away.
        const stop = review !== null && (review.at >= 1 ? review.at === i + 1 : i === history.length - 1);
        jump.tabIndex = stop ? 0 : -1;
      }
      list.append(jump === null ? h('li', { text }) : h('li', {}, jump));
    });
    if (review !== null) list.addEventListener('keydown', (event) => this.stepThroughRecord(list, event));
    const scrollToCurrent = (): void => {
      const current = list.querySelector('[aria-current]');
      if (!(current instanceof HTMLElement)) {
        list.scrollTop = list.scrollHeight;
        return;
      }
      // Scrolls the list alone (scrollIntoView would move the page away from the board).
      const outer = list.getBoundingClientRect();
      const inner = current.getBoundingClientRect();
      if (inner.top < outer.top || inner.bottom > outer.bottom) list.scrollTop += inner.top - outer.top - (outer.height - inner.height) / 2;
    };
    const box = h('details', { class: 'log-box' }, h('summary', { text: t.t('logSummary', { n: history.length }), attrs: { 'data-focus-key': 'log' } }), list);
    // The page redraws at every move: the record stays open (and scrolled to its end) once opened.
    box.open = this.logOpen;
    box.addEventListener('toggle', () => {
      this.logOpen = box.open;
      // Opened: at its newest move (or the move the review shows), not at the first.
      if (box.open) scrollToCurrent();
    });
    if (this.logOpen) queueMicrotask(scrollToCurrent);
    return box;
  }

  /** Up and down (Home, End) move the keyboard along the record's lines; Enter shows one. */
  private stepThroughRecord(list: HTMLElement, event: KeyboardEvent): void {
    const lines = [...list.querySelectorAll<HTMLButtonElement>('.log-jump')];
    const at = lines.indexOf(event.target as HTMLButtonElement);
    if (at < 0) return;
    const to =
      event.key === 'ArrowDown' ? Math.min(at + 1, lines.length - 1)
      : event.key === 'ArrowUp' ? Math.max(at - 1, 0)
      : event.key === 'Home' ? 0
      : event.key === 'End' ? lines.length - 1
      : null;
    if (to === null) return;
    event.preventDefault();
    for (const [i, line] of lines.entries()) line.tabIndex = i === to ? 0 : -1;
    lines[to]?.focus();
  }

  /** A report made to the player at `side`, told with side names for two sharing the screen. */
  private reportTextBySide(r: Report, side: Side): string {
    const t = this.i18n;
    if (r.type === 'moved') return t.t('sideMoved', { side: t.side(r.mine ? side : opponent(side)), from: r.from, to: r.to });
    if (r.type === 'inEnemyHq') return this.hqNote(r.kind, side);
    const key = r.result === 'won' ? 'sideBattleWon' : r.result === 'lost' ? 'sideBattleLost' : 'sideBattleBoth';
    return t.t(key, { side: t.side(side), kind: t.kind(r.kind), square: r.square });
  }

  private reportText(r: Report): string {
    const t = this.i18n;
    if (r.type === 'moved') return t.t(r.mine ? 'youMoved' : 'enemyMoved', { from: r.from, to: r.to });
    if (r.type === 'inEnemyHq') return this.hqNote(r.kind);
    const key = r.result === 'won' ? 'battleWon' : r.result === 'lost' ? 'battleLost' : 'battleBoth';
    return t.t(key, { kind: t.kind(r.kind), square: r.square });
  }

  /**
   * Why a piece that stands in the enemy HQ has not won: only the six officers occupy. '' for an
   * officer there, whose occupation the game's result already tells. Told by side (`bySide`)
   * where two share the screen at the end.
   */
  private hqNote(kind: KindId, bySide?: Side): string {
    if (this.engine.kinds.find((k) => k.id === kind)?.occupies !== false) return '';
    const t = this.i18n;
    return bySide === undefined ? t.t('hqNoWin', { kind: t.kind(kind) }) : t.t('sideHqNoWin', { side: t.side(bySide), kind: t.kind(kind) });
  }

  /**
   * The result as the player at `side` takes it ("you won"), for a game with one player at this
   * screen; '' for a draw or a game still on, which the status already words for everyone.
   */
  private verdictText(status: Status, side: Side): string {
    if (status.state !== 'won') return '';
    return this.i18n.t(status.winner === side ? 'verdictWon' : 'verdictLost');
  }

  /** The verdict for the player at `side` where one player is at this screen; two share it in
   * the two-player mode, where "you won" would name nobody. */
  private verdictHere(status: Status, side: Side): string {
    const mode = this.mode;
    return mode === null || mode.id === 'local' ? '' : this.verdictText(status, side);
  }

  /** The end of the game as told to the player at `side`: the verdict first where there is one. */
  private resultLines(status: Status, side: Side): string[] {
    const verdict = this.verdictHere(status, side);
    return verdict === '' ? [this.statusText(status)] : [verdict, this.statusText(status)];
  }

  /**
   * How the game ended. Focused when the game ends: named by its heading alone, since the verdict
   * in it was just announced and a reader would otherwise say it twice.
   */
  private resultEl(verdict: string, why: string, record: Node | null): HTMLElement {
    const t = this.i18n;
    return h('div', { class: 'result', attrs: { tabindex: '-1', role: 'group', 'aria-labelledby': 'result-title' } },
      h('h2', { text: t.t('overTitle'), attrs: { id: 'result-title' } }),
      verdict === '' ? null : h('p', { class: 'result-verdict', text: verdict }),
      h('p', { class: 'result-text', text: why }),
      h('p', { class: 'hint', text: t.t('revealedNote') }),
      record,
    );
  }

  private statusText(status: Status): string {
    const t = this.i18n;
    switch (status.state) {
      case 'ongoing':
        return '';
      case 'won': {
        const loser = opponent(status.winner);
        return t.t(`won_${status.reason}`, { winner: t.side(status.winner), loser: t.side(loser) });
      }
      case 'draw':
        return t.t(`draw_${status.reason}`);
    }
  }

  private gridText(): GridText {
    const t = this.i18n;
    return {
      label: t.t('gridLabel'),
      river: t.t('riverLabel'),
      empty: (square) => t.t('cellEmpty', { square }),
      own: (square, kind) => t.t('cellOwn', { square, kind }),
      enemy: (square) => t.t('cellEnemy', { square }),
      revealed: (square, side, kind) => t.t('cellRevealed', { square, side: t.side(side), kind }),
      hidden: (square, side) => t.t('cellHidden', { square, side: t.side(side) }),
      selected: t.t('cellSelected'),
      move: t.t('cellMove'),
      attack: t.t('cellAttack'),
      last: t.t('cellLast'),
      hq: t.t('cellHq'),
      entrance: t.t('cellEntrance'),
      enemyMark: t.t('enemyMark'),
      separator: t.t('listSeparator'),
    };
  }

  // ---- dialogs -------------------------------------------------------------------------------

  private openDialog(title: string, body: Node, key: string): HTMLDialogElement {
    // The control that opened it, by key: a redraw meanwhile may have replaced the element.
    const opener = (document.activeElement as HTMLElement | null)?.dataset?.['focusKey'];
    this.closeDialog();
    const t = this.i18n;
    const titleId = `dialog-title-${key}`;
    const close = button(t.t('close'), () => this.closeDialog(), { class: 'btn ghost close' });
    const dialog = h(
      'dialog',
      { class: `dialog dialog-${key}`, attrs: { 'aria-labelledby': titleId } },
      // A div, not a header: inside a dialog a header still made a second banner landmark.
      h('div', { class: 'dialog-head' }, h('h2', { text: title, attrs: { id: titleId } }), close),
      h('div', { class: 'dialog-body' }, body),
    );
    // The dialog's content exists only while it is open, so no piece name lingers in the page.
    dialog.addEventListener('close', () => {
      dialog.remove();
      if (this.dialog === dialog) this.dialog = null;
      const back = opener === undefined ? null : this.root.querySelector<HTMLElement>(`[data-focus-key="${opener}"]`);
      if (back !== null && (document.activeElement === null || document.activeElement === document.body)) back.focus({ preventScroll: true });
      const missed = this.saidUnderDialog;
      this.saidUnderDialog = null;
      if (missed !== null && this.live.textContent === missed) {
        // Emptied first: the same text set again would not be announced.
        this.live.textContent = '';
        setTimeout(() => {
          if (this.live.textContent === '') this.say(missed);
        }, 100);
      }
    });
    // A tap on the backdrop beside it closes it, as a phone player expects; a drag that only
    // ends there (selecting text) does not.
    const beside = (e: MouseEvent): boolean => {
      const r = dialog.getBoundingClientRect();
      return e.target === dialog && (e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom);
    };
    let pressedBeside = false;
    dialog.addEventListener('pointerdown', (e) => {
      pressedBeside = beside(e);
    });
    dialog.addEventListener('click', (e) => {
      if (pressedBeside && beside(e)) this.closeDialog();
      pressedBeside = false;
    });
    this.root.append(dialog);
    this.dialog = dialog;
    dialog.showModal();
    close.focus();
    return dialog;
  }

  closeDialog(): void {
    const d = this.dialog;
    this.dialog = null;
    if (d !== null) {
      d.close();
      d.remove();
    }
  }

  async openHelp(): Promise<void> {
    const t = this.i18n;
    const body = h('div', { class: 'help-body', text: t.t('helpLoading') });
    const dialog = this.openDialog(t.t('help'), body, 'help');
    let loaded: [typeof import('./help/content'), typeof import('./help/render')];
    try {
      loaded = await Promise.all([import('./help/content'), import('./help/render')]);
    } catch {
      // The rules are a chunk of their own, fetched now: without a network they never come, and
      // the browser remembers the failed import for as long as the page lives.
      if (this.dialog !== dialog) return;
      const retry = button(t.t('helpReload'), () => location.reload(), { key: 'help-reload', class: 'btn' });
      body.replaceChildren(h('p', { attrs: { role: 'alert' }, text: t.t('helpLoadFailed') }), retry);
      return;
    }
    const [{ helpContent }, { renderHelp, followInPageLink }] = loaded;
    if (this.dialog !== dialog) return;
    const doc = helpContent[t.lang];
    const heading = dialog.querySelector('h2');
    if (heading !== null) heading.textContent = doc.title;
    renderHelp(doc, body, { newTab: t.t('helpNewTab'), cite: t.t('helpCite'), cites: t.t('helpCites') });
    body.addEventListener('click', (event) => followInPageLink(body, event));
  }

  // ---- lifecycle -----------------------------------------------------------------------------

  resize(): void {
    for (const b of this.boards) b.resize();
  }

  dispose(): void {
    this.closeDialog();
    this.endMatch();
    for (const c of this.cleanups) c();
    for (const b of this.boards) b.dispose();
    this.root.remove();
    this.host.replaceChildren();
  }

  /** Every piece name in one language (or kind ids for `id`), from the engine. */
  kindNames(lang: Lang | 'id'): string[] {
    return this.engine.kinds.map((k) => k[lang]);
  }

  /** Hooks for the end-to-end tests (`?e2e`): read-only facts, never a way to play. */
  testHooks(): { legalMoves(): [Square, Square][]; phase(): string } {
    return {
      legalMoves: () => (this.match?.viewer === null ? [] : (this.match?.legalMoves() ?? [])),
      phase: () => this.match?.phase.kind ?? 'start',
    };
  }
}

const CATALOGUE_KEYS: Readonly<Record<string, unknown>> = en;

/**
 * The public shapes of the 3D board. The board holds no rules: the page hands it what to draw
 * (pieces, highlights, the last move and battle) and receives the squares the player picks.
 */

/** A side, spelled as the engine's wire format spells it. */
export type Side = 'sente' | 'gote';

/** How a battle ended, spelled as the engine's wire format spells it. */
export type BattleOutcome = 'attacker' | 'defender' | 'both';

/** The two camera presets offered by the buttons at the board's top right. */
export type ViewMode = 'diagonal' | 'top';

/** One piece to draw. */
export interface PieceRender {
  /** Engine square name: `a1` … `f8`, `cd1`, `cd8`. */
  square: string;
  side: Side;
  /** The engine's kind id; absent when the kind is hidden from the viewer. */
  kind?: string | undefined;
  /**
   * The localized name written on the piece; absent when hidden. It is written on the face
   * turned toward the piece's owner; an enemy piece that carries a label (only after the game,
   * when everything is revealed) gets it on its back as well.
   */
  label?: string | undefined;
}

/** Everything the board draws. Square names are the engine's. */
export interface BoardRenderState {
  /** Whose eyes the board is drawn for: the camera sits on this side. */
  viewer: Side;
  pieces: readonly PieceRender[];
  /** The picked piece (yellow frame). */
  selected?: string | undefined;
  /** Empty squares the picked piece may move to (green dots). */
  moveTargets: readonly string[];
  /** Enemy-held squares the picked piece may attack (red frames). */
  attackTargets: readonly string[];
  /** The last move played (orange frames); a new value slides the piece. */
  lastMove?: { from: string; to: string } | undefined;
  /** The battle of the last move, if it was one: plays a short clash before the removal. */
  battle?: { square: string; outcome: BattleOutcome } | undefined;
  /**
   * A move just taken back (stepping back through a finished game): the piece slides from `to`
   * back to `from` and the pieces the move removed grow back, instead of a jump.
   */
  undone?: { from: string; to: string } | undefined;
  /**
   * The game is over and every kind is shown: the pieces lie face up in either view, as players
   * turn theirs over at the end, so that no standing piece hides the names behind it.
   */
  faceUp?: boolean | undefined;
}

/** User-visible text the board shows; the page passes it through its i18n catalogue. */
export interface Board3DText {
  /** Label of the button that turns the camera to the slanted view. */
  diagonal: string;
  /** Label of the button that looks straight down (pieces lie flat). */
  top: string;
  /** Accessible name of the board canvas. */
  board: string;
  /**
   * Notice shown over the board while its drawing is lost (the browser dropped the WebGL context,
   * e.g. after a graphics driver reset) and until the browser restores it; clicks on the board
   * pick nothing meanwhile. Absent: the board is only covered.
   */
  lost?: string | undefined;
  /**
   * Shown briefly over the board when a wheel turn that began as the page's scroll goes on
   * scrolling over it rather than zooming (a turn begun over the board zooms): the first time,
   * and whenever the page could not scroll that way either. Absent: nothing is shown.
   */
  zoomHint?: string | undefined;
  /**
   * Shown briefly the first time one finger drags on the board, which scrolls the page: two
   * fingers turn the board. Absent: nothing is shown.
   */
  turnHint?: string | undefined;
}

/** Options of {@link Board3D}'s constructor. */
export interface Board3DOptions {
  /** Page language (`ja`, `ko`, `en`): picks the font order for piece names. */
  lang: string;
  text: Board3DText;
  /**
   * Forces motion off (`true`) or on (`false`); when absent the board follows the user's
   * `prefers-reduced-motion` setting and its changes.
   */
  reducedMotion?: boolean | undefined;
  /** Initial camera preset; `diagonal` when absent. */
  view?: ViewMode | undefined;
  /** Told each preset the player chooses with the view buttons (to remember it). */
  onView?: ((view: ViewMode) => void) | undefined;
  /**
   * Where the view buttons go (e.g. a bar just above the board, so that on a narrow screen they do not
   * cover the far corner's pieces); over the canvas's top corner when absent.
   */
  controls?: HTMLElement | undefined;
}

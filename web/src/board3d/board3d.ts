/**
 * The 3D board: one view of the game state the page owns. It draws what it is given and reports
 * the squares the player clicks or taps; it knows no rules.
 *
 * ```ts
 * if (Board3D.supported()) {
 *   const board = new Board3D(el, { lang: 'ja', text: { diagonal: '斜めから', top: '真上から', board: '盤' } });
 *   board.onSquare((square) => page.pick(square));
 *   board.setState({ viewer: 'sente', pieces, moveTargets: [], attackTargets: [] });
 * }
 * ```
 */
// The view buttons' default look, loaded as a stylesheet file (the page's policy allows no inline styles).
import './board3d.css';
import {
  AdditiveBlending,
  CircleGeometry,
  Color,
  DirectionalLight,
  Group,
  HemisphereLight,
  Mesh,
  MeshBasicMaterial,
  PCFShadowMap,
  PerspectiveCamera,
  Plane,
  Raycaster,
  Scene,
  Spherical,
  Vector2,
  Vector3,
  WebGLRenderer,
} from 'three';
import { Animator, FrameWatch, easeInOut } from './animator';
import { type Framing, MAX_POLAR, MIN_DIAGONAL_POLAR, applyShift, azimuthOf, directionOf, frame, presetPolar } from './camera';
import { type Cell, RIVER, cellAt, cellOf } from './layout';
import { Markers } from './markers';
import { Orbit, tapSlop } from './orbit';
import { PieceKit, PieceObject } from './pieces';
import { buildScenery, type Scenery } from './scenery';
import { webglSupported } from './support';
import type {
  BattleOutcome,
  Board3DOptions,
  Board3DText,
  BoardRenderState,
  Side,
  ViewMode,
} from './types';

/** The nearest the camera comes, as a share of the distance that fits the whole board. */
const MIN_ZOOM = 0.45;

/** The board's top face, where the squares lie. */
const BOARD_PLANE = new Plane(new Vector3(0, 1, 0), 0);

/** Durations in milliseconds. */
const MS = {
  slide: 320,
  view: 450,
  approach: 280,
  clash: 260,
  removal: 300,
  enter: 220,
} as const;

/** A move taken back: `mover` (absent if the move had cost it) returns from `to` to `from`. */
interface Back {
  from: Cell;
  to: Cell;
  mover: PieceObject | undefined;
}

interface Motion {
  from: Cell;
  to: Cell;
  mover: PieceObject;
  /** Present for a battle. */
  defender?: PieceObject;
  outcome?: BattleOutcome;
}

interface Press {
  x: number;
  y: number;
  slop: number;
}

/** Everything of a state that decides where pieces stand and how they got there. */
function piecesSignature(s: BoardRenderState): string {
  const pieces = s.pieces
    .map((p) => `${cellOf(p.square)?.name ?? p.square}:${p.side}:${p.label ?? ''}`)
    .sort()
    .join(',');
  const move = s.lastMove ? `${s.lastMove.from}-${s.lastMove.to}` : '';
  const battle = s.battle ? `${s.battle.square}:${s.battle.outcome}` : '';
  // `undone` is left out: a move taken back always changes the pieces, and a redraw of the same
  // position without it must not cut its slide short.
  return `${s.viewer}|${move}|${battle}|${pieces}`;
}

/** Everything of a state that decides the highlights. */
function markersSignature(s: BoardRenderState): string {
  const last = s.lastMove ? `${s.lastMove.from}-${s.lastMove.to}` : '';
  return `${s.selected ?? ''}|${s.moveTargets.join(',')}|${s.attackTargets.join(',')}|${last}`;
}

/** How often the device pixel ratio is read besides its media query's change event. */
const RATIO_POLL_MS = 1000;

/** The canvas's pixels per CSS pixel: the device's, capped at 2 (beyond it, cost without gain). */
function pixelRatio(): number {
  return Math.min(window.devicePixelRatio || 1, 2);
}

/** A screen point in viewport (client) coordinates, as in `PointerEvent.clientX/Y`. */
export interface ScreenPoint {
  x: number;
  y: number;
}

export class Board3D {
  /**
   * Whether this browser can draw the board (WebGL 2). When false, show the grid only.
   */
  static supported(): boolean {
    return webglSupported();
  }

  private readonly renderer: WebGLRenderer;
  private readonly canvas: HTMLCanvasElement;
  private readonly scene = new Scene();
  private readonly camera = new PerspectiveCamera(38, 1, 0.5, 200);
  private readonly controls: Orbit;
  private readonly scenery: Scenery;
  private readonly kit: PieceKit;
  private readonly markers = new Markers();
  private readonly animator = new Animator();
  private readonly key = new DirectionalLight('#fff2dc', 2.1);
  private readonly fill = new DirectionalLight('#dfe8ff', 0.45);
  private readonly flash: Mesh<CircleGeometry, MeshBasicMaterial>;
  private readonly raycaster = new Raycaster();
  private readonly buttonBar: HTMLDivElement;
  private readonly buttons: Record<ViewMode, HTMLButtonElement>;
  private readonly listeners = new Set<(square: string) => void>();
  private readonly presses = new Map<number, Press>();
  private readonly resizeObserver: ResizeObserver | undefined;
  private readonly motionQuery: MediaQueryList | undefined;
  /** Matches the device pixel ratio the canvas was last sized for; fires when it changes. */
  private ratioQuery: MediaQueryList | undefined;
  private ratioPoll = 0;
  /** Shown over the canvas while the WebGL context is lost. */
  private readonly lostNotice: HTMLDivElement;
  private hoverAt: { x: number; y: number; dragging: boolean } | undefined;
  private hoverFrame = 0;
  /** The camera is moving to a view's preset (`moveCamera`). */
  private viewMoving = false;
  /** How to zoom or turn the board, over its middle for a moment (`flashHint`). */
  private readonly hint: HTMLDivElement;
  private hintTimer: ReturnType<typeof setTimeout> | undefined;
  private zoomHintShown = false;
  private turnHintShown = false;
  private readonly cleanups: (() => void)[] = [];

  private pieces = new Map<string, PieceObject>();
  private readonly ghosts = new Set<PieceObject>();
  private state: BoardRenderState | undefined;
  private signature = '';
  private marks = '';
  /** Whether the tweens running play out a battle (see `setState`). */
  private battling = false;
  /** The picture's vertical shift that centres the board (`Framing.shift`). */
  private shift = 0;
  /** The state to draw once the battle being played out has ended. */
  private queued: BoardRenderState | undefined;
  private viewer: Side = 'sente';
  private view: ViewMode;
  /** 0: pieces standing; 1: lying flat. */
  private pose: number;
  /** Whether the last state asked for the pieces face up (a finished game). */
  private faceUp = false;
  private fit = 20;
  private pressSpoiled = false;
  private rafId = 0;
  private frames = 0;
  private shadowFrames = 0;
  private readonly frameWatch = new FrameWatch();
  /** Frames of animations came too slowly: moves are drawn at once (unless motion is forced). */
  private tooSlow = false;
  /** Whether the scene changed since the shadow map was last drawn. */
  private shadowsStale = true;
  private idleWaiters: (() => void)[] = [];
  private disposed = false;
  /** The WebGL context is lost: the canvas shows nothing and presses on it pick nothing. */
  private contextLost = false;
  private forcedReducedMotion: boolean | undefined;

  /**
   * Builds the board inside `container` (which should have a size; the canvas fills it) and
   * draws it once. The view buttons are placed at the container's top right.
   *
   * # Errors
   * Throws when WebGL cannot be started; check {@link Board3D.supported} first.
   */
  constructor(
    private readonly container: HTMLElement,
    private opts: Board3DOptions,
  ) {
    this.view = opts.view ?? 'diagonal';
    this.pose = this.poseWanted();
    this.forcedReducedMotion = opts.reducedMotion;

    this.renderer = new WebGLRenderer({ antialias: true, powerPreference: 'high-performance' });
    this.renderer.setPixelRatio(pixelRatio());
    this.renderer.shadowMap.enabled = true;
    this.renderer.shadowMap.type = PCFShadowMap;
    // Turning or zooming the camera moves no shadow: the map is drawn again only when something
    // in the scene changed (about half the draw calls of a frame, which matters on a software
    // renderer).
    this.renderer.shadowMap.autoUpdate = false;
    this.canvas = this.renderer.domElement;
    this.canvas.className = 'board3d-canvas';
    this.canvas.setAttribute('role', 'img');
    this.canvas.setAttribute('aria-label', opts.text.board);
    Object.assign(this.canvas.style, {
      position: 'absolute',
      inset: '0',
      width: '100%',
      height: '100%',
      display: 'block',
      // One finger scrolls the page (two turn and zoom the board: see `Orbit`).
      touchAction: 'pan-x pan-y',
      cursor: 'grab',
    });
    if (getComputedStyle(container).position === 'static') container.style.position = 'relative';
    container.appendChild(this.canvas);
    this.lostNotice = document.createElement('div');
    this.lostNotice.className = 'board3d-lost';
    this.lostNotice.setAttribute('role', 'status');
    this.lostNotice.hidden = true;
    this.lostNotice.textContent = opts.text.lost ?? '';
    container.appendChild(this.lostNotice);
    // Seen, not said: the wheel is a sighted mouse user's, and the live region has enough to say.
    this.hint = document.createElement('div');
    this.hint.className = 'board3d-hint';
    this.hint.setAttribute('aria-hidden', 'true');
    this.hint.hidden = true;
    container.appendChild(this.hint);

    const anisotropy = Math.min(8, this.renderer.capabilities.getMaxAnisotropy());
    this.scene.background = new Color('#2b2320');
    this.scenery = buildScenery(anisotropy);
    this.kit = new PieceKit(anisotropy, opts.lang);
    this.scene.add(this.scenery.root, this.markers.root);

    this.scene.add(new HemisphereLight('#fff7ea', '#4a3a2c', 1.3));
    this.key.castShadow = true;
    this.key.shadow.mapSize.set(2048, 2048);
    Object.assign(this.key.shadow.camera, { left: -7, right: 7, top: 7, bottom: -7, near: 1, far: 40 });
    this.key.shadow.camera.updateProjectionMatrix();
    this.key.shadow.bias = -0.0004;
    this.key.shadow.normalBias = 0.02;
    this.key.shadow.radius = 3;
    this.scene.add(this.key, this.key.target, this.fill, this.fill.target);
    this.placeLights();

    this.flash = new Mesh(
      new CircleGeometry(0.5, 40),
      new MeshBasicMaterial({
        color: '#fff1b8',
        transparent: true,
        opacity: 0,
        blending: AdditiveBlending,
        depthWrite: false,
        depthTest: false,
      }),
    );
    this.flash.visible = false;
    this.flash.renderOrder = 10;
    this.scene.add(this.flash);

    this.controls = new Orbit(this.camera, this.canvas, this.invalidateView);
    this.controls.maxPolar = MAX_POLAR;
    this.controls.onTurn = this.refit;
    this.controls.onWheelPassed = this.showZoomHint;
    this.controls.onOneFingerDrag = this.showTurnHint;
    this.controls.pointAt = this.boardPointAt;
    this.controls.clampTarget = this.clampTarget;

    const [bar, buttons] = this.buildButtons(opts.text);
    this.buttonBar = bar;
    this.buttons = buttons;
    this.updateButtons();
    (opts.controls ?? container).appendChild(bar);

    this.listen(this.canvas, 'pointerdown', this.onPointerDown as EventListener);
    this.listen(this.canvas, 'pointermove', this.onPointerMove as EventListener);
    this.listen(this.canvas, 'pointerup', this.onPointerUp as EventListener);
    this.listen(this.canvas, 'pointercancel', this.onPointerCancel as EventListener);
    this.listen(this.canvas, 'webglcontextlost', this.onContextLost);
    this.listen(this.canvas, 'webglcontextrestored', this.onContextRestored);

    if (typeof window.matchMedia === 'function') {
      this.motionQuery = window.matchMedia('(prefers-reduced-motion: reduce)');
    }
    if (typeof ResizeObserver === 'function') {
      this.resizeObserver = new ResizeObserver(() => this.resize());
      this.resizeObserver.observe(container);
    }

    this.sizeCanvas();
    this.watchPixelRatio();
    this.placeCamera();
    this.warmUp();
    this.invalidate();
  }

  /**
   * Follows the device pixel ratio: a page zoom or a move to another screen changes it, often
   * without changing the container's CSS size (so the `ResizeObserver` says nothing). A media
   * query for the current ratio fires once when it stops matching; it is set up again each time.
   * The query is also read once a second, since a browser may change the ratio without firing
   * it (Chromium 156 does not when the ratio is emulated: the query stops matching, silently).
   */
  private watchPixelRatio(): void {
    this.ratioQuery?.removeEventListener('change', this.onRatioChange);
    this.ratioQuery = undefined;
    if (this.disposed || typeof window.matchMedia !== 'function') return;
    this.ratioQuery = window.matchMedia(`(resolution: ${window.devicePixelRatio || 1}dppx)`);
    this.ratioQuery.addEventListener('change', this.onRatioChange);
    this.ratioPoll ||= window.setInterval(() => {
      if (this.ratioQuery?.matches === false) this.onRatioChange();
    }, RATIO_POLL_MS);
  }

  private readonly onRatioChange = (): void => {
    this.watchPixelRatio();
    this.resize();
  };

  /**
   * Builds the shaders of the highlights and the battle flash now: built at the first pick, they
   * stalled the page for up to a second on a slow GPU, just as the player picked a piece.
   */
  private warmUp(): void {
    const samples = new Group();
    samples.add(...this.markers.samples());
    this.scene.add(samples);
    try {
      this.renderer.compile(this.scene, this.camera);
    } catch {
      // Only an early start: the first frames build whatever is left.
    }
    this.scene.remove(samples);
  }

  // ---- public API ------------------------------------------------------------------------

  /**
   * Draws a new state. A new `lastMove` whose piece stood on `from` slides it (and plays the
   * clash of `battle` on its square); an `undone` move slides back and its removed pieces grow
   * back; anything else appears at once. A change of `viewer` turns the camera to that side.
   */
  setState(next: BoardRenderState): void {
    if (this.disposed) return;
    const signature = piecesSignature(next);
    const marks = markersSignature(next);
    // Which piece a battle removed is the moment a hidden-piece game is watched for: a new move
    // that comes while one is played out (the CPU's or a friend's quick answer) waits for its
    // end instead of cutting it short. A turned board or a move taken back does not wait.
    const waits =
      signature !== this.signature &&
      (this.queued !== undefined || (this.battling && this.animator.busy)) &&
      this.state !== undefined &&
      next.viewer === this.state.viewer &&
      !next.undone;
    if (waits) {
      this.queued = next;
      return;
    }
    this.queued = undefined;
    if (this.state && signature === this.signature) {
      // Same pieces, same move: only the highlights may differ; a running slide goes on.
      this.state = next;
      if (this.turnOver(next, undefined)) this.invalidate();
      if (marks === this.marks) return;
      this.marks = marks;
      this.markers.set(next.selected, next.moveTargets, next.attackTargets, next.lastMove);
      this.tintPieces(next);
      this.invalidate();
      return;
    }
    this.signature = signature;
    this.marks = marks;
    this.animator.finish();
    const prev = this.state;
    const viewerChanged = next.viewer !== this.viewer;
    this.viewer = next.viewer;
    if (viewerChanged) {
      this.placeLights();
      this.placeCamera();
    }
    const steady = prev !== undefined && !viewerChanged;
    const back = steady && next.undone ? this.planBack(next.undone, next) : undefined;
    const motion = steady && !next.undone ? this.planMotion(prev, next) : undefined;
    const before = new Set(this.pieces.values());
    this.reconcile(next, motion, back);
    this.markers.set(next.selected, next.moveTargets, next.attackTargets, next.lastMove);
    this.tintPieces(next);
    this.state = next;
    if (motion) this.animateMotion(motion);
    if (back) this.animateBack(back, [...this.pieces.values()].filter((o) => !before.has(o)));
    this.turnOver(next, motion);
    this.invalidate();
  }

  /**
   * Registers a listener for picked squares (engine names; `cd1`/`cd8` for the headquarters).
   * Returns a function that removes it.
   */
  onSquare(listener: (square: string) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Turns the camera to a preset; the top view lays the pieces flat. */
  setView(view: ViewMode): void {
    if (this.disposed) return;
    this.animator.finish();
    if (view === this.view) {
      // Pressing the current view again brings the camera back to it after a drag or a zoom.
      this.moveCamera(this.reducedMotion());
      this.invalidate();
      return;
    }
    this.view = view;
    this.updateButtons();
    this.opts.onView?.(view);
    const instant = this.reducedMotion();
    this.layPieces(0, instant);
    this.moveCamera(instant);
    this.invalidate();
  }

  /** Standing (0) or lying face up (1): the top view and a finished game lay the pieces flat. */
  private poseWanted(): number {
    return this.view === 'top' || this.faceUp ? 1 : 0;
  }

  /** Turns every piece to the pose wanted, after `delay` ms. */
  private layPieces(delay: number, instant: boolean): void {
    const from = this.pose;
    const to = this.poseWanted();
    if (from === to) return;
    this.animator.add(
      {
        delay,
        duration: MS.view,
        update: (t) => {
          this.pose = from + (to - from) * easeInOut(t);
          for (const p of this.pieces.values()) p.setPose(this.pose);
        },
      },
      performance.now(),
      instant,
    );
  }

  /**
   * Follows the state's `faceUp`: the pieces turn over once the last move has played out.
   * Whether it changed.
   */
  private turnOver(next: BoardRenderState, motion: Motion | undefined): boolean {
    const faceUp = next.faceUp === true;
    if (faceUp === this.faceUp) return false;
    this.faceUp = faceUp;
    const played = motion === undefined ? 0 : next.battle ? MS.approach + MS.clash + MS.removal : MS.slide;
    this.layPieces(played, this.reducedMotion());
    return true;
  }

  /** The current camera preset. */
  get currentView(): ViewMode {
    return this.view;
  }

  /** Changes the language of the buttons, the canvas name and the fonts of piece names. */
  setText(lang: string, text: Board3DText): void {
    this.opts = { ...this.opts, lang, text };
    this.buttons.diagonal.textContent = text.diagonal;
    this.buttons.top.textContent = text.top;
    this.canvas.setAttribute('aria-label', text.board);
    this.lostNotice.textContent = text.lost ?? '';
    this.hint.hidden = true;
    this.kit.setLang(lang);
    for (const p of this.pieces.values()) p.refreshLabel(this.viewer);
    this.invalidate();
  }

  /** Forces motion off or on; `undefined` follows the user's setting again. */
  setReducedMotion(reduced: boolean | undefined): void {
    this.forcedReducedMotion = reduced;
  }

  /**
   * Re-reads the container's size and the device pixel ratio. Called automatically where
   * `ResizeObserver` exists, and when the pixel ratio changes.
   */
  resize(): void {
    if (this.disposed) return;
    const before = this.fit;
    const polarBefore = presetPolar(this.view, this.camera.aspect);
    this.sizeCanvas();
    const offset = this.camera.position.clone().sub(this.controls.target);
    // A frame that turned narrow (or wide) has a steeper (or lower) preset: the camera tilts by
    // the difference, keeping whatever turn the player gave it.
    const tilt = presetPolar(this.view, this.camera.aspect) - polarBefore;
    if (tilt !== 0) {
      const turned = new Spherical().setFromVector3(offset);
      turned.phi = Math.min(MAX_POLAR, Math.max(this.controls.minPolar, turned.phi + tilt));
      offset.setFromSpherical(turned);
    }
    // Framed from where the camera looks now, as a drag frames it (`refit`), at the same zoom.
    const framing = frame(offset.clone().normalize(), this.camera.fov, this.camera.aspect);
    this.fit = framing.distance;
    this.applyLimits();
    this.shift = framing.shift;
    applyShift(this.camera, this.shift);
    offset.multiplyScalar(this.fit / before);
    this.controls.target.copy(framing.target);
    this.camera.position.copy(this.controls.target).add(offset);
    this.controls.update();
    this.invalidate();
  }

  /**
   * Where a square appears on screen (viewport coordinates): the middle of the piece on it, or
   * the square's centre when empty. `undefined` for an unknown name or an off-screen point.
   */
  screenPosition(square: string): ScreenPoint | undefined {
    const cell = cellOf(square);
    if (!cell) return undefined;
    this.scene.updateMatrixWorld(true);
    const piece = this.pieces.get(cell.name);
    const point = piece
      ? piece.mesh.localToWorld(new Vector3(0, 0.4, 0))
      : new Vector3(cell.x, 0, cell.z);
    point.project(this.camera);
    if (Math.abs(point.x) > 1 || Math.abs(point.y) > 1 || point.z > 1) return undefined;
    const rect = this.canvas.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0) return undefined;
    return {
      x: rect.left + ((point.x + 1) / 2) * rect.width,
      y: rect.top + ((1 - point.y) / 2) * rect.height,
    };
  }

  /** Points the raycaster from the camera through a viewport point; false on a canvas with no size. */
  private aim(clientX: number, clientY: number): boolean {
    const rect = this.canvas.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0) return false;
    const ndc = new Vector2(((clientX - rect.left) / rect.width) * 2 - 1, -((clientY - rect.top) / rect.height) * 2 + 1);
    this.camera.updateMatrixWorld();
    this.raycaster.setFromCamera(ndc, this.camera);
    return true;
  }

  /** The square under a viewport point, as a click there would report it. */
  squareAt(clientX: number, clientY: number): string | undefined {
    if (!this.aim(clientX, clientY)) return undefined;
    this.scene.updateMatrixWorld(true);
    // A green dot is drawn over whatever stands in front of it: where one shows, it is picked.
    const dot = this.raycaster.intersectObjects(this.markers.moveDots(), false)[0];
    if (dot) return dot.object.userData.square as string;
    const targets: Mesh[] = [this.scenery.face];
    for (const p of this.pieces.values()) targets.push(p.mesh);
    const hits = this.raycaster.intersectObjects(targets, false);
    const struck = hits.map((hit) => hit.object.userData.piece as PieceObject | undefined);
    // So is a piece that may be attacked, though another enemy piece stands in front of it: in
    // the far row of a slanted view the piece a row nearer covers most of it. An own piece in
    // front keeps the press (the picked piece let go, another one picked), never an attack.
    const first = struck.find((p) => p !== undefined);
    if (first !== undefined && first.side !== this.state?.viewer) {
      const attacks = new Set(this.state?.attackTargets ?? []);
      const target = struck.find((p) => p !== undefined && attacks.has(p.square));
      if (target !== undefined) return target.square;
    }
    for (const [i, hit] of hits.entries()) {
      const piece = struck[i];
      if (piece) return piece.square;
      if (hit.object === this.scenery.face) return cellAt(hit.point.x, hit.point.z)?.name;
    }
    return undefined;
  }

  /** Resolves once no animation runs and the last frame is drawn. */
  settled(): Promise<void> {
    if (!this.rafId && !this.animator.busy) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Frames drawn so far (the board draws only when something changes). */
  get renderCount(): number {
    return this.frames;
  }

  /** Frames that drew the shadows again (a camera move alone does not). */
  get shadowCount(): number {
    return this.shadowFrames;
  }

  /** Removes the board from the page and frees its GPU resources. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.rafId) cancelAnimationFrame(this.rafId);
    if (this.hoverFrame) cancelAnimationFrame(this.hoverFrame);
    this.rafId = 0;
    this.animator.finish();
    this.flushIdle();
    this.cleanups.forEach((f) => f());
    this.ratioQuery?.removeEventListener('change', this.onRatioChange);
    this.ratioQuery = undefined;
    clearInterval(this.ratioPoll);
    this.resizeObserver?.disconnect();
    this.controls.dispose();
    for (const p of this.pieces.values()) p.detach();
    for (const p of this.ghosts) p.detach();
    this.pieces.clear();
    this.ghosts.clear();
    this.markers.dispose();
    this.kit.dispose();
    this.scenery.dispose();
    this.flash.geometry.dispose();
    this.flash.material.dispose();
    this.key.shadow.map?.dispose();
    this.renderer.dispose();
    this.renderer.forceContextLoss();
    this.canvas.remove();
    this.lostNotice.remove();
    this.hint.remove();
    clearTimeout(this.hintTimer);
    this.buttonBar.remove();
    this.listeners.clear();
  }

  // ---- drawing -----------------------------------------------------------------------------

  /** Asks for a frame after a change in the scene. */
  private readonly invalidate = (): void => {
    this.shadowsStale = true;
    this.invalidateView();
  };

  /** Asks for a frame after the camera alone moved. */
  private readonly invalidateView = (): void => {
    if (this.rafId || this.disposed) return;
    this.rafId = requestAnimationFrame(this.frame);
  };

  private readonly frame = (now: number): void => {
    this.rafId = 0;
    if (this.disposed) return;
    const animating = this.animator.busy;
    let running = this.animator.step(now);
    if (!animating) this.frameWatch.idle();
    else if (this.frameWatch.frame(now) && this.forcedReducedMotion === undefined && !this.tooSlow) {
      this.tooSlow = true;
      this.animator.finish();
      running = false;
    }
    if (this.shadowsStale) {
      this.shadowsStale = false;
      this.renderer.shadowMap.needsUpdate = true;
      this.shadowFrames++;
    }
    this.renderer.render(this.scene, this.camera);
    this.frames++;
    if (!running) this.battling = false;
    const queued = running ? undefined : this.queued;
    if (queued !== undefined) {
      this.queued = undefined;
      this.setState(queued);
      this.invalidate();
    } else if (running) this.invalidate();
    else this.flushIdle();
  };

  private flushIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    waiters.forEach((w) => w());
  }

  private reducedMotion(): boolean {
    return this.forcedReducedMotion ?? (this.tooSlow || (this.motionQuery?.matches ?? false));
  }

  /** Whether this device has proved too slow to animate (the moves are then drawn at once). */
  get motionDropped(): boolean {
    return this.tooSlow;
  }

  private sizeCanvas(): void {
    const width = this.container.clientWidth;
    let height = this.container.clientHeight;
    if (width === 0) return;
    if (height === 0) {
      this.container.style.aspectRatio ||= '7 / 8';
      height = Math.round((width * 8) / 7);
    }
    const ratio = pixelRatio();
    if (ratio !== this.renderer.getPixelRatio()) this.renderer.setPixelRatio(ratio);
    this.renderer.setSize(width, height, false);
    this.camera.aspect = width / height;
    this.camera.updateProjectionMatrix();
  }

  private placeLights(): void {
    const s = this.viewer === 'sente' ? 1 : -1;
    this.key.position.set(-4 * s, 10, 9.5 * s);
    this.fill.position.set(5 * s, 6, -6 * s);
  }

  private preset(): Framing {
    return frame(directionOf(presetPolar(this.view, this.camera.aspect), azimuthOf(this.viewer)), this.camera.fov, this.camera.aspect);
  }

  /**
   * A drag turned the camera: the board is framed again from where it now looks, keeping the
   * player's zoom. Framed once from the preset, a steep tilt had lost the far row off the top
   * and a quarter turn the board's corners.
   */
  private readonly refit = (spherical: Spherical): void => {
    // The view buttons' move sets the camera at every frame until it ends: a drag meanwhile
    // changes nothing, and must not change the framing the move is heading for.
    if (this.viewMoving) return;
    const direction = new Vector3().setFromSphericalCoords(1, spherical.phi, spherical.theta);
    const framing = frame(direction, this.camera.fov, this.camera.aspect);
    const zoom = spherical.radius / this.fit;
    this.fit = framing.distance;
    this.applyLimits();
    this.shift = framing.shift;
    applyShift(this.camera, this.shift);
    spherical.radius = zoom * this.fit;
  };

  /** Where a viewport point falls on the board's plane; none where the ray misses it. */
  private readonly boardPointAt = (clientX: number, clientY: number): Vector3 | undefined => {
    if (!this.aim(clientX, clientY)) return undefined;
    return this.raycaster.ray.intersectPlane(BOARD_PLANE, new Vector3()) ?? undefined;
  };

  /**
   * The camera may look away from the board's middle only as far as it is zoomed in: not at all
   * from the fitted distance out, as far as the outer squares at the nearest zoom. Zooming out
   * brings the board back to the middle.
   */
  private readonly clampTarget = (target: Vector3, radius: number): void => {
    const reach = Math.min(1, Math.max(0, (1 - radius / this.fit) / (1 - MIN_ZOOM)));
    const x = reach * 2.5;
    const z = reach * (3.5 + RIVER / 2);
    target.set(Math.min(x, Math.max(-x, target.x)), 0, Math.min(z, Math.max(-z, target.z)));
  };

  /**
   * A plain wheel turn went to the page: how to zoom instead, for a moment, the first time and
   * whenever the turn did nothing (the page at its end), not at every scroll past the board.
   */
  private readonly showZoomHint = (stuck: boolean): void => {
    if (this.zoomHintShown && !stuck) return;
    this.zoomHintShown = true;
    this.flashHint(this.opts.text.zoomHint);
  };

  /** One finger dragged on the board, which scrolls the page: the first time, how to turn it. */
  private readonly showTurnHint = (): void => {
    if (this.turnHintShown) return;
    this.turnHintShown = true;
    this.flashHint(this.opts.text.turnHint);
  };

  private flashHint(text: string | undefined): void {
    if (text === undefined || text === '') return;
    this.hint.textContent = text;
    this.hint.hidden = false;
    clearTimeout(this.hintTimer);
    this.hintTimer = setTimeout(() => (this.hint.hidden = true), 1600);
  }

  private applyLimits(): void {
    this.controls.minDistance = this.fit * MIN_ZOOM;
    this.controls.maxDistance = this.fit * 1.7;
    // Straight down, standing pieces hide the squares: looking down is the top view's job.
    this.controls.minPolar = this.view === 'top' ? 0 : MIN_DIAGONAL_POLAR;
    // The top view's pieces lie flat: tilted, they were unreadable slabs under a button that
    // still said "from above". A drag there turns the board round only.
    this.controls.lockTilt = this.view === 'top';
  }

  /** Jumps the camera to the preset of the current view and viewer. */
  private placeCamera(): void {
    const framing = this.preset();
    this.fit = framing.distance;
    this.applyLimits();
    this.shift = framing.shift;
    applyShift(this.camera, this.shift);
    this.controls.target.copy(framing.target);
    this.camera.position
      .copy(directionOf(presetPolar(this.view, this.camera.aspect), azimuthOf(this.viewer)))
      .multiplyScalar(this.fit)
      .add(framing.target);
    this.camera.up.set(0, 1, 0);
    this.camera.lookAt(framing.target);
    this.controls.update();
  }

  /** Moves the camera to the preset of the current view, smoothly unless `instant`. */
  private moveCamera(instant: boolean): void {
    const start = new Spherical().setFromVector3(this.camera.position.clone().sub(this.controls.target));
    const startTarget = this.controls.target.clone();
    const startShift = this.shift;
    const framing = this.preset();
    this.fit = framing.distance;
    this.applyLimits();
    // The limit on looking down holds once the camera has come up from the top view.
    this.controls.minPolar = 0;
    this.viewMoving = true;
    const endPhi = presetPolar(this.view, this.camera.aspect);
    const endTheta = azimuthOf(this.viewer);
    let dTheta = endTheta - start.theta;
    dTheta = Math.atan2(Math.sin(dTheta), Math.cos(dTheta));
    const s = new Spherical();
    this.animator.add(
      {
        delay: 0,
        duration: MS.view,
        update: (t) => {
          const e = easeInOut(t);
          s.set(
            start.radius + (framing.distance - start.radius) * e,
            start.phi + (endPhi - start.phi) * e,
            start.theta + dTheta * e,
          );
          this.controls.target.copy(startTarget).lerp(framing.target, e);
          this.shift = startShift + (framing.shift - startShift) * e;
          applyShift(this.camera, this.shift);
          this.camera.position.setFromSpherical(s).add(this.controls.target);
          this.camera.lookAt(this.controls.target);
          this.controls.update();
        },
        done: () => {
          this.viewMoving = false;
          this.fit = framing.distance;
          this.applyLimits();
        },
      },
      performance.now(),
      instant,
    );
  }

  // ---- pieces ------------------------------------------------------------------------------

  /** Finds the piece a new `lastMove` moved, when the previous drawing allows a slide. */
  private planMotion(prev: BoardRenderState, next: BoardRenderState): Motion | undefined {
    const move = next.lastMove;
    if (!move) return undefined;
    if (prev.lastMove && prev.lastMove.from === move.from && prev.lastMove.to === move.to) {
      return undefined;
    }
    const from = cellOf(move.from);
    const to = cellOf(move.to);
    if (!from || !to || from === to) return undefined;
    const mover = this.pieces.get(from.name);
    if (!mover) return undefined;
    const after = (cell: Cell): Side | undefined =>
      next.pieces.find((p) => cellOf(p.square) === cell)?.side;
    if (after(from) !== undefined) return undefined;
    const battleCell = next.battle ? cellOf(next.battle.square) : undefined;
    const defender = this.pieces.get(to.name);
    if (battleCell === to && next.battle && defender && defender.side !== mover.side) {
      const outcome = next.battle.outcome;
      const expected: Side | undefined =
        outcome === 'attacker' ? mover.side : outcome === 'defender' ? defender.side : undefined;
      if (after(to) !== expected) return undefined;
      return { from, to, mover, defender, outcome };
    }
    if (!defender && after(to) === mover.side) return { from, to, mover };
    return undefined;
  }

  /**
   * Finds the piece a move taken back returns to its square: the one standing on `to` (if the
   * move had left it there) when `from` holds a piece of its side again.
   */
  private planBack(undone: { from: string; to: string }, next: BoardRenderState): Back | undefined {
    const from = cellOf(undone.from);
    const to = cellOf(undone.to);
    if (!from || !to || from === to) return undefined;
    const returning = next.pieces.find((p) => cellOf(p.square) === from);
    if (!returning) return undefined;
    const standing = this.pieces.get(to.name);
    const mover = standing?.side === returning.side ? standing : undefined;
    return { from, to, mover };
  }

  /** Matches the drawn pieces to the new state, reusing objects where a piece stayed. */
  private reconcile(next: BoardRenderState, motion: Motion | undefined, back?: Back): void {
    const old = this.pieces;
    const fresh = new Map<string, PieceObject>();
    const used = new Set<PieceObject>();
    if (motion) {
      used.add(motion.mover);
      if (motion.defender) used.add(motion.defender);
    }
    if (back?.mover) used.add(back.mover);
    for (const p of next.pieces) {
      const cell = cellOf(p.square);
      if (!cell || fresh.has(cell.name)) continue;
      let obj: PieceObject | undefined;
      if (motion && cell === motion.to) {
        if (p.side === motion.mover.side && motion.outcome !== 'defender') obj = motion.mover;
        else if (motion.defender && motion.outcome === 'defender') obj = motion.defender;
      }
      if (back?.mover && cell === back.from && p.side === back.mover.side) obj = back.mover;
      if (!obj) {
        const here = old.get(cell.name);
        if (here && !used.has(here) && here.side === p.side) obj = here;
      }
      if (!obj) {
        obj = new PieceObject(this.kit, p.side, cell.name);
        obj.setPose(this.pose);
        this.scene.add(obj.holder);
      }
      used.add(obj);
      obj.square = cell.name;
      obj.setScale(1);
      obj.setLabel(p.label, next.viewer);
      obj.placeAt(cell.x, cell.z);
      fresh.set(cell.name, obj);
    }
    const kept = new Set(fresh.values());
    for (const obj of old.values()) {
      if (kept.has(obj)) continue;
      if (motion && (obj === motion.mover || obj === motion.defender)) this.ghosts.add(obj);
      else obj.detach();
    }
    this.pieces = fresh;
  }

  /** A move taken back: the mover slides home, then the pieces it had removed grow back. */
  private animateBack(b: Back, restored: readonly PieceObject[]): void {
    const now = performance.now();
    const instant = this.reducedMotion();
    const { from, to, mover } = b;
    let delay = 0;
    if (mover) {
      mover.placeAt(to.x, to.z);
      this.animator.add(
        {
          delay: 0,
          duration: MS.slide,
          update: (t) => {
            const e = easeInOut(t);
            mover.placeAt(to.x + (from.x - to.x) * e, to.z + (from.z - to.z) * e);
          },
        },
        now,
        instant,
      );
      delay = MS.slide;
    }
    for (const piece of restored) {
      piece.setScale(0);
      this.animator.add({ delay, duration: MS.removal, update: (t) => piece.setScale(easeInOut(t)) }, now, instant);
    }
  }

  private animateMotion(m: Motion): void {
    const now = performance.now();
    const instant = this.reducedMotion();
    const add = (delay: number, duration: number, update: (t: number) => void, done?: () => void): void =>
      this.animator.add({ delay, duration, update, done }, now, instant);
    const { from, to, mover, defender } = m;
    const lerp = (a: number, b: number, t: number): number => a + (b - a) * t;
    mover.placeAt(from.x, from.z);

    if (!defender || !m.outcome) {
      add(0, MS.slide, (t) => {
        const e = easeInOut(t);
        mover.placeAt(lerp(from.x, to.x, e), lerp(from.z, to.z, e));
      });
      return;
    }

    const dx = to.x - from.x;
    const dz = to.z - from.z;
    const length = Math.hypot(dx, dz) || 1;
    const ux = dx / length;
    const uz = dz / length;
    const stop = { x: to.x - ux * 0.55, z: to.z - uz * 0.55 };
    const outcome = m.outcome;
    this.battling = !instant;
    let t0 = 0;
    add(t0, MS.approach, (t) => {
      const e = easeInOut(t);
      mover.placeAt(lerp(from.x, stop.x, e), lerp(from.z, stop.z, e));
    });
    t0 += MS.approach;
    add(
      t0,
      MS.clash,
      (t) => {
        const k = Math.sin(t * Math.PI * 3) * (1 - t) * 0.08;
        mover.placeAt(stop.x - ux * k, stop.z - uz * k);
        defender.placeAt(to.x + ux * k * 0.6, to.z + uz * k * 0.6);
        this.flash.visible = t < 1;
        this.flash.position.set((stop.x + to.x) / 2, 0.45, (stop.z + to.z) / 2);
        this.flash.quaternion.copy(this.camera.quaternion);
        this.flash.scale.setScalar(0.2 + 1.3 * t);
        this.flash.material.opacity = 0.9 * (1 - t);
      },
      () => {
        this.flash.visible = false;
      },
    );
    t0 += MS.clash;
    const losers =
      outcome === 'attacker' ? [defender] : outcome === 'defender' ? [mover] : [mover, defender];
    for (const loser of losers) {
      add(
        t0,
        MS.removal,
        (t) => loser.setScale(1 - easeInOut(t)),
        () => {
          if (this.ghosts.delete(loser)) loser.detach();
        },
      );
    }
    t0 += MS.removal;
    if (outcome === 'attacker') {
      add(t0, MS.enter, (t) => {
        const e = easeInOut(t);
        mover.placeAt(lerp(stop.x, to.x, e), lerp(stop.z, to.z, e));
      });
    }
  }

  /** Colours the picked piece, the pieces it may attack and the last move's piece. */
  private tintPieces(state: BoardRenderState): void {
    const attacks = new Set(state.attackTargets);
    for (const [square, piece] of this.pieces) {
      piece.setTint(
        square === state.selected
          ? 'selected'
          : attacks.has(square)
            ? 'attack'
            : square === state.lastMove?.to
              ? 'last'
              : undefined,
      );
    }
  }

  // ---- input -------------------------------------------------------------------------------

  private listen(target: EventTarget, type: string, handler: EventListener): void {
    target.addEventListener(type, handler);
    this.cleanups.push(() => target.removeEventListener(type, handler));
  }

  private readonly onPointerDown = (e: PointerEvent): void => {
    if (this.presses.size === 0) this.pressSpoiled = false;
    const slop = tapSlop(e.pointerType);
    this.presses.set(e.pointerId, { x: e.clientX, y: e.clientY, slop });
    if (this.presses.size > 1 || (e.pointerType === 'mouse' && e.button !== 0)) {
      this.pressSpoiled = true;
    }
  };

  private readonly onPointerMove = (e: PointerEvent): void => {
    const press = this.presses.get(e.pointerId);
    if (press && Math.hypot(e.clientX - press.x, e.clientY - press.y) > press.slop) {
      this.pressSpoiled = true;
    }
    if (e.pointerType === 'mouse') this.hover(e.clientX, e.clientY, press !== undefined && this.pressSpoiled);
  };

  /**
   * The mouse's cursor says what a press does there: a hand pointing over a square (it picks),
   * an open hand elsewhere (a drag turns the board), a closed one while it turns. Worked out
   * once a frame at most.
   */
  private hover(clientX: number, clientY: number, dragging: boolean): void {
    this.hoverAt = { x: clientX, y: clientY, dragging };
    if (this.hoverFrame !== 0) return;
    this.hoverFrame = requestAnimationFrame(() => {
      this.hoverFrame = 0;
      const at = this.hoverAt;
      if (this.disposed || at === undefined) return;
      const cursor = at.dragging ? 'grabbing' : this.squareAt(at.x, at.y) !== undefined ? 'pointer' : 'grab';
      if (this.canvas.style.cursor !== cursor) this.canvas.style.cursor = cursor;
    });
  }

  private readonly onPointerUp = (e: PointerEvent): void => {
    const press = this.presses.get(e.pointerId);
    if (!press) return;
    this.presses.delete(e.pointerId);
    if (Math.hypot(e.clientX - press.x, e.clientY - press.y) > press.slop) this.pressSpoiled = true;
    // Nothing shows while the context is lost: a press there must not pick an unseen piece.
    if (this.pressSpoiled || this.presses.size > 0 || this.contextLost) return;
    const square = this.squareAt(e.clientX, e.clientY);
    if (square === undefined) return;
    for (const listener of [...this.listeners]) listener(square);
  };

  private readonly onPointerCancel = (e: PointerEvent): void => {
    this.presses.delete(e.pointerId);
    this.pressSpoiled = true;
  };

  /**
   * The GPU dropped the context (a driver reset, too many contexts): the canvas goes blank until
   * the browser restores it. Presses pick nothing meanwhile and a notice covers the board.
   */
  private readonly onContextLost = (e: Event): void => {
    e.preventDefault(); // asks the browser to restore the context
    this.contextLost = true;
    this.presses.clear();
    this.pressSpoiled = true;
    this.lostNotice.hidden = false;
  };

  /** three.js has rebuilt its GPU resources: draw again, shadows included. */
  private readonly onContextRestored = (): void => {
    this.contextLost = false;
    this.lostNotice.hidden = true;
    this.invalidate();
  };

  private buildButtons(text: Board3DText): [HTMLDivElement, Record<ViewMode, HTMLButtonElement>] {
    const bar = document.createElement('div');
    bar.className = 'board3d-views';
    const make = (view: ViewMode, label: string): HTMLButtonElement => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'board3d-view-button';
      b.dataset.view = view;
      b.textContent = label;
      b.addEventListener('click', () => this.setView(view));
      bar.appendChild(b);
      return b;
    };
    return [bar, { diagonal: make('diagonal', text.diagonal), top: make('top', text.top) }];
  }

  private updateButtons(): void {
    const buttons = this.buttons;
    for (const view of ['diagonal', 'top'] as const) {
      const on = view === this.view;
      buttons[view].setAttribute('aria-pressed', String(on));
    }
  }
}

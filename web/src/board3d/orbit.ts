/**
 * A small orbit controller: a mouse drags the camera around the board, and so do two fingers
 * (one finger is the page's: it scrolls, or taps a square); the wheel turned over the board and a
 * two-finger pinch move it nearer or farther, all within limits (a wheel that was scrolling the
 * page when it came over the board goes on scrolling it). Zooming in goes towards the
 * point under the pointer (or between the fingers), within `clampTarget`'s bounds; there is no
 * panning otherwise. Reports every camera change through `onChange` so the board can draw on
 * demand.
 */
import { type PerspectiveCamera, Spherical, Vector3 } from 'three';

/**
 * Wheel events closer than this (ms) are one turn of the wheel (a trackpad's momentum included):
 * the turn belongs to the board or the page as its first event did.
 */
const WHEEL_TURN_GAP_MS = 500;

/** Pointer travel (CSS px) beyond which a press is a drag, not a click. */
const TAP_SLOP_MOUSE = 6;
const TAP_SLOP_TOUCH = 12;

export function tapSlop(pointerType: string): number {
  return pointerType === 'mouse' ? TAP_SLOP_MOUSE : TAP_SLOP_TOUCH;
}

interface Point {
  x: number;
  y: number;
  /** Still within the tap's slop of where it went down: a tap, which turns nothing. */
  still: boolean;
  startX: number;
  startY: number;
}

export class Orbit {
  /** The point the camera looks at. */
  readonly target = new Vector3();
  minDistance = 1;
  maxDistance = 100;
  minPolar = 0;
  maxPolar = Math.PI / 2;
  /** Drags turn the board around but do not tilt it (the top view, whose pieces lie flat). */
  lockTilt = false;
  /**
   * Called as a drag turns the camera, before it moves: the board frames itself again for the new
   * direction (and may change the distance and its limits), so a steep tilt or a quarter turn
   * keeps the whole board in the picture.
   */
  onTurn: ((spherical: Spherical) => void) | undefined;
  /**
   * Called for a wheel turn over the board that is left to the page, because it began as the
   * page's scroll: turned again over the board, it zooms. `stuck`: the page cannot scroll that
   * way either, so the turn did nothing.
   */
  onWheelPassed: ((stuck: boolean) => void) | undefined;
  /**
   * Called when one finger drags on the board: the page scrolls (or stays), and the board does
   * not turn; two fingers turn it.
   */
  onOneFingerDrag: (() => void) | undefined;
  /** Where a viewport point falls on the board (for zooming towards it); none off the board. */
  pointAt: ((clientX: number, clientY: number) => Vector3 | undefined) | undefined;
  /** Keeps the target where it may be at the camera's distance `radius` (moves it in place). */
  clampTarget: ((target: Vector3, radius: number) => void) | undefined;
  private readonly spherical = new Spherical();
  private readonly pointers = new Map<number, Point>();
  private pinch = 0;
  /** The wheel turn under way: whose it is, and its latest event's time. */
  private wheelTurn: { board: boolean; at: number } | null = null;
  private readonly cleanups: (() => void)[] = [];

  constructor(
    private readonly camera: PerspectiveCamera,
    private readonly element: HTMLElement,
    private readonly onChange: () => void,
  ) {
    const on = <K extends keyof HTMLElementEventMap>(
      type: K,
      handler: (e: HTMLElementEventMap[K]) => void,
      options?: AddEventListenerOptions,
    ): void => {
      element.addEventListener(type, handler, options);
      this.cleanups.push(() => element.removeEventListener(type, handler, options));
    };
    on('pointerdown', this.down);
    on('pointermove', this.move);
    on('pointerup', this.up);
    on('pointercancel', this.cancel);
    on('wheel', this.wheel, { passive: false });
    // Seen on the way down to any element, so a turn that starts off the board is known as the
    // page's when it reaches the board.
    const turnStarts = (e: WheelEvent): void => {
      const last = this.wheelTurn;
      if (last === null || e.timeStamp - last.at > WHEEL_TURN_GAP_MS) {
        // One that cannot be cancelled began where nothing may stop the page: the browser has
        // scrolled it already, and the board may only have slid under the pointer since.
        const onBoard = e.target instanceof Node && element.contains(e.target);
        this.wheelTurn = { board: onBoard && e.cancelable, at: e.timeStamp };
      } else {
        last.at = e.timeStamp;
      }
    };
    window.addEventListener('wheel', turnStarts, { capture: true, passive: true });
    this.cleanups.push(() => window.removeEventListener('wheel', turnStarts, { capture: true }));
    // Two fingers are the board's: the browser neither scrolls nor zooms the page under them
    // (one finger is left to it by the element's `touch-action`).
    const twoFingers = (e: TouchEvent): void => {
      if (e.touches.length > 1 && e.cancelable) e.preventDefault();
    };
    on('touchstart', twoFingers, { passive: false });
    on('touchmove', twoFingers, { passive: false });
    on('contextmenu', (e) => e.preventDefault());
  }

  /** Re-reads the camera's position, clamps it to the limits and aims the camera. */
  update(): void {
    this.spherical.setFromVector3(this.camera.position.clone().sub(this.target));
    this.apply();
  }

  dispose(): void {
    this.cleanups.forEach((f) => f());
    this.pointers.clear();
  }

  private apply(): void {
    const s = this.spherical;
    s.phi = Math.min(this.maxPolar, Math.max(this.minPolar, s.phi));
    s.makeSafe();
    s.radius = Math.min(this.maxDistance, Math.max(this.minDistance, s.radius));
    const before = this.camera.position.clone();
    this.camera.position.setFromSpherical(s).add(this.target);
    this.camera.lookAt(this.target);
    if (before.distanceToSquared(this.camera.position) > 1e-12) this.onChange();
  }

  /** A drag the board's height turns the camera a full circle with a mouse, half of one with
   * a finger: a thumb's swipe on a phone is most of the board, and turned the camp upside down. */
  private rotate(dx: number, dy: number, pointerType: string): void {
    const h = this.element.clientHeight || 1;
    const turn = pointerType === 'touch' ? Math.PI : 2 * Math.PI;
    this.spherical.theta -= (turn * dx) / h;
    if (!this.lockTilt) this.spherical.phi -= (turn * dy) / h;
    this.spherical.phi = Math.min(this.maxPolar, Math.max(this.minPolar, this.spherical.phi));
    this.onTurn?.(this.spherical);
    this.apply();
  }

  /**
   * Moves the camera `factor` times its distance, towards (or away from) the board point under
   * `at`: that point stays under the pointer, so the part of the board looked at comes nearer
   * instead of the middle alone (zoomed in on the middle, the home rows were out of reach).
   */
  private zoom(factor: number, at?: { x: number; y: number }): void {
    const before = this.spherical.radius;
    const after = Math.min(this.maxDistance, Math.max(this.minDistance, before * factor));
    const point = at && this.pointAt?.(at.x, at.y);
    if (point) this.target.addScaledVector(point.sub(this.target), 1 - after / before);
    this.spherical.radius = after;
    this.clampTarget?.(this.target, after);
    this.apply();
  }

  private spread(): number {
    const [a, b] = [...this.pointers.values()];
    return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
  }

  private readonly down = (e: PointerEvent): void => {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    try {
      this.element.setPointerCapture(e.pointerId);
    } catch {
      // Synthetic or already released pointers cannot be captured; dragging still works.
    }
    this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY, still: true, startX: e.clientX, startY: e.clientY });
    this.spherical.setFromVector3(this.camera.position.clone().sub(this.target));
    if (this.pointers.size === 2) this.pinch = this.spread();
  };

  private readonly move = (e: PointerEvent): void => {
    const last = this.pointers.get(e.pointerId);
    if (!last) return;
    // A tap's small drift picks a piece and turns nothing: the turn starts past the tap's slop
    // (from there, without a jump). Taps that drifted had turned the board a few degrees each.
    if (last.still && Math.hypot(e.clientX - last.startX, e.clientY - last.startY) > tapSlop(e.pointerType)) last.still = false;
    if (last.still && this.pointers.size === 1) {
      last.x = e.clientX;
      last.y = e.clientY;
      return;
    }
    const dx = e.clientX - last.x;
    const dy = e.clientY - last.y;
    const before = this.middle();
    last.x = e.clientX;
    last.y = e.clientY;
    if (this.pointers.size === 1) {
      // One finger scrolls the page: a swipe meant to reach the buttons below had tilted the
      // board nearly flat, and a tap then landed on the piece in front of the one aimed at.
      if (e.pointerType === 'touch') this.onOneFingerDrag?.();
      else this.rotate(dx, dy, e.pointerType);
    } else if (this.pointers.size === 2) {
      const spread = this.spread();
      const middle = this.middle();
      if (this.pinch > 0 && spread > 0) this.zoom(this.pinch / spread, middle);
      this.pinch = spread;
      // The two fingers moving together turn the board as one finger on a mouse's drag would.
      if (before && middle) this.rotate(middle.x - before.x, middle.y - before.y, e.pointerType);
    }
  };

  private middle(): { x: number; y: number } | undefined {
    const [a, b] = [...this.pointers.values()];
    return a && b ? { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 } : undefined;
  }

  /** The browser took the touch over (it scrolls the page): as a lift, and said like a drag. */
  private readonly cancel = (e: PointerEvent): void => {
    if (e.pointerType === 'touch' && this.pointers.size === 1 && this.pointers.has(e.pointerId)) this.onOneFingerDrag?.();
    this.up(e);
  };

  private readonly up = (e: PointerEvent): void => {
    if (!this.pointers.delete(e.pointerId)) return;
    try {
      this.element.releasePointerCapture(e.pointerId);
    } catch {
      // Already released.
    }
    this.pinch = this.pointers.size === 2 ? this.spread() : 0;
    // The finger left after a pinch moved with it: its jitter before it lifts turns nothing.
    for (const p of this.pointers.values()) {
      p.still = true;
      p.startX = p.x;
      p.startY = p.y;
    }
  };

  private readonly wheel = (e: WheelEvent): void => {
    const lines = e.deltaMode === 1 ? 40 : e.deltaMode === 2 ? 800 : 1;
    const delta = Math.max(-400, Math.min(400, e.deltaY * lines));
    const turn = this.wheelTurn;
    // Ctrl (a trackpad's pinch comes with it) or ⌘ zooms the page itself unless it is taken
    // here, limit or not (at a limit, `zoom` clamps the distance and nothing moves).
    const held = e.ctrlKey || e.metaKey;
    if (!held && turn !== null && !turn.board) {
      // The page was scrolling when the wheel came over the board: it goes on scrolling (it
      // had zoomed the board out on the way down, and back in on the way up, before the page
      // moved again).
      this.onWheelPassed?.(!pageScrolls(delta));
      return;
    }
    this.spherical.setFromVector3(this.camera.position.clone().sub(this.target));
    const before = this.spherical.radius;
    const factor = Math.pow(0.95, -delta * 0.01);
    // Within a hair of it: the distance read back from the camera is not the clamped one exactly.
    const atLimit = factor > 1 ? before >= this.maxDistance * 0.999 : before <= this.minDistance * 1.001;
    // Zoomed as far as it goes: the wheel scrolls the page, as a map's does.
    if (!held && atLimit) return;
    e.preventDefault();
    this.zoom(factor, { x: e.clientX, y: e.clientY });
  };
}

/** Whether the page can still scroll by `delta` (px, down positive). */
function pageScrolls(delta: number): boolean {
  const page = document.scrollingElement ?? document.documentElement;
  if (delta > 0) return page.scrollTop + page.clientHeight < page.scrollHeight - 1;
  if (delta < 0) return page.scrollTop > 0;
  return false;
}

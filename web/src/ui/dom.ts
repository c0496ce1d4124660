/** A small element builder: text only through `textContent`, never parsed HTML. */
export type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: {
    class?: string;
    text?: string;
    attrs?: Readonly<Record<string, string>>;
    on?: { readonly [E in keyof HTMLElementEventMap]?: (e: HTMLElementEventMap[E]) => void };
  } = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props.class !== undefined) el.className = props.class;
  if (props.text !== undefined) el.textContent = props.text;
  for (const [k, v] of Object.entries(props.attrs ?? {})) el.setAttribute(k, v);
  for (const [name, fn] of Object.entries(props.on ?? {})) {
    el.addEventListener(name, fn as EventListener);
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c);
  }
  return el;
}

/** A button; `key` lets the page put the focus back on it after a re-render. */
export function button(label: string, onClick: () => void, opts: { key?: string; class?: string; disabled?: boolean } = {}): HTMLButtonElement {
  const b = h('button', { class: opts.class ?? 'btn', text: label, attrs: { type: 'button' } });
  if (opts.key !== undefined) b.dataset['focusKey'] = opts.key;
  if (opts.disabled === true) b.disabled = true;
  b.addEventListener('click', onClick);
  return b;
}

/** A side's coloured name tag (sente's vermilion, gote's pale wood), as headings show whose it is. */
export function sideBadge(side: 'sente' | 'gote', name: string): HTMLSpanElement {
  return h('span', { class: `side-badge side-${side}`, text: name });
}

/** A heading's text with the side badge in place of the side's name ("[先手]の番", not "先手 先手の番"). */
export function withBadge(text: string, side: string, badge: Node): (string | Node)[] {
  const at = text.indexOf(side);
  if (at < 0) return [badge, ' ', text];
  let before = text.slice(0, at);
  let after = text.slice(at + side.length);
  // The badge is already a framed name: brackets around it only look like stray spaces. They
  // stay in the text, for a reader and a copy, but are not drawn.
  const open = before.at(-1);
  const close = after.at(0);
  if ((open === '(' && close === ')') || (open === '（' && close === '）')) {
    before = before.slice(0, -1);
    after = after.slice(1);
    return [before, h('span', { class: 'unseen-bracket', text: open }), badge, h('span', { class: 'unseen-bracket', text: close }), after];
  }
  return [before, badge, after];
}

/**
 * Drops the later clicks of a double click that land on another control than the first one did.
 * A press redraws the panel, and its second click met whatever slid under the pointer: a double
 * click on "confirm" in a friend's room pressed "choose the mode again" and left the room. The
 * same control pressed again (the same element, or one redrawn under the same focus key) still
 * counts each click, so "next" in the review steps as fast as one clicks.
 *
 * Drops a held key's repeats on a control as well: Enter held on the square that plays a move
 * went on to "hand over" (the focus goes there), and the curtain came down before the mover had
 * read the battle. Returns the remover.
 */
export function guardRepeatedPresses(doc: Document): () => void {
  let last: { readonly el: Element; readonly key: string | undefined } | null = null;
  const onClick = (event: MouseEvent): void => {
    const target = event.target instanceof Element ? event.target.closest('button, summary, a, input, select') : null;
    const key = target instanceof HTMLElement ? target.dataset['focusKey'] : undefined;
    const same = target !== null && last !== null && (target === last.el || (key !== undefined && key === last.key));
    if (event.detail > 1 && target !== null && !same) {
      event.preventDefault();
      event.stopImmediatePropagation();
      return;
    }
    last = target === null ? null : { el: target, key };
  };
  const onKey = (event: KeyboardEvent): void => {
    if (!event.repeat || (event.key !== 'Enter' && event.key !== ' ')) return;
    if (event.target instanceof Element && event.target.closest('button, summary, a') !== null) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  };
  doc.addEventListener('click', onClick, { capture: true });
  doc.addEventListener('keydown', onKey, { capture: true });
  return () => {
    doc.removeEventListener('click', onClick, { capture: true });
    doc.removeEventListener('keydown', onKey, { capture: true });
  };
}

/**
 * Finishes a mouse press that a redraw cut in two. The panel is drawn anew at every change, and
 * news from elsewhere (the friend confirming, a move arriving) may come between the button going
 * down and coming up: the browser then clicks nothing, because the element pressed has left the
 * page. When the button let go over is the same control drawn again (the same focus key), it is
 * pressed. Only for a mouse: a tap is clicked where it ends, whatever was drawn there by then.
 * Returns the remover.
 */
export function finishPressesCutByRedraws(doc: Document): () => void {
  let pressed: HTMLButtonElement | null = null;
  const keyedButton = (target: EventTarget | null): HTMLButtonElement | null =>
    target instanceof Element ? target.closest<HTMLButtonElement>('button[data-focus-key]') : null;
  const isMainMouseButton = (event: PointerEvent): boolean => event.pointerType === 'mouse' && event.button === 0;
  const onDown = (event: PointerEvent): void => {
    pressed = isMainMouseButton(event) ? keyedButton(event.target) : null;
  };
  const onUp = (event: PointerEvent): void => {
    const was = pressed;
    pressed = null;
    // Still in the page, the pressed button gets the browser's own click (or none, let go elsewhere).
    if (was === null || was.isConnected || !isMainMouseButton(event)) return;
    const el = keyedButton(event.target);
    if (el === null || el.dataset['focusKey'] !== was.dataset['focusKey']) return;
    // Chromium clicks nothing here; should a browser click the new button itself (it comes in
    // the same task as this event), it is not pressed twice.
    let clicked = false;
    const seen = (click: MouseEvent): void => {
      if (click.target instanceof Node && el.contains(click.target)) clicked = true;
    };
    doc.addEventListener('click', seen, { capture: true });
    setTimeout(() => {
      doc.removeEventListener('click', seen, { capture: true });
      if (!clicked && el.isConnected && !el.disabled) el.click();
    }, 0);
  };
  doc.addEventListener('pointerdown', onDown, { capture: true });
  doc.addEventListener('pointerup', onUp, { capture: true });
  return () => {
    doc.removeEventListener('pointerdown', onDown, { capture: true });
    doc.removeEventListener('pointerup', onUp, { capture: true });
  };
}

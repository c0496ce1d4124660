/** Fakes for the online unit tests: a socket the test drives, timers the test fires. */
import type { SocketLike, Timers } from './client';

export class FakeSocket implements SocketLike {
  onopen: (() => void) | null = null;
  onmessage: ((ev: { readonly data: unknown }) => void) | null = null;
  onclose: ((ev?: { readonly code?: number }) => void) | null = null;
  onerror: (() => void) | null = null;
  readonly sent: Record<string, unknown>[] = [];
  closed = false;

  send(text: string): void {
    if (this.closed) throw new Error('send on a closed socket');
    this.sent.push(JSON.parse(text) as Record<string, unknown>);
  }

  close(): void {
    this.closed = true;
  }

  /** The server side: the socket opens. */
  open(): void {
    this.onopen?.();
  }

  /** The server side: one frame arrives. */
  receive(msg: unknown): void {
    this.onmessage?.({ data: JSON.stringify(msg) });
  }

  /** The network drops the connection (or the server closes it with `code`). */
  drop(code?: number): void {
    this.closed = true;
    this.onclose?.(code === undefined ? undefined : { code });
  }

  /** Types of the messages sent, in order. */
  types(): string[] {
    return this.sent.map((m) => String(m['t']));
  }
}

export class FakeTimers implements Timers {
  private next = 1;
  private readonly pending = new Map<number, { fn: () => void; ms: number }>();

  set(fn: () => void, ms: number): number {
    const id = this.next++;
    this.pending.set(id, { fn, ms });
    return id;
  }

  clear(handle: number): void {
    this.pending.delete(handle);
  }

  /** Delays of the pending timers. */
  delays(): number[] {
    return [...this.pending.values()].map((t) => t.ms);
  }

  /** Fires every pending timer with this delay. */
  fire(ms: number): void {
    for (const [id, t] of [...this.pending]) {
      if (t.ms === ms) {
        this.pending.delete(id);
        t.fn();
      }
    }
  }
}

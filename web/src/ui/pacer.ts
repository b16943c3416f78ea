// The computer's reply is shown no sooner than MIN_REPLY_MS after the player's move: a reply
// that arrives earlier is held back for the rest of the time, and whatever arrives meanwhile
// waits behind it, in order. The clock and the timer are injected, so this is tested in Node.

import { MIN_REPLY_MS, revealDelay } from './model';

export interface PacerClock {
  now(): number;
  later(ms: number, f: () => void): () => void;
}

export const realClock: PacerClock = {
  now: () => performance.now(),
  later: (ms, f) => {
    const t = setTimeout(f, ms);
    return () => clearTimeout(t);
  },
};

export class ReplyPacer<M> {
  private sentAt: number | null = null;
  private held: M[] = [];
  private cancel: (() => void) | null = null;

  constructor(
    private readonly show: (m: M) => void,
    private readonly clock: PacerClock = realClock,
    private readonly min = MIN_REPLY_MS,
  ) {}

  /** The player's move was sent now. */
  sent(): void {
    this.sentAt = this.clock.now();
  }

  /** A message of the game; `computerMove`: it is the computer's move. */
  push(m: M, computerMove: boolean): void {
    if (this.cancel) {
      this.held.push(m);
      return;
    }
    const wait = revealDelay(computerMove, this.sentAt, this.clock.now(), this.min);
    if (computerMove) this.sentAt = null;
    if (wait <= 0) {
      this.show(m);
      return;
    }
    this.held = [m];
    this.cancel = this.clock.later(wait, () => {
      this.cancel = null;
      const list = this.held;
      this.held = [];
      for (const x of list) this.push(x, false);
    });
  }

  /** Whether a reply is being held back now. */
  get holding(): boolean {
    return this.cancel !== null;
  }

  destroy(): void {
    this.cancel?.();
    this.cancel = null;
    this.held = [];
  }
}

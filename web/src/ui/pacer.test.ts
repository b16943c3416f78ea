import { describe, expect, it } from 'vitest';
import { ReplyPacer, type PacerClock } from './pacer';

/** A clock the test moves by hand. */
function fakeClock(): PacerClock & { advance(ms: number): void } {
  let t = 0;
  let timers: { at: number; f: () => void }[] = [];
  return {
    now: () => t,
    later: (ms, f) => {
      const timer = { at: t + ms, f };
      timers.push(timer);
      return () => void (timers = timers.filter((x) => x !== timer));
    },
    advance(ms) {
      t += ms;
      for (const x of timers.filter((x) => x.at <= t)) {
        timers = timers.filter((y) => y !== x);
        x.f();
      }
    },
  };
}

describe('the computer\'s reply waits for 400 ms after the player\'s move', () => {
  it('holds an early reply for the rest of the time, and what comes after it behind it', () => {
    const clock = fakeClock();
    const shown: string[] = [];
    const at: number[] = [];
    const p = new ReplyPacer<string>((m) => (shown.push(m), at.push(clock.now())), clock);
    p.sent();
    clock.advance(20);
    p.push('my move', false); // the echo of the player's own move: at once
    clock.advance(40);
    p.push('reply', true); // 60 ms after the move: held
    p.push('draw offer', false); // behind the reply
    expect(shown).toEqual(['my move']);
    expect(p.holding).toBe(true);
    clock.advance(339);
    expect(shown).toEqual(['my move']);
    clock.advance(1);
    expect(shown).toEqual(['my move', 'reply', 'draw offer']);
    expect(at).toEqual([20, 400, 400]);
    expect(p.holding).toBe(false);
  });
  it('shows a late reply at once, and any reply when no move was sent (the computer opens)', () => {
    const clock = fakeClock();
    const shown: string[] = [];
    const p = new ReplyPacer<string>((m) => shown.push(m), clock);
    p.push('opening reply', true);
    expect(shown).toEqual(['opening reply']);
    p.sent();
    clock.advance(650);
    p.push('slow reply', true);
    expect(shown).toEqual(['opening reply', 'slow reply']);
  });
  it('forgets what it held when the page goes', () => {
    const clock = fakeClock();
    const shown: string[] = [];
    const p = new ReplyPacer<string>((m) => shown.push(m), clock);
    p.sent();
    p.push('reply', true);
    p.destroy();
    clock.advance(1000);
    expect(shown).toEqual([]);
  });
});

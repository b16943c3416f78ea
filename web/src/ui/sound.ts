// Sounds, synthesised at run time with the Web Audio API (nothing is downloaded or shipped):
// a wooden "tock" for a move, a sharper double knock for a capture, a rising arpeggio for a
// crowning, a two-note chord at the end of a game and a short beep when the player's own clock
// runs low. Which sounds a change of the game calls for is decided by pure functions (tested in
// Node); the player's mute is remembered in the preferences.

import type { GameState } from '../net/protocol';
import type { ClockShow } from './model';

export type SoundName = 'move' | 'capture' | 'promotion' | 'end' | 'lowTime';

/** Whether the piece that made the last move of `next` was crowned by it (a man before, a king after). */
export function crowned(prev: GameState | null, next: GameState): boolean {
  const m = next.moves[next.moves.length - 1];
  if (!prev || !m) return false;
  const from = m.path[0];
  const to = m.path[m.path.length - 1];
  const men = m.color === 'white' ? prev.position.white : prev.position.black;
  const kings = m.color === 'white' ? next.position.white_kings : next.position.black_kings;
  return from !== undefined && to !== undefined && men.includes(from) && kings.includes(to);
}

/** The sounds a new state calls for: the move just played (one, the most telling) and the end. */
export function soundsFor(prev: GameState | null, next: GameState): SoundName[] {
  const out: SoundName[] = [];
  if (prev && prev.id === next.id && next.moves.length === prev.moves.length + 1) {
    const m = next.moves[next.moves.length - 1];
    if (crowned(prev, next)) out.push('promotion');
    else if (m && m.captures.length > 0) out.push('capture');
    else out.push('move');
  }
  if (prev && prev.id === next.id && !prev.result && next.result) out.push('end');
  return out;
}

/** Seconds left in the clock's current stage (main time, or the byo-yomi period running). */
export function stageLeftMs(c: ClockShow): number {
  return c.overtime ? c.period_ms : c.main_ms;
}

/** Low time: the player's own running clock has just gone under `limitMs` in its current stage. */
export function lowTimeCrossed(before: ClockShow, after: ClockShow, limitMs = 10_000): boolean {
  if (after.flagged) return false;
  const a = stageLeftMs(before);
  const b = stageLeftMs(after);
  // a new stage (main time over, or a fresh period) starts above the limit again
  const sameStage = before.overtime === after.overtime && before.periods === after.periods;
  return b < limitMs && b > 0 && (a >= limitMs || !sameStage);
}

interface Note {
  at: number;
  freq: number;
  to?: number;
  dur: number;
  type: OscillatorType;
  gain: number;
}

/** The notes of each sound, in seconds from its start. */
const NOTES: Record<SoundName, { notes: Note[]; noise?: { at: number; dur: number; freq: number; gain: number }[] }> = {
  move: { notes: [{ at: 0, freq: 190, to: 90, dur: 0.09, type: 'sine', gain: 0.55 }], noise: [{ at: 0, dur: 0.03, freq: 1800, gain: 0.25 }] },
  capture: {
    notes: [
      { at: 0, freq: 240, to: 110, dur: 0.08, type: 'sine', gain: 0.6 },
      { at: 0.09, freq: 300, to: 120, dur: 0.1, type: 'sine', gain: 0.6 },
    ],
    noise: [
      { at: 0, dur: 0.03, freq: 2600, gain: 0.3 },
      { at: 0.09, dur: 0.03, freq: 3000, gain: 0.3 },
    ],
  },
  promotion: {
    notes: [
      { at: 0, freq: 523.25, dur: 0.12, type: 'triangle', gain: 0.35 },
      { at: 0.1, freq: 659.25, dur: 0.12, type: 'triangle', gain: 0.35 },
      { at: 0.2, freq: 783.99, dur: 0.25, type: 'triangle', gain: 0.35 },
    ],
  },
  end: {
    notes: [
      { at: 0, freq: 392, dur: 0.6, type: 'triangle', gain: 0.3 },
      { at: 0, freq: 493.88, dur: 0.6, type: 'triangle', gain: 0.22 },
      { at: 0.18, freq: 587.33, dur: 0.7, type: 'triangle', gain: 0.25 },
    ],
  },
  lowTime: {
    notes: [
      { at: 0, freq: 880, dur: 0.08, type: 'square', gain: 0.12 },
      { at: 0.16, freq: 880, dur: 0.08, type: 'square', gain: 0.12 },
    ],
  },
};

/** Plays the sounds; creates its AudioContext on the first user gesture (browsers' autoplay rule). */
export class Sounds {
  private ctx: AudioContext | null = null;
  private readonly unlock = (): void => {
    this.context()?.resume().catch(() => undefined);
  };

  constructor(private readonly muted: () => boolean) {
    if (typeof window !== 'undefined') {
      window.addEventListener('pointerdown', this.unlock, { passive: true });
      window.addEventListener('keydown', this.unlock);
    }
  }

  private context(): AudioContext | null {
    if (this.ctx) return this.ctx;
    const Ctor = typeof AudioContext === 'function' ? AudioContext : null;
    if (!Ctor) return null;
    try {
      this.ctx = new Ctor();
    } catch {
      return null;
    }
    return this.ctx;
  }

  play(name: SoundName): void {
    if (this.muted()) return;
    // what was played last, for the end-to-end test (no other use)
    document.body.dataset['sound'] = name;
    document.body.dataset['sounds'] = String(Number(document.body.dataset['sounds'] ?? '0') + 1);
    const ctx = this.context();
    if (!ctx) return;
    const t0 = ctx.currentTime + 0.01;
    const spec = NOTES[name];
    for (const n of spec.notes) {
      const osc = ctx.createOscillator();
      const g = ctx.createGain();
      osc.type = n.type;
      osc.frequency.setValueAtTime(n.freq, t0 + n.at);
      if (n.to) osc.frequency.exponentialRampToValueAtTime(n.to, t0 + n.at + n.dur);
      g.gain.setValueAtTime(0.0001, t0 + n.at);
      g.gain.exponentialRampToValueAtTime(n.gain, t0 + n.at + 0.005);
      g.gain.exponentialRampToValueAtTime(0.0001, t0 + n.at + n.dur);
      osc.connect(g).connect(ctx.destination);
      osc.start(t0 + n.at);
      osc.stop(t0 + n.at + n.dur + 0.02);
    }
    for (const z of spec.noise ?? []) {
      const len = Math.max(1, Math.floor(ctx.sampleRate * z.dur));
      const buf = ctx.createBuffer(1, len, ctx.sampleRate);
      const data = buf.getChannelData(0);
      for (let i = 0; i < len; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / len);
      const src = ctx.createBufferSource();
      src.buffer = buf;
      const filter = ctx.createBiquadFilter();
      filter.type = 'bandpass';
      filter.frequency.value = z.freq;
      const g = ctx.createGain();
      g.gain.value = z.gain;
      src.connect(filter).connect(g).connect(ctx.destination);
      src.start(t0 + z.at);
    }
  }

  destroy(): void {
    window.removeEventListener('pointerdown', this.unlock);
    window.removeEventListener('keydown', this.unlock);
    void this.ctx?.close().catch(() => undefined);
    this.ctx = null;
  }
}

let shared: Sounds | null = null;
/** The page's one Sounds (one AudioContext for every game page). */
export function appSounds(muted: () => boolean): Sounds {
  shared ??= new Sounds(muted);
  return shared;
}

// The puzzle page's plain logic: the server's puzzle JSON (docs/protocol.md, "Puzzles"), the
// explanation of a wrong move from the puzzle's list of wrong moves, and what the browser keeps
// of a solver (the rating shown at once, the best streak, whether a guest's ratings were handed
// to the account it signed in with).

import type { Color } from '../board/geometry';
import type { Lang } from '../i18n';
import type { StorageLike } from './prefs';
import { pt, type PuzzleKey } from './puzzlesText';

export interface WrongMove {
  /** index in the solution of the solver's move it replaces */
  step: number;
  move: string;
  /** the opponent's answer ('' when none) */
  reply: string;
  captured: number;
  crowns: boolean;
  /** material the wrong move keeps within the proof's horizon, minus the baseline (a man = 100) */
  value: number;
}

export interface PuzzleJson {
  id: string;
  variant: string;
  fen: string;
  color: Color;
  /** the solver's moves and the replies, in order */
  solution: string[];
  themes: string[];
  rating: number;
  deviation: number;
  plays: number;
  solved: number;
  source: string;
  proof: { depth: number; score: number; second: number; horizon: number; baseline: number; proven: number; alternative: number };
  wrong: WrongMove[];
}

export interface SolverJson {
  variant: string;
  rating: number;
  deviation: number;
  attempts: number;
  solved: number;
  best_streak: number;
}

export interface AttemptJson {
  solved: boolean;
  wrong_step: number;
  rated: boolean;
  rating: number;
  deviation: number;
  change: number;
  puzzle_rating: number;
}

export type PuzzleMode = 'rated' | 'daily' | 'streak';

/** The #/puzzles route: variant, mode, a puzzle id. */
export function parsePuzzleHash(hash: string): { variant: string | null; mode: PuzzleMode; id: string | null } {
  const m = /^#\/puzzles(?:\/([\w-]+))?(?:\/([\w-]+))?\/?$/.exec(hash);
  if (!m) return { variant: null, mode: 'rated', id: null };
  const second = m[2] ?? null;
  const mode: PuzzleMode = second === 'daily' || second === 'streak' ? second : 'rated';
  return { variant: m[1] ?? null, mode, id: second && mode === 'rated' ? second : null };
}

export const opposite = (c: Color): Color => (c === 'white' ? 'black' : 'white');

const COUNT_WORDS: PuzzleKey[] = ['one', 'two', 'three', 'four', 'five'];

/** "three" for 3; digits beyond five. */
export function countWord(lang: Lang, n: number): string {
  const key = COUNT_WORDS[n - 1];
  return key ? pt(lang, key) : String(n);
}

/** An amount of material (a man = 100) in men: "a man", "two men". */
export function amountWord(lang: Lang, value: number): string {
  const men = Math.max(1, Math.round(Math.abs(value) / 100));
  return men === 1 ? pt(lang, 'aMan') : pt(lang, 'men', { n: countWord(lang, men) });
}

/** The wrong move's entry, if the puzzle lists it. */
export function wrongEntry(p: PuzzleJson, step: number, move: string): WrongMove | null {
  return p.wrong.find((w) => w.step === step && w.move === move) ?? null;
}

/**
 * Why `move` at solution index `step` is wrong: what it lets the opponent do (the reply's
 * captures and crowning), then what it costs. `reply` is the opponent's answer to show on the
 * board, or null.
 */
export function explainWrong(lang: Lang, p: PuzzleJson, step: number, move: string): { reply: string | null; text: string } {
  const w = wrongEntry(p, step, move);
  if (!w) return { reply: null, text: pt(lang, 'explainUnknown') };
  const side = pt(lang, opposite(p.color));
  const parts: string[] = [];
  if (w.captured > 0 && w.crowns) parts.push(pt(lang, 'explainCaptureCrown', { side, count: countWord(lang, w.captured) }));
  else if (w.captured > 0) parts.push(pt(lang, 'explainCapture', { side, count: countWord(lang, w.captured) }));
  else if (w.crowns) parts.push(pt(lang, 'explainCrown', { side }));
  const gain = amountWord(lang, p.proof.proven - p.proof.baseline);
  if (w.value < 0) parts.push(pt(lang, 'explainLoses', { amount: amountWord(lang, w.value) }));
  else if (w.value >= 100) parts.push(pt(lang, 'explainLess', { less: amountWord(lang, w.value), amount: gain }));
  else parts.push(pt(lang, 'explainNoGain', { amount: gain }));
  return { reply: w.reply || null, text: parts.join(' ') };
}

/** The solver's moves of the solution (indices 0, 2, 4, ...). */
export function solverMoves(p: PuzzleJson): string[] {
  return p.solution.filter((_, i) => i % 2 === 0);
}

/** The from square of a move text ("32-28", "c3xe5", "28x19x10"): its first square. */
export function fromSquare(text: string): string {
  return text.split(/[-x:*]/)[0] ?? text;
}

/** What the browser keeps of the solver: the last rating seen per variant, the best streak. */
export class PuzzleMemory {
  constructor(private readonly store: StorageLike) {}
  rating(variant: string): SolverJson | null {
    try {
      const v = JSON.parse(this.store.getItem(`papan.puzzle.rating.${variant}`) ?? 'null') as SolverJson | null;
      return v && typeof v.rating === 'number' ? v : null;
    } catch {
      return null;
    }
  }
  setRating(s: SolverJson): void {
    this.store.setItem(`papan.puzzle.rating.${s.variant}`, JSON.stringify(s));
  }
  bestStreak(variant: string): number {
    return Number(this.store.getItem(`papan.puzzle.streak.${variant}`) ?? '0') || 0;
  }
  setBestStreak(variant: string, n: number): void {
    if (n > this.bestStreak(variant)) this.store.setItem(`papan.puzzle.streak.${variant}`, String(n));
  }
  /** whether the guest's ratings were already handed to this account */
  adopted(username: string): boolean {
    return this.store.getItem('papan.puzzle.adopted') === username;
  }
  setAdopted(username: string): void {
    this.store.setItem('papan.puzzle.adopted', username);
  }
}

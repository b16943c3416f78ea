// Engine scores for people. The engine scores from the side to move's view in hundredths of a
// man (a man = 100); a score beyond MATE_BOUND is a forced game end in (MATE_SCORE - |s|) plies.
// Pages show White's view: + is good for White.

import type { Color } from '../board/geometry';
import { MATE_BOUND, MATE_SCORE } from '../engine/types';

export type Score = { kind: 'men'; value: number } | { kind: 'end'; plies: number; winner: Color };

/** The score from White's side. */
export function whiteView(score: number, turn: Color): number {
  return turn === 'white' ? score : -score;
}

/** A White's-view score as text parts. */
export function describeScore(white: number): Score {
  if (Math.abs(white) >= MATE_BOUND) return { kind: 'end', plies: MATE_SCORE - Math.abs(white), winner: white > 0 ? 'white' : 'black' };
  return { kind: 'men', value: white / 100 };
}

/** "+1.25", "-0.50", "0.00" (men). */
export function menText(value: number): string {
  const r = Math.round(value * 100) / 100;
  return `${r > 0 ? '+' : r < 0 ? '−' : ''}${Math.abs(r).toFixed(2)}`;
}

/**
 * White's share of the evaluation bar, 0..1: 0.5 level, about 0.73 a man up, 0.95 four men up,
 * 1 (or 0) a forced win. A logistic curve: a man matters more in a level position than when one
 * side is far ahead.
 */
export function barShare(white: number): number {
  if (white >= MATE_BOUND) return 1;
  if (white <= -MATE_BOUND) return 0;
  return 1 / (1 + Math.exp(-white / 100));
}

/** The value drawn in the evaluation graph, -1..1 (the bar's share, centred). */
export function graphValue(white: number): number {
  return barShare(white) * 2 - 1;
}

/**
 * A line of moves with move numbers: "12. 32-28 19-23 13. 28x19", or "12... 19-23 13. 28x19"
 * when it starts with the second side. `ply` counts plies from the first side's first move.
 */
export function numberedLine(pv: readonly string[], ply: number): string {
  const parts: string[] = [];
  pv.forEach((m, i) => {
    const p = ply + i;
    const n = Math.floor(p / 2) + 1;
    if (p % 2 === 0) parts.push(`${n}.`);
    else if (i === 0) parts.push(`${n}...`);
    parts.push(m);
  });
  return parts.join(' ');
}

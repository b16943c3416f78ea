// Marks the moves of an analysed game by how much they lose against the engine's best
// (docs/web.md, "Game review"): the evaluation before a move, from the mover's side, minus the
// evaluation after it, also from the mover's side. Scores are clamped to ±CLAMP first, so moves
// inside an already won or lost position are not marked for losing part of a large lead.

import type { WasmMove } from '../engine/types';

export type Judgement = 'inaccuracy' | 'mistake' | 'blunder';

/** Score drops (hundredths of a man) from which a move is marked. */
export const THRESHOLDS: Readonly<Record<Judgement, number>> = { inaccuracy: 50, mistake: 100, blunder: 200 };
/** Scores are clamped to ±5 men before the drop is taken. */
export const CLAMP = 500;

/** The analysis of one position: the side to move's score and the engine's move there. */
export interface PositionEval {
  score: number;
  best: WasmMove | null;
  pv: string[];
}

export interface MoveMark {
  ply: number;
  judgement: Judgement;
  /** the drop, hundredths of a man, after clamping */
  drop: number;
  better: WasmMove;
  line: string[];
}

const clamp = (s: number): number => Math.max(-CLAMP, Math.min(CLAMP, s));
const samePath = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

export function judgementOf(drop: number): Judgement | null {
  if (drop >= THRESHOLDS.blunder) return 'blunder';
  if (drop >= THRESHOLDS.mistake) return 'mistake';
  if (drop >= THRESHOLDS.inaccuracy) return 'inaccuracy';
  return null;
}

/**
 * evals[i] is the analysis of the position before move i (evals[moves.length]: after the last
 * move); null where it is not analysed yet. A move is marked when both of its positions are
 * analysed, it is not the engine's choice, and it drops at least THRESHOLDS.inaccuracy.
 */
export function markMoves(moves: readonly { path: number[] }[], evals: readonly (PositionEval | null)[]): MoveMark[] {
  const out: MoveMark[] = [];
  for (let i = 0; i < moves.length; i++) {
    const before = evals[i];
    const after = evals[i + 1];
    const played = moves[i];
    if (!before || !after || !played || !before.best) continue;
    if (samePath(before.best.path, played.path)) continue;
    const drop = clamp(before.score) - clamp(-after.score);
    const judgement = judgementOf(drop);
    if (judgement) out.push({ ply: i, judgement, drop, better: before.best, line: before.pv });
  }
  return out;
}

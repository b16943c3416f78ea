import { describe, expect, it } from 'vitest';
import { judgementOf, markMoves, THRESHOLDS, type PositionEval } from './judge';

const best = (path: number[]) => ({ from: path[0] as number, to: path.at(-1) as number, path, captures: [], text: path.join('-') });
const ev = (score: number, path: number[]): PositionEval => ({ score, best: best(path), pv: [path.join('-')] });

describe('marking moves by score drop', () => {
  it('uses the documented thresholds', () => {
    expect(judgementOf(THRESHOLDS.inaccuracy - 1)).toBeNull();
    expect(judgementOf(THRESHOLDS.inaccuracy)).toBe('inaccuracy');
    expect(judgementOf(THRESHOLDS.mistake)).toBe('mistake');
    expect(judgementOf(THRESHOLDS.blunder)).toBe('blunder');
  });

  it('marks a move that throws away a man and names the better move', () => {
    // White is level (0); after White's move Black (to move) is +2 men: White lost 200
    const moves = [{ path: [32, 28] }, { path: [19, 23] }];
    const evals = [ev(0, [31, 27]), ev(200, [19, 23]), ev(-200, [1, 2])];
    const marks = markMoves(moves, evals);
    expect(marks).toHaveLength(1);
    expect(marks[0]).toMatchObject({ ply: 0, judgement: 'blunder', drop: 200 });
    expect(marks[0]?.better.path).toEqual([31, 27]);
  });

  it('never marks the engine\'s own move, nor moves whose positions are not analysed', () => {
    const moves = [{ path: [32, 28] }, { path: [19, 23] }];
    expect(markMoves(moves, [ev(0, [32, 28]), ev(300, [19, 23]), null])).toHaveLength(0);
  });

  it('clamps scores so a won position stays won', () => {
    // +12 men to +7 men for the mover: both beyond the clamp, no mark
    const moves = [{ path: [1, 2] }];
    expect(markMoves(moves, [ev(1200, [3, 4]), ev(-700, [5, 6])])).toHaveLength(0);
    // a forced win thrown away into a level game is a blunder
    expect(markMoves(moves, [ev(29990, [3, 4]), ev(0, [5, 6])])[0]?.judgement).toBe('blunder');
  });
});

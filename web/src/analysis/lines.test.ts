import { describe, expect, it } from 'vitest';
import type { AnalysisLine } from '../engine/types';
import { mergeLine } from './lines';

const line = (multipv: number, depth: number, from: number, to: number): AnalysisLine => ({
  multipv, depth, seldepth: depth, score: 0, nodes: 0, seconds: 0, nps: 0,
  move: { from, to, path: [from, to], captures: [], text: `${from}-${to}` }, pv: [`${from}-${to}`],
});

describe('streamed multi-PV lines', () => {
  it('replace their rank and never show one move twice', () => {
    let ls = [line(1, 5, 32, 28), line(2, 5, 33, 29), line(3, 5, 31, 27)];
    ls = mergeLine(ls, line(1, 6, 33, 29)); // the old second line is now the best
    expect(ls.map((l) => [l.multipv, l.move?.text])).toEqual([[1, '33-29'], [3, '31-27']]);
    ls = mergeLine(ls, line(2, 6, 32, 28));
    expect(ls.map((l) => [l.multipv, l.depth])).toEqual([[1, 6], [2, 6], [3, 5]]);
  });
});

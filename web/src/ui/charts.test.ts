import { describe, expect, it } from 'vitest';
import { evalGraph, plyAt, ratingSeries, ticks } from './charts';

describe('charts', () => {
  it('draws the evaluation from top (White winning) to bottom, skipping plies not analysed', () => {
    const g = evalGraph([0, 1, null, -1], 300, 100);
    expect(g.points).toEqual([{ x: 0, y: 50 }, { x: 100, y: 0 }, null, { x: 300, y: 100 }]);
    expect(g.line).toBe('M0,50 L100,0 L300,100');
    expect(g.area).toBe('M0,100 L0,50 L100,0 L300,100 L300,100 Z');
    expect(evalGraph([null], 10, 10).line).toBe('');
  });

  it('maps a click to the nearest ply', () => {
    expect(plyAt(0, 40)).toBe(0);
    expect(plyAt(0.51, 40)).toBe(20);
    expect(plyAt(1.2, 40)).toBe(40);
  });

  it('draws a rating history from the rating before the first game, with round ticks', () => {
    const s = ratingSeries([{ rating: 1230, change: 30 }, { rating: 1190, change: -40 }], 200, 100, 10);
    expect(s.points.map((p) => p.x)).toEqual([0, 100, 200]);
    expect(s.points[1]?.y).toBe(10); // the highest rating at the top margin
    expect(s.points[2]?.y).toBe(90); // the lowest at the bottom margin
    expect(s.points[0]?.y).toBe(70); // 1200 before the first game
    expect(ratingSeries([{ rating: 1216, change: 16 }], 200, 100).min).toBe(1190); // a narrow range is widened
    expect(ticks(1190, 1230)).toEqual([1190, 1200, 1210, 1220, 1230]);
  });
});

import { describe, expect, it } from 'vitest';
import { barShare, describeScore, graphValue, menText, numberedLine, whiteView } from './score';

describe('scores', () => {
  it('turn into White\'s view, men and forced ends', () => {
    expect(whiteView(120, 'black')).toBe(-120);
    expect(describeScore(125)).toEqual({ kind: 'men', value: 1.25 });
    expect(describeScore(-29995)).toEqual({ kind: 'end', plies: 5, winner: 'black' });
    expect(menText(1.25)).toBe('+1.25');
    expect(menText(-0.5)).toBe('−0.50');
    expect(menText(0)).toBe('0.00');
  });

  it('fill the bar monotonically, level in the middle, full for a forced win', () => {
    expect(barShare(0)).toBe(0.5);
    expect(barShare(100)).toBeGreaterThan(0.7);
    expect(barShare(400)).toBeGreaterThan(barShare(100));
    expect(barShare(29990)).toBe(1);
    expect(barShare(-29990)).toBe(0);
    expect(graphValue(0)).toBe(0);
  });
});

describe('numbered lines', () => {
  it('numbers the first side\'s moves, and a line that starts with the second side', () => {
    expect(numberedLine(['32-28', '19-23', '28x19'], 22)).toBe('12. 32-28 19-23 13. 28x19');
    expect(numberedLine(['19-23', '28x19'], 23)).toBe('12... 19-23 13. 28x19');
    expect(numberedLine([], 0)).toBe('');
  });
});

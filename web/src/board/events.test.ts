import { describe, expect, it } from 'vitest';
import { squareOfEvent } from './events';
import { initialState } from './state';
import { geometry } from './testdata/fixtures';

const box = (x: number, y: number, w: number, h: number): DOMRect =>
  ({ x, y, left: x, top: y, width: w, height: h, right: x + w, bottom: y + h, toJSON: () => ({}) }) as DOMRect;

describe('pointer to square', () => {
  it('maps a point of the board element to the square under it, for both orientations', () => {
    const s = initialState(geometry('international'));
    const b = box(100, 50, 500, 500); // 50 px per cell
    expect(squareOfEvent(s, { clientX: 125, clientY: 525 }, b)).toBe(46); // a1 bottom left
    expect(squareOfEvent(s, { clientX: 175, clientY: 75 }, b)).toBe(1); // b10
    expect(squareOfEvent({ ...s, orientation: 'black' }, { clientX: 125, clientY: 525 }, b)).toBe(5); // j10
    expect(squareOfEvent(s, { clientX: 150 - 1, clientY: 75 }, b)).toBeNull(); // a10 is light
    expect(squareOfEvent(s, { clientX: 90, clientY: 75 }, b)).toBeNull(); // outside
    expect(squareOfEvent(s, { clientX: 125, clientY: 525 }, box(0, 0, 0, 0))).toBeNull();
  });
});

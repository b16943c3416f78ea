import { describe, expect, it } from 'vitest';
import { colorOf } from './lobby';

describe('the colour chosen in the lobby', () => {
  it('is by default the side that moves first: Black in American, White elsewhere', () => {
    expect(colorOf('first', 'black')).toBe('black');
    expect(colorOf('first', 'white')).toBe('white');
  });

  it('keeps the other side and random as chosen', () => {
    expect(colorOf('second', 'black')).toBe('white');
    expect(colorOf('second', 'white')).toBe('black');
    expect(colorOf('random', 'black')).toBe('random');
  });
});

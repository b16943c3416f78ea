import { describe, expect, it } from 'vitest';
import { parseFen, piecesFromLists } from './fen';

describe('FEN reading', () => {
  it('reads ranges, kings and the side to move', () => {
    const f = parseFen('B:W21-32:B1-12');
    expect(f.turn).toBe('black');
    expect(f.pieces.size).toBe(24);
    expect(f.pieces.get(21)).toEqual({ color: 'white', king: false });
    expect(f.pieces.get(12)).toEqual({ color: 'black', king: false });
    const k = parseFen('W:WK18:B15,22');
    expect(k.pieces.get(18)).toEqual({ color: 'white', king: true });
    expect(k.pieces.get(22)?.color).toBe('black');
  });

  it('ignores the lidraughts :H/:F suffix and rejects garbage', () => {
    expect(parseFen('W:W31-50:B1-20:H0:F1').pieces.size).toBe(40);
    expect(() => parseFen('X:W1')).toThrow();
    expect(() => parseFen('W:Wzz')).toThrow();
  });

  it('reads the server position lists', () => {
    const p = piecesFromLists({ white: [21], white_kings: [3], black: [9], black_kings: [] });
    expect(p.get(3)).toEqual({ color: 'white', king: true });
    expect(p.size).toBe(3);
  });
});

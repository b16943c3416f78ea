import { describe, expect, it } from 'vitest';
import { parseFen } from '../board/fen';
import { applyTool, toFen } from './editor';

describe('position editor', () => {
  it('places and removes men and kings of both colours', () => {
    let p = parseFen('W:W31:B1').pieces;
    p = applyTool(p, 45, 'white-king');
    p = applyTool(p, 5, 'black-man');
    expect(toFen(p, 'white')).toBe('W:W31,K45:B1,5');
    p = applyTool(p, 45, 'white-king'); // the same piece again: taken away
    p = applyTool(p, 31, 'black-king'); // another piece: replaced
    p = applyTool(p, 1, 'erase');
    expect(toFen(p, 'black')).toBe('B:W:B5,K31');
  });

  it('writes a FEN the board reads back', () => {
    const fen = 'B:WK3,10,28:B7,K20';
    expect(toFen(parseFen(fen).pieces, 'black')).toBe(fen);
  });
});

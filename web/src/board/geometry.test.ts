import { describe, expect, it } from 'vitest';
import { buildGeometry, edgeLabels, isDarkCell, squareAtCell, squareAtPoint, squareCell, squaresBetween } from './geometry';
import { VARIANTS, geometry, meta } from './testdata/fixtures';

describe('geometry from variant metadata', () => {
  it('builds every variant of the table with its square count', () => {
    for (const v of VARIANTS) {
      const g = buildGeometry(v);
      expect(g.squares.length).toBe(v.board.squares);
      expect(g.size).toBe(v.board.size);
      expect(g.allPlayable).toBe(v.topology === 'orthogonal8');
    }
  });

  it('places the standard 8x8 numbering (1 = b8, 29 = a1, 32 = g1) from White', () => {
    const g = geometry('russian');
    expect(squareCell(g, 1, 'white')).toEqual({ col: 1, row: 0 });
    expect(squareCell(g, 29, 'white')).toEqual({ col: 0, row: 7 });
    expect(squareCell(g, 32, 'white')).toEqual({ col: 6, row: 7 });
    expect(squareAtCell(g, 0, 7, 'white')).toBe(29);
    expect(squareAtCell(g, 1, 7, 'white')).toBeNull(); // b1 is light
  });

  it('flips the board for Black: square 1 comes to the bottom', () => {
    const g = geometry('russian');
    expect(squareCell(g, 1, 'black')).toEqual({ col: 6, row: 7 });
    expect(squareAtCell(g, 6, 7, 'black')).toBe(1);
    expect(squareCell(g, 32, 'black')).toEqual({ col: 1, row: 0 });
  });

  it('uses the 10x10 board: 1 = b10, 46 = a1, 50 = i1', () => {
    const g = geometry('international');
    expect(g.size).toBe(10);
    expect(squareCell(g, 1, 'white')).toEqual({ col: 1, row: 0 });
    expect(squareCell(g, 46, 'white')).toEqual({ col: 0, row: 9 });
    expect(squareCell(g, 50, 'white')).toEqual({ col: 8, row: 9 });
  });

  it('uses every square of the Turkish board, a1 = 1 at the bottom left', () => {
    const g = geometry('turkish');
    expect(squareCell(g, 1, 'white')).toEqual({ col: 0, row: 7 });
    expect(squareCell(g, 64, 'white')).toEqual({ col: 7, row: 0 });
    expect(squareAtCell(g, 1, 7, 'white')).toBe(2);
  });

  it('keeps the playable squares dark on the mirrored Italian board', () => {
    const g = geometry('italian');
    expect(g.a1Playable).toBe(false);
    for (const s of g.squares) expect(isDarkCell(g, s.file, s.rank)).toBe(true);
    const r = geometry('russian');
    for (const s of r.squares) expect(isDarkCell(r, s.file, s.rank)).toBe(true);
  });

  it('maps a point of the element to a square, and nothing outside', () => {
    const g = geometry('russian');
    expect(squareAtPoint(g, 0.01, 0.99, 'white')).toBe(29);
    expect(squareAtPoint(g, 0.99, 0.01, 'white')).toBe(4);
    expect(squareAtPoint(g, 1.2, 0.5, 'white')).toBeNull();
    expect(squareAtPoint(g, -0.1, 0.5, 'white')).toBeNull();
  });

  it('labels the edges a..h and 1..8, reversed when flipped', () => {
    const g = geometry('russian');
    expect(edgeLabels(g, 'white')).toEqual({ files: [...'abcdefgh'], ranks: ['8', '7', '6', '5', '4', '3', '2', '1'] });
    expect(edgeLabels(g, 'black').files[0]).toBe('h');
    expect(edgeLabels(geometry('international'), 'white').files[9]).toBe('j');
  });

  it('finds the squares between two squares on a line', () => {
    const g = geometry('russian');
    expect(squaresBetween(g, 22, 15)).toEqual([18]); // c3-e5 jumps d4
    expect(squaresBetween(g, 22, 18)).toEqual([]); // neighbours
    expect(squaresBetween(g, 22, 8)).toEqual([18, 15, 11]);
    expect(squaresBetween(g, 22, 12)).toEqual([]); // c3-h6 is not a line
    const t = geometry('turkish');
    expect(squaresBetween(t, 28, 4)).toEqual([20, 12]);
  });

  it('rejects metadata that does not add up', () => {
    const bad = { ...meta('russian'), board: { size: 8, squares: 31 } };
    expect(() => buildGeometry(bad)).toThrow(/32 square coordinates for 31/);
    const twice = { ...meta('russian'), square_coords: [...meta('russian').square_coords.slice(0, 31), { n: 1, file: 1, rank: 7, name: '1' }] };
    expect(() => buildGeometry(twice)).toThrow(/given twice/);
  });
});

import { describe, expect, it } from 'vitest';
import { setPosition, tap } from './board';
import { parseFen } from './fen';
import { cursorStart, ENGLISH_WORDS, moveCursor, squareLabel, squareName } from './keyboard';
import { describe as shapes, labelBox, type LabelShape } from './render';
import { initialState, type HeadlessState, type LegalMove } from './state';
import { geometry, VARIANTS } from './testdata/fixtures';

function stateOf(variant: string, fen: string, moves: LegalMove[] = []): HeadlessState {
  const s = initialState(geometry(variant));
  const capturers = [...new Set(moves.filter((m) => m.captures.length > 0).map((m) => m.path[0] as number))];
  return { ...setPosition(s, parseFen(fen).pieces, moves, capturers, null), movable: 'white' };
}

describe('keyboard cursor', () => {
  it('starts on a movable piece near the bottom left', () => {
    const s = stateOf('russian', 'W:W21-32:B1-12', [{ path: [21, 17], captures: [] }, { path: [24, 20], captures: [] }]);
    expect(cursorStart(s)).toBe(21);
  });
  it('moves along rows and between rows over playable squares only (Russian, White below)', () => {
    const s = stateOf('russian', 'W:W21-32:B1-12');
    // 29 is a1; 30 c1; 25 b2
    expect(moveCursor(s, 29, 'ArrowRight')).toBe(30);
    expect(moveCursor(s, 29, 'ArrowLeft')).toBe(29);
    expect(moveCursor(s, 29, 'ArrowUp')).toBe(25);
    expect(moveCursor(s, 25, 'ArrowDown')).toBe(29);
    expect(moveCursor(s, 30, 'ArrowUp')).toBe(26); // d2 (ties go right going up)
    expect(moveCursor(s, 26, 'ArrowDown')).toBe(30);
    expect(moveCursor(s, 30, 'End')).toBe(32);
    expect(moveCursor(s, 32, 'Home')).toBe(29);
    expect(moveCursor(s, 29, 'ArrowDown')).toBe(29);
  });
  it('follows the orientation: for Black, up is toward White', () => {
    const s = { ...stateOf('russian', 'W:W21-32:B1-12'), orientation: 'black' as const };
    expect(moveCursor(s, 4, 'ArrowUp')).not.toBe(4);
    expect(moveCursor(s, 32, 'ArrowUp')).toBe(32); // 32 (g1) is on the top row for Black
  });
  it('covers every square of every board', () => {
    for (const v of VARIANTS) {
      const s = stateOf(v.key, v.start_fen);
      const seen = new Set<number>();
      let row = moveCursor(s, cursorStart(s), 'Home');
      for (let i = 0; i < v.board.size + 2; i++) {
        let at = moveCursor(s, row, 'Home');
        for (let j = 0; j < v.board.size; j++) {
          seen.add(at);
          at = moveCursor(s, at, 'ArrowRight');
        }
        row = moveCursor(s, row, 'ArrowUp');
      }
      expect(seen.size).toBe(v.board.squares);
    }
  });
});

describe('square labels', () => {
  it('names the square and the piece, and what can be done there', () => {
    const moves = [
      { path: [22, 15, 6], captures: [10, 18] },
      { path: [22, 15, 8], captures: [11, 18] },
    ];
    const s = stateOf('international', 'W:W22,25:B18,11,10', moves);
    expect(squareName(s, 1)).toBe('1, b10');
    expect(squareLabel(s, 22, ENGLISH_WORDS)).toMatch(/^22, [a-j]\d+: white man, must capture$/);
    expect(squareLabel(s, 18, ENGLISH_WORDS)).toMatch(/: black man$/);
    expect(squareLabel(s, 1, ENGLISH_WORDS)).toMatch(/^1, b10: empty$/);
    const chosen = tap(s, 22).state;
    expect(squareLabel(chosen, 22, ENGLISH_WORDS)).toMatch(/white man, selected$/);
    expect(squareLabel(chosen, 15, ENGLISH_WORDS)).toMatch(/empty, capture landing$/);
  });
  it('uses the coordinate alone on algebraic boards', () => {
    const s = stateOf('russian', 'W:W21-32:B1-12');
    expect(squareLabel(s, 29, ENGLISH_WORDS)).toBe('a1: white man');
  });
});

describe('numbers and coordinates never overlap', () => {
  it('keeps every label box apart on every board and in both orientations', () => {
    for (const v of VARIANTS) {
      for (const orientation of ['white', 'black'] as const) {
        const s = { ...stateOf(v.key, v.start_fen), showNumbers: true, showCoords: true, orientation };
        const labels = shapes(s).filter((x): x is LabelShape => x.layer === 'labels');
        expect(labels.length).toBeGreaterThan(v.board.squares);
        const boxes = labels.map(labelBox);
        for (let i = 0; i < boxes.length; i++) {
          const a = boxes[i]!;
          expect(a.x0).toBeGreaterThanOrEqual(0);
          expect(a.x1).toBeLessThanOrEqual(v.board.size * 100);
          for (let j = i + 1; j < boxes.length; j++) {
            const b = boxes[j]!;
            const overlap = a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
            if (overlap) throw new Error(`${v.key} ${orientation}: '${labels[i]!.text}' overlaps '${labels[j]!.text}'`);
          }
        }
      }
    }
  });
});

// Keyboard and screen-reader play, pure: where the cursor goes on an arrow key, and what each
// square is called. The board's DOM grid (grid.ts) uses these; nothing here knows a variant.
//
// The cursor moves over the playable squares as the player sees them: left/right to the next
// playable square of the same row, up/down to the row above/below, on the playable square
// nearest the current column (a tie, on a diagonal board, goes right when moving up and left
// when moving down, so up then down comes back to the same square).

import { candidateMoves, displayPieces, selectableSquares, targetSquares } from './board';
import { FILES, squareCell } from './geometry';
import type { HeadlessState } from './state';

export type CursorKey = 'ArrowUp' | 'ArrowDown' | 'ArrowLeft' | 'ArrowRight' | 'Home' | 'End';
export const CURSOR_KEYS: readonly string[] = ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End'];

interface Placed {
  n: number;
  col: number;
  row: number;
}

function placed(s: HeadlessState): Placed[] {
  return s.geometry.squares.map((q) => ({ n: q.n, ...squareCell(s.geometry, q.n, s.orientation) }));
}

/** Where the cursor starts when the board takes focus: the chosen piece, a movable piece, else the bottom-left square. */
export function cursorStart(s: HeadlessState): number {
  if (s.cursor !== null && s.geometry.byNumber.has(s.cursor)) return s.cursor;
  const chosen = s.partial?.[s.partial.length - 1];
  if (chosen !== undefined) return chosen;
  const all = placed(s);
  const movable = selectableSquares(s);
  const pool = movable.size > 0 ? all.filter((p) => movable.has(p.n)) : all;
  pool.sort((a, b) => b.row - a.row || a.col - b.col);
  return (pool[0] ?? all[0])?.n ?? 1;
}

/** The square the cursor goes to from `from` on `key` (itself at an edge). */
export function moveCursor(s: HeadlessState, from: number, key: CursorKey): number {
  const all = placed(s);
  const here = all.find((p) => p.n === from);
  if (!here) return cursorStart(s);
  const sameRow = all.filter((p) => p.row === here.row).sort((a, b) => a.col - b.col);
  switch (key) {
    case 'Home':
      return sameRow[0]?.n ?? from;
    case 'End':
      return sameRow[sameRow.length - 1]?.n ?? from;
    case 'ArrowLeft':
      return [...sameRow].reverse().find((p) => p.col < here.col)?.n ?? from;
    case 'ArrowRight':
      return sameRow.find((p) => p.col > here.col)?.n ?? from;
    case 'ArrowUp':
    case 'ArrowDown': {
      const dir = key === 'ArrowUp' ? -1 : 1;
      for (let row = here.row + dir; row >= 0 && row < s.geometry.size; row += dir) {
        const line = all.filter((p) => p.row === row);
        if (line.length === 0) continue;
        line.sort((a, b) => {
          const d = Math.abs(a.col - here.col) - Math.abs(b.col - here.col);
          if (d !== 0) return d;
          return key === 'ArrowUp' ? b.col - a.col : a.col - b.col;
        });
        return (line[0] as Placed).n;
      }
      return from;
    }
  }
}

/** The words a square's label is made of, in the player's language. */
export interface SquareWords {
  white: string;
  black: string;
  man: string;
  king: string;
  empty: string;
  selected: string;
  canMove: string;
  mustCapture: string;
  target: string;
  captureTarget: string;
  lastMove: string;
  premove: string;
}

export const ENGLISH_WORDS: SquareWords = {
  white: 'white',
  black: 'black',
  man: 'man',
  king: 'king',
  empty: 'empty',
  selected: 'selected',
  canMove: 'can move',
  mustCapture: 'must capture',
  target: 'move here',
  captureTarget: 'capture landing',
  lastMove: 'last move',
  premove: 'premove',
};

/** The name players say for a square: its number and coordinate on numeric boards ("22, c3"), else the coordinate. */
export function squareName(s: HeadlessState, n: number): string {
  const q = s.geometry.byNumber.get(n);
  if (!q) return String(n);
  const coord = `${FILES[q.file] ?? '?'}${q.rank + 1}`;
  return q.name === coord ? coord : `${q.name}, ${coord}`;
}

/** A square's accessible label: name, piece and what can be done there ("22, c3: white man, can move"). */
export function squareLabel(s: HeadlessState, n: number, w: SquareWords): string {
  const { pieces } = displayPieces(s);
  const p = pieces.get(n);
  const parts: string[] = [p ? `${p.color === 'white' ? w.white : w.black} ${p.king ? w.king : w.man}` : w.empty];
  const selectable = selectableSquares(s);
  if (s.partial && s.partial[s.partial.length - 1] === n) parts.push(w.selected);
  else if (!s.partial && selectable.has(n)) parts.push(s.capturers.includes(n) ? w.mustCapture : w.canMove);
  if (targetSquares(s).has(n)) {
    const capture = candidateMoves(s).some((m) => m.captures.length > 0);
    parts.push(capture ? w.captureTarget : w.target);
  }
  if (s.premove?.includes(n)) parts.push(w.premove);
  if (s.lastMove && s.lastMove[s.lastMove.length - 1] === n) parts.push(w.lastMove);
  return `${squareName(s, n)}: ${parts.join(', ')}`;
}

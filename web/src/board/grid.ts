// The board as an ARIA grid over the drawing: one focusable cell per playable square, in rows as
// the player sees them, each labelled with its name and piece (keyboard.ts). Arrow keys move the
// cursor (a roving tabindex), Enter or Space taps the square under it, Escape lets go of the
// chosen piece. The cells take no pointer events: clicks and drags still go to the SVG.

import { CURSOR_KEYS, cursorStart, moveCursor, squareLabel, type CursorKey, type SquareWords } from './keyboard';
import { squareCell } from './geometry';
import type { HeadlessState } from './state';

export class BoardGrid {
  readonly el: HTMLDivElement;
  private cells = new Map<number, HTMLDivElement>();
  private layout = '';

  constructor(
    host: HTMLElement,
    label: string,
    private readonly get: () => HeadlessState,
    private readonly onCursor: (sq: number) => void,
    private readonly onTap: (sq: number | null) => void,
    private words: SquareWords,
  ) {
    this.el = document.createElement('div');
    this.el.className = 'board-grid';
    this.el.setAttribute('role', 'grid');
    this.el.setAttribute('aria-label', label);
    this.el.addEventListener('keydown', this.key);
    this.el.addEventListener('focusin', this.focusin);
    host.appendChild(this.el);
  }

  setWords(w: SquareWords): void {
    this.words = w;
    this.update(this.get());
  }

  setLabel(label: string): void {
    this.el.setAttribute('aria-label', label);
  }

  /** Rebuild the cells when the board or its orientation changed; refresh every label. */
  update(s: HeadlessState): void {
    const g = s.geometry;
    const layout = `${g.variant}|${g.size}|${s.orientation}`;
    if (layout !== this.layout) this.build(s, layout);
    const cursor = cursorStart(s);
    for (const [n, cell] of this.cells) {
      const label = squareLabel(s, n, this.words);
      if (cell.getAttribute('aria-label') !== label) cell.setAttribute('aria-label', label);
      const tab = n === cursor ? '0' : '-1';
      if (cell.getAttribute('tabindex') !== tab) cell.setAttribute('tabindex', tab);
      cell.setAttribute('aria-selected', String(!!s.partial && s.partial[s.partial.length - 1] === n));
    }
    this.el.setAttribute('aria-readonly', String(s.movable === null && s.premoveSide === null));
  }

  private build(s: HeadlessState, layout: string): void {
    const hadFocus = this.el.contains(document.activeElement);
    this.layout = layout;
    this.cells.clear();
    const g = s.geometry;
    this.el.setAttribute('aria-rowcount', String(g.size));
    this.el.setAttribute('aria-colcount', String(g.size));
    const rows: HTMLDivElement[] = [];
    for (let r = 0; r < g.size; r++) {
      const row = document.createElement('div');
      row.setAttribute('role', 'row');
      row.setAttribute('aria-rowindex', String(r + 1));
      rows.push(row);
    }
    const placed = g.squares.map((q) => ({ n: q.n, ...squareCell(g, q.n, s.orientation) })).sort((a, b) => a.row - b.row || a.col - b.col);
    const size = 100 / g.size;
    for (const p of placed) {
      const cell = document.createElement('div');
      cell.setAttribute('role', 'gridcell');
      cell.setAttribute('aria-colindex', String(p.col + 1));
      cell.dataset['square'] = String(p.n);
      cell.className = 'board-cell';
      cell.style.left = `${p.col * size}%`;
      cell.style.top = `${p.row * size}%`;
      cell.style.width = `${size}%`;
      cell.style.height = `${size}%`;
      rows[p.row]?.appendChild(cell);
      this.cells.set(p.n, cell);
    }
    this.el.replaceChildren(...rows);
    if (hadFocus) this.cells.get(cursorStart(s))?.focus();
  }

  private readonly focusin = (e: FocusEvent): void => {
    const n = Number((e.target as HTMLElement).dataset['square']);
    if (Number.isInteger(n) && n > 0 && n !== this.get().cursor) this.onCursor(n);
  };

  private readonly key = (e: KeyboardEvent): void => {
    const s = this.get();
    const at = cursorStart(s);
    if (CURSOR_KEYS.includes(e.key)) {
      e.preventDefault();
      const next = moveCursor(s, at, e.key as CursorKey);
      this.onCursor(next);
      this.cells.get(next)?.focus();
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      this.onTap(at);
    } else if (e.key === 'Escape') {
      this.onTap(null);
    }
  };

  destroy(): void {
    this.el.removeEventListener('keydown', this.key);
    this.el.removeEventListener('focusin', this.focusin);
    this.el.remove();
  }
}

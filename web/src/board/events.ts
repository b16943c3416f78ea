// Input: taps and drags on the board become square numbers. A tap (mouse click or touch) on a
// square is handed to the pure transition `tap`; pressing on a piece and releasing on another
// square is the same as tapping both (drag and drop), with the piece following the pointer
// meanwhile. The mapping from a point to a square is pure (geometry.squareAtPoint).

import { CELL } from './render';
import { squareAtPoint } from './geometry';
import type { HeadlessState } from './state';

/** The square under a pointer event, or null outside the playable squares. */
export function squareOfEvent(s: HeadlessState, e: { clientX: number; clientY: number }, box: DOMRect): number | null {
  if (box.width <= 0 || box.height <= 0) return null;
  return squareAtPoint(s.geometry, (e.clientX - box.left) / box.width, (e.clientY - box.top) / box.height, s.orientation);
}

/** Pointer travel (CSS px) after which a press becomes a drag. */
const DRAG_THRESHOLD = 6;

interface Drag {
  pointerId: number;
  from: number;
  x0: number;
  y0: number;
  node: SVGGElement | null;
  base: { x: number; y: number };
  moved: boolean;
}

/**
 * Listen for taps and drags on `svg`. `onTap` gets the square (null: outside the squares).
 * Returns the function that removes the listeners.
 */
export function bindTaps(svg: SVGSVGElement, get: () => HeadlessState, onTap: (sq: number | null) => void): () => void {
  let drag: Drag | null = null;

  const reset = (): void => {
    if (drag?.node) {
      drag.node.style.transform = '';
      drag.node.classList.remove('dragging');
    }
    drag = null;
  };

  const down = (e: PointerEvent): void => {
    if (e.button !== 0 || !e.isPrimary) return;
    e.preventDefault();
    reset();
    const sq = squareOfEvent(get(), e, svg.getBoundingClientRect());
    onTap(sq);
    const s = get();
    // a piece was just picked up here: it may be dragged
    if (sq !== null && s.partial && s.partial.length === 1 && s.partial[0] === sq) {
      const node = svg.querySelector<SVGGElement>(`g.piece[data-square="${sq}"]`);
      const m = /translate\(([-\d.]+),\s*([-\d.]+)\)/.exec(node?.getAttribute('transform') ?? '');
      drag = { pointerId: e.pointerId, from: sq, x0: e.clientX, y0: e.clientY, node, base: { x: Number(m?.[1] ?? 0), y: Number(m?.[2] ?? 0) }, moved: false };
      try {
        svg.setPointerCapture(e.pointerId);
      } catch {
        /* not capturable (synthetic events): the drag still works inside the board */
      }
    }
  };

  const move = (e: PointerEvent): void => {
    if (!drag || e.pointerId !== drag.pointerId) return;
    const dx = e.clientX - drag.x0;
    const dy = e.clientY - drag.y0;
    if (!drag.moved && Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
    drag.moved = true;
    // the piece may have been redrawn since it was picked up (its ring goes): follow the new node
    if (!drag.node?.isConnected) {
      drag.node = svg.querySelector<SVGGElement>(`g.piece[data-square="${drag.from}"]`);
    }
    if (!drag.node) return;
    const box = svg.getBoundingClientRect();
    const scale = (get().geometry.size * CELL) / (box.width || 1);
    drag.node.classList.add('dragging');
    drag.node.style.transform = `translate(${drag.base.x + dx * scale}px, ${drag.base.y + dy * scale}px)`;
  };

  const up = (e: PointerEvent): void => {
    if (!drag || e.pointerId !== drag.pointerId) return;
    const d = drag;
    reset();
    if (!d.moved) return;
    const sq = squareOfEvent(get(), e, svg.getBoundingClientRect());
    if (sq !== null && sq !== d.from) onTap(sq);
  };

  const cancel = (): void => reset();

  svg.addEventListener('pointerdown', down);
  svg.addEventListener('pointermove', move);
  svg.addEventListener('pointerup', up);
  svg.addEventListener('pointercancel', cancel);
  return () => {
    svg.removeEventListener('pointerdown', down);
    svg.removeEventListener('pointermove', move);
    svg.removeEventListener('pointerup', up);
    svg.removeEventListener('pointercancel', cancel);
  };
}

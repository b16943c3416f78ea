// Rendering: `describe` turns a HeadlessState into a flat list of shapes (pure, tested without
// a DOM); `SvgRenderer` draws them into an SVG element, diffing by key and batching to
// requestAnimationFrame. The SVG uses 100 units per cell, so it is crisp at any size.
// Colours come from the stylesheet (classes look-classic / look-candy on the board element).

import { cellOf, edgeLabels, isDarkCell, squareCell } from './geometry';
import { candidateMoves, displayPieces, selectableSquares, targetSquares } from './board';
import type { HeadlessState } from './state';

export const CELL = 100;
/** Label font size and the width of one character, in SVG units (style.css .label: 17px, 600). */
export const LABEL_FONT = 17;
export const LABEL_CHAR_WIDTH = 11;

/**
 * The box a label covers (x, y is the text's baseline start), for the check that square numbers
 * and coordinates never overlap.
 */
export function labelBox(l: LabelShape): { x0: number; y0: number; x1: number; y1: number } {
  return { x0: l.x, y0: l.y - LABEL_FONT * 0.8, x1: l.x + LABEL_CHAR_WIDTH * l.text.length, y1: l.y + LABEL_FONT * 0.2 };
}

export type Layer = 'cells' | 'marks' | 'pieces' | 'labels' | 'targets';

export interface CellShape {
  layer: 'cells';
  key: string;
  x: number;
  y: number;
  dark: boolean;
  /** the classic board of an orthogonal variant (Turkish dama): plain wood drawn with lines */
  lined: boolean;
}

/**
 * Whether the board is drawn with lines on plain wood rather than chequered: the classic look of a
 * board whose every square is played on (Turkish dama is played so, on a board that is not
 * chequered); the candy look stays chequered.
 */
export function linedBoard(s: Pick<HeadlessState, 'geometry' | 'look'>): boolean {
  return s.look === 'classic' && s.geometry.allPlayable;
}
export interface MarkShape {
  layer: 'marks';
  key: string;
  x: number;
  y: number;
  /** last: last move; selected: the chosen piece; path: landings chosen so far; premove: the premove's squares */
  mark: 'last' | 'selected' | 'path' | 'premove';
}
export interface PieceShape {
  layer: 'pieces';
  key: string;
  sq: number;
  cx: number;
  cy: number;
  color: 'white' | 'black';
  king: boolean;
  ghost: boolean;
  /** must capture (ringed) */
  must: boolean;
  /** has a legal move now */
  movable: boolean;
}
export interface LabelShape {
  layer: 'labels';
  key: string;
  x: number;
  y: number;
  text: string;
  kind: 'number' | 'file' | 'rank';
  dark: boolean;
}
export interface TargetShape {
  layer: 'targets';
  key: string;
  sq: number;
  cx: number;
  cy: number;
  /** capture: the landing square of a capture step (ring) rather than a quiet move (dot) */
  capture: boolean;
  occupied: boolean;
}
export type Shape = CellShape | MarkShape | PieceShape | LabelShape | TargetShape;

/** Everything the board shows, in drawing order. Pure. */
export function describe(s: HeadlessState): Shape[] {
  const g = s.geometry;
  const out: Shape[] = [];
  const lined = linedBoard(s);
  for (let file = 0; file < g.size; file++) {
    for (let rank = 0; rank < g.size; rank++) {
      const { col, row } = cellOf(g, file, rank, s.orientation);
      out.push({
        layer: 'cells',
        key: `c${col}_${row}`,
        x: col * CELL,
        y: row * CELL,
        dark: !lined && isDarkCell(g, file, rank),
        lined,
      });
    }
  }
  const pos = (n: number): { x: number; y: number; cx: number; cy: number } => {
    const { col, row } = squareCell(g, n, s.orientation);
    return { x: col * CELL, y: row * CELL, cx: col * CELL + CELL / 2, cy: row * CELL + CELL / 2 };
  };
  if (s.lastMove) {
    const seen = new Set<number>();
    for (const n of s.lastMove) {
      if (seen.has(n) || !g.byNumber.has(n)) continue;
      seen.add(n);
      out.push({ layer: 'marks', key: `l${n}`, ...pos(n), mark: 'last' });
    }
  }
  if (s.premove) {
    for (const n of s.premove) {
      if (g.byNumber.has(n)) out.push({ layer: 'marks', key: `m${n}`, ...pos(n), mark: 'premove' });
    }
  }
  if (s.partial) {
    const from = s.partial[0] as number;
    out.push({ layer: 'marks', key: `s${from}`, ...pos(from), mark: 'selected' });
    for (const n of s.partial.slice(1)) {
      out.push({ layer: 'marks', key: `p${n}`, ...pos(n), mark: 'path' });
    }
  }
  const { pieces, ghosts } = displayPieces(s);
  const capturers = new Set(s.partial ? [] : s.capturers);
  const selectable = selectableSquares(s);
  const numbers = [...pieces.keys()].sort((a, b) => a - b);
  for (const n of numbers) {
    const p = pieces.get(n);
    if (!p || !g.byNumber.has(n)) continue;
    const { cx, cy } = pos(n);
    out.push({
      layer: 'pieces',
      key: `q${n}`,
      sq: n,
      cx,
      cy,
      color: p.color,
      king: p.king,
      ghost: ghosts.has(n),
      must: capturers.has(n) && selectable.has(n),
      movable: selectable.has(n),
    });
  }
  if (s.showNumbers) {
    for (const sq of g.squares) {
      const { x, y } = pos(sq.n);
      out.push({
        layer: 'labels',
        key: `n${sq.n}`,
        x: x + 6,
        y: y + 22,
        text: String(sq.n),
        kind: 'number',
        dark: !lined && isDarkCell(g, sq.file, sq.rank),
      });
    }
  }
  if (s.showCoords) {
    const { files, ranks } = edgeLabels(g, s.orientation);
    const last = (g.size - 1) * CELL;
    files.forEach((f, col) => {
      const file = s.orientation === 'white' ? col : g.size - 1 - col;
      const rank = s.orientation === 'white' ? 0 : g.size - 1;
      out.push({
        layer: 'labels',
        key: `f${col}`,
        x: col * CELL + CELL - 6 - LABEL_CHAR_WIDTH * f.length,
        y: last + CELL - 6,
        text: f,
        kind: 'file',
        dark: !lined && isDarkCell(g, file, rank),
      });
    });
    ranks.forEach((r, row) => {
      const file = s.orientation === 'white' ? 0 : g.size - 1;
      const rank = s.orientation === 'white' ? g.size - 1 - row : row;
      out.push({
        layer: 'labels',
        key: `r${row}`,
        x: 5,
        y: row * CELL + CELL - 6,
        text: r,
        kind: 'rank',
        dark: !lined && isDarkCell(g, file, rank),
      });
    });
  }
  const captureStep = s.partial
    ? new Set(
        candidateMoves(s)
          .filter((m) => m.captures.length > 0)
          .flatMap((m) => m.path.slice(1)),
      )
    : new Set<number>();
  for (const n of [...targetSquares(s)].sort((a, b) => a - b)) {
    const { cx, cy } = pos(n);
    out.push({
      layer: 'targets',
      key: `t${n}`,
      sq: n,
      cx,
      cy,
      capture: captureStep.has(n),
      occupied: pieces.has(n),
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// DOM side

const SVG_NS = 'http://www.w3.org/2000/svg';

function el(name: string, attrs: Record<string, string | number>): SVGElement {
  const e = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/** A crown drawn in a 100-unit cell, centred on (0,0). */
const CROWN = 'M-18,8 L-22,-12 L-10,-2 L0,-18 L10,-2 L22,-12 L18,8 Z';

function pieceElement(p: PieceShape): SVGElement {
  const g = el('g', {
    class: `piece ${p.color}${p.king ? ' king' : ''}${p.ghost ? ' ghost' : ''}${p.must ? ' must' : ''}${p.movable ? ' movable' : ''}`,
    transform: `translate(${p.cx},${p.cy})`,
    'data-square': p.sq,
    'data-color': p.color,
    'data-king': p.king ? '1' : '0',
  });
  if (p.must) g.appendChild(el('circle', { class: 'must-ring', r: 45 }));
  g.appendChild(el('circle', { class: 'shadow', r: 40, cx: 2, cy: 4 }));
  g.appendChild(el('circle', { class: 'body', r: 40 }));
  g.appendChild(el('circle', { class: 'rim', r: 30 }));
  g.appendChild(el('path', { class: 'swirl', d: 'M-26,-8 Q0,-34 26,-8 M-26,8 Q0,34 26,8' }));
  g.appendChild(el('ellipse', { class: 'shine', cx: -12, cy: -16, rx: 14, ry: 7 }));
  if (p.king) g.appendChild(el('path', { class: 'crown', d: CROWN }));
  return g;
}

function shapeElement(s: Shape): SVGElement {
  switch (s.layer) {
    case 'cells':
      return el('rect', {
        class: s.lined ? 'cell lined' : s.dark ? 'cell dark' : 'cell light',
        x: s.x,
        y: s.y,
        width: CELL,
        height: CELL,
      });
    case 'marks':
      return el('rect', { class: `mark ${s.mark}`, x: s.x, y: s.y, width: CELL, height: CELL });
    case 'pieces':
      return pieceElement(s);
    case 'labels': {
      const t = el('text', {
        class: `label ${s.kind} ${s.dark ? 'on-dark' : 'on-light'}`,
        x: s.x,
        y: s.y,
      });
      t.textContent = s.text;
      return t;
    }
    case 'targets':
      return el('circle', {
        class: `target${s.capture ? ' capture' : ''}${s.occupied ? ' occupied' : ''}`,
        cx: s.cx,
        cy: s.cy,
        r: s.occupied ? 44 : s.capture ? 24 : 16,
        'data-target': s.sq,
      });
  }
}

const LAYERS: Layer[] = ['cells', 'marks', 'pieces', 'labels', 'targets'];

/** Milliseconds per step of a move's slide. */
export const MOVE_STEP_MS = 260;

function reducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** Draws shapes into an <svg>, keeping unchanged elements (keyed diff). */
export class SvgRenderer {
  readonly svg: SVGSVGElement;
  private readonly groups = new Map<Layer, SVGGElement>();
  private readonly current = new Map<string, { sig: string; node: SVGElement }>();
  private frame = 0;
  private size = 0;
  private shownMove: string | null = null;

  constructor(host: HTMLElement) {
    this.svg = document.createElementNS(SVG_NS, 'svg') as SVGSVGElement;
    this.svg.setAttribute('class', 'board-svg');
    this.svg.setAttribute('role', 'img');
    for (const l of LAYERS) {
      const g = el('g', { class: `layer-${l}` }) as SVGGElement;
      this.groups.set(l, g);
      this.svg.appendChild(g);
    }
    host.appendChild(this.svg);
  }

  /** Draw on the next animation frame (several calls in one frame draw once). */
  schedule(get: () => HeadlessState): void {
    if (this.frame) return;
    const raf =
      typeof requestAnimationFrame === 'function'
        ? requestAnimationFrame
        : (f: FrameRequestCallback) => setTimeout(() => f(0), 0) as unknown as number;
    this.frame = raf(() => {
      this.frame = 0;
      this.draw(get());
    });
  }

  draw(s: HeadlessState): void {
    const size = s.geometry.size;
    if (size !== this.size) {
      this.size = size;
      this.svg.setAttribute('viewBox', `0 0 ${size * CELL} ${size * CELL}`);
    }
    const shapes = describe(s);
    const seen = new Set<string>();
    const order = new Map<Layer, SVGElement[]>();
    for (const shape of shapes) {
      const id = `${shape.layer}:${shape.key}`;
      seen.add(id);
      const sig = JSON.stringify(shape);
      let entry = this.current.get(id);
      if (!entry || entry.sig !== sig) {
        const node = shapeElement(shape);
        if (entry) entry.node.replaceWith(node);
        entry = { sig, node };
        this.current.set(id, entry);
      }
      const list = order.get(shape.layer) ?? [];
      list.push(entry.node);
      order.set(shape.layer, list);
    }
    const animating = this.isNewMove(s);
    for (const [id, entry] of this.current) {
      if (!seen.has(id)) {
        // a piece taken by the move that now animates fades out while the capturer passes
        if (animating && id.startsWith('pieces:')) this.fadeOut(entry.node, this.moveDuration(s));
        else entry.node.remove();
        this.current.delete(id);
      }
    }
    this.animateLastMove(s);
    for (const l of LAYERS) {
      const g = this.groups.get(l) as SVGGElement;
      const nodes = order.get(l) ?? [];
      // append in order; appendChild moves nodes already in place cheaply
      nodes.forEach((n, i) => {
        if (g.childNodes[i] !== n) g.insertBefore(n, g.childNodes[i] ?? null);
      });
    }
  }

  /** A new last move that was not played on this board (the opponent's, or the computer's). */
  private isNewMove(s: HeadlessState): boolean {
    const key = s.lastMove ? s.lastMove.join('-') : '';
    return this.shownMove !== null && key !== this.shownMove && !!s.lastMove && !s.pending && !s.partial && !reducedMotion();
  }

  /** How long a move's slide takes: 260 ms per step, so a reply is easy to follow. */
  private moveDuration(s: HeadlessState): number {
    return MOVE_STEP_MS * Math.max(1, (s.lastMove?.length ?? 2) - 1) + 120;
  }

  private fadeOut(node: SVGElement, ms: number): void {
    const group = this.groups.get('pieces');
    if (!group || typeof node.animate !== 'function') {
      node.remove();
      return;
    }
    // a fading piece is no longer on its square: what asks for the pieces on the board
    // (the tests, the game's own queries) sees only the position, not the ghost
    node.classList.add('taken');
    const sq = node.getAttribute('data-square');
    node.removeAttribute('data-square');
    node.removeAttribute('data-color');
    if (sq !== null) node.setAttribute('data-taken', sq);
    group.appendChild(node);
    const a = node.animate([{ opacity: 1 }, { opacity: 1, offset: 0.4 }, { opacity: 0 }], { duration: ms, easing: 'ease-in' });
    a.onfinish = () => node.remove();
  }

  /**
   * Slide the piece of a new last move along its path (the opponent's moves: the player's own
   * move is already shown where they put it). The first drawing of a position never animates.
   */
  private animateLastMove(s: HeadlessState): void {
    const animate = this.isNewMove(s);
    this.shownMove = s.lastMove ? s.lastMove.join('-') : '';
    if (!animate || !s.lastMove) return;
    const to = s.lastMove[s.lastMove.length - 1];
    if (to === undefined) return;
    const node = this.current.get(`pieces:q${to}`)?.node;
    if (!node || typeof node.animate !== 'function') return;
    const frames = s.lastMove
      .filter((n) => s.geometry.byNumber.has(n))
      .map((n) => {
        const { col, row } = squareCell(s.geometry, n, s.orientation);
        return { transform: `translate(${col * CELL + CELL / 2}px, ${row * CELL + CELL / 2}px)` };
      });
    if (frames.length < 2) return;
    this.svg.dataset['animating'] = '1';
    const a = node.animate(frames, { duration: this.moveDuration(s), easing: 'ease-in-out' });
    a.onfinish = () => delete this.svg.dataset['animating'];
  }

  destroy(): void {
    if (this.frame && typeof cancelAnimationFrame === 'function') cancelAnimationFrame(this.frame);
    this.svg.remove();
  }
}

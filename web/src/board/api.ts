// The board's public interface. The host gives it variant geometry, pieces and the legal moves
// from the server through explicit setters (each replaces what it sets; nothing is merged), and
// hears about completed moves through `onMove`. The internal state is never handed out for
// writing: `state()` returns a read-only snapshot.

import { setPosition, tap } from './board';
import { bindTaps } from './events';
import type { Geometry, Color } from './geometry';
import type { Pieces } from './fen';
import { SvgRenderer } from './render';
import { initialState, type HeadlessState, type LegalMove, type Look } from './state';

export interface BoardApi {
  /** a new variant board; clears pieces, moves and selection */
  setGeometry(g: Geometry): void;
  /** the position and what may be played in it (from the server's state) */
  setPosition(pieces: Pieces, legalMoves: LegalMove[], capturers: number[], lastMove: number[] | null): void;
  /** the side whose pieces the user may move, or null */
  setMovable(side: Color | null): void;
  setOrientation(side: Color): void;
  setLook(look: Look): void;
  setShowNumbers(on: boolean): void;
  setShowCoords(on: boolean): void;
  /** the server refused the move: forget the shown move and wait for the position */
  cancelPending(): void;
  state(): Readonly<HeadlessState>;
  destroy(): void;
}

export interface BoardOptions {
  geometry: Geometry;
  /** accessible name of the board (e.g. the variant) */
  label?: string;
  /** called with a completed legal move (full path) */
  onMove: (move: LegalMove) => void;
  /** called with every tapped square (null: outside the squares), after the move logic (the position editor) */
  onSquare?: (sq: number | null) => void;
}

export function createBoard(host: HTMLElement, opts: BoardOptions): BoardApi {
  let s: HeadlessState = initialState(opts.geometry);
  let confirmed: HeadlessState = s; // the last state set by the host (before any local move)
  host.classList.add('board', `look-${s.look}`);
  const renderer = new SvgRenderer(host);
  if (opts.label) renderer.svg.setAttribute('aria-label', opts.label);
  const redraw = (): void => {
    host.className = host.className.replace(/\blook-\w+/g, '').trim() + ` look-${s.look}`;
    host.dataset['partial'] = s.partial ? s.partial.join('-') : '';
    host.dataset['pending'] = s.pending ? '1' : '0';
    host.dataset['movable'] = s.movable ?? '';
    host.dataset['orientation'] = s.orientation;
    renderer.schedule(() => s);
  };
  const update = (next: HeadlessState, fromHost: boolean): void => {
    s = next;
    if (fromHost) confirmed = next;
    redraw();
  };
  const unbind = bindTaps(renderer.svg, () => s, (sq) => {
    const r = tap(s, sq);
    update(r.state, false);
    if (r.move) opts.onMove(r.move);
    opts.onSquare?.(sq);
  });
  renderer.draw(s);
  return {
    setGeometry: (g) => update({ ...initialState(g), orientation: s.orientation, look: s.look, showNumbers: s.showNumbers, showCoords: s.showCoords }, true),
    setPosition: (pieces, legal, capturers, last) => update(setPosition(s, pieces, legal, capturers, last), true),
    setMovable: (side) => update({ ...s, movable: side, partial: side === s.movable ? s.partial : null }, true),
    setOrientation: (side) => update({ ...s, orientation: side }, true),
    setLook: (look) => update({ ...s, look }, true),
    setShowNumbers: (on) => update({ ...s, showNumbers: on }, true),
    setShowCoords: (on) => update({ ...s, showCoords: on }, true),
    cancelPending: () => update({ ...confirmed, orientation: s.orientation, look: s.look, showNumbers: s.showNumbers, showCoords: s.showCoords, partial: null, pending: false }, true),
    state: () => Object.freeze({ ...s }),
    destroy: () => {
      unbind();
      renderer.destroy();
    },
  };
}

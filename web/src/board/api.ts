// The board's public interface. The host gives it variant geometry, pieces and the legal moves
// from the server through explicit setters (each replaces what it sets; nothing is merged), and
// hears about completed moves through `onMove`. The internal state is never handed out for
// writing: `state()` returns a read-only snapshot.

import { playMove, setPosition, tap } from './board';
import { bindTaps } from './events';
import { BoardGrid } from './grid';
import { ENGLISH_WORDS, type SquareWords } from './keyboard';
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
  /** fewer clicks: play the only move of a tapped piece, or the only capture ending on a tapped square */
  setAutoPlay(on: boolean): void;
  /** the side that may choose a premove (opponent to move in a clocked game), or null */
  setPremovable(side: Color | null): void;
  /** show a move the host sends itself (a premove) as played, pending the server's answer */
  play(move: LegalMove): void;
  /** forget the premove (it was sent, or no longer fits) */
  clearPremove(): void;
  /** the words of the squares' accessible labels, in the player's language */
  setWords(words: SquareWords): void;
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
  /** a tap on a square with no piece chosen that did nothing (a piece that cannot move, ...) */
  onRefused?: (sq: number) => void;
  /** the premove changed ([from] being chosen, [from, to] set, or null) */
  onPremove?: (premove: number[] | null) => void;
  /** the words of the squares' accessible labels (default English) */
  words?: SquareWords;
  /** called with every tapped square (null: outside the squares), after the move logic (the position editor) */
  onSquare?: (sq: number | null) => void;
}

export function createBoard(host: HTMLElement, opts: BoardOptions): BoardApi {
  let s: HeadlessState = initialState(opts.geometry);
  let confirmed: HeadlessState = s; // the last state set by the host (before any local move)
  host.classList.add('board', `look-${s.look}`);
  const renderer = new SvgRenderer(host);
  let grid: BoardGrid | null = null;
  const redraw = (): void => {
    host.className = host.className.replace(/\blook-\w+/g, '').trim() + ` look-${s.look}`;
    host.dataset['partial'] = s.partial ? s.partial.join('-') : '';
    host.dataset['pending'] = s.pending ? '1' : '0';
    host.dataset['movable'] = s.movable ?? '';
    host.dataset['orientation'] = s.orientation;
    host.dataset['premove'] = s.premove ? s.premove.join('-') : '';
    renderer.schedule(() => s);
    grid?.update(s);
  };
  const update = (next: HeadlessState, fromHost: boolean): void => {
    s = next;
    if (fromHost) confirmed = next;
    redraw();
  };
  const onTap = (sq: number | null): void => {
    const before = s;
    const r = tap(s, sq);
    update({ ...r.state, cursor: sq ?? r.state.cursor }, false);
    if (r.move) opts.onMove(r.move);
    if (r.state.premove !== before.premove) opts.onPremove?.(r.state.premove);
    if (sq !== null && !r.move && r.state === before && !before.partial) opts.onRefused?.(sq);
    opts.onSquare?.(sq);
  };
  const unbind = bindTaps(renderer.svg, () => s, onTap);
  renderer.svg.setAttribute('aria-hidden', 'true');
  renderer.svg.removeAttribute('role');
  grid = new BoardGrid(host, opts.label ?? '', () => s, (sq) => update({ ...s, cursor: sq }, false), onTap, opts.words ?? ENGLISH_WORDS);
  renderer.draw(s);
  grid.update(s);
  return {
    setGeometry: (g) => update({ ...initialState(g), orientation: s.orientation, look: s.look, showNumbers: s.showNumbers, showCoords: s.showCoords, autoPlay: s.autoPlay }, true),
    setPosition: (pieces, legal, capturers, last) => update(setPosition(s, pieces, legal, capturers, last), true),
    setMovable: (side) => update({ ...s, movable: side, partial: side === s.movable ? s.partial : null }, true),
    setOrientation: (side) => update({ ...s, orientation: side }, true),
    setLook: (look) => update({ ...s, look }, true),
    setShowNumbers: (on) => update({ ...s, showNumbers: on }, true),
    setShowCoords: (on) => update({ ...s, showCoords: on }, true),
    setAutoPlay: (on) => update({ ...s, autoPlay: on }, true),
    setPremovable: (side) => update({ ...s, premoveSide: side, premove: side ? s.premove : null }, true),
    clearPremove: () => update({ ...s, premove: null }, true),
    play: (move) => update(playMove({ ...s, premove: null }, move), false),
    setWords: (w) => grid?.setWords(w),
    cancelPending: () =>
      update({ ...confirmed, orientation: s.orientation, look: s.look, showNumbers: s.showNumbers, showCoords: s.showCoords, autoPlay: s.autoPlay, premoveSide: s.premoveSide, premove: s.premove, cursor: s.cursor, partial: null, pending: false }, true),
    state: () => Object.freeze({ ...s }),
    destroy: () => {
      unbind();
      grid?.destroy();
      renderer.destroy();
    },
  };
}

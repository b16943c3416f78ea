// HeadlessState: everything the board shows, as plain data with no DOM, so the
// transitions and the drawing are tested without a browser.
// The host (the game view) fills it through the api's explicit setters; board.ts holds the
// pure transitions that a tap makes; render.ts turns it into SVG.
//
// Invariants:
// - `legalMoves` are exactly what the server sent: full landing paths (from, landings...) and
//   the captured squares. The board never computes a move of its own.
// - `partial`, when set, is a prefix of the path of at least one legal move of `movable`.

import type { Color, Geometry } from './geometry';
import type { Pieces } from './fen';

export interface LegalMove {
  /** from, then every landing square; a move of one step has two squares */
  path: number[];
  captures: number[];
  text?: string;
}

export type Look = 'classic' | 'candy';

export interface HeadlessState {
  geometry: Geometry;
  orientation: Color;
  pieces: Pieces;
  /** the side whose pieces the user may move now, or null (not your turn, game over, viewing) */
  movable: Color | null;
  legalMoves: LegalMove[];
  /** pieces that must capture (ringed) */
  capturers: number[];
  /** the path of the last move played, for the highlight */
  lastMove: number[] | null;
  /** the chosen piece and the landings chosen so far: [from, landing1, ...] */
  partial: number[] | null;
  showNumbers: boolean;
  showCoords: boolean;
  look: Look;
  /** true while a completed move waits for the server's answer */
  pending: boolean;
  /**
   * Fewer clicks: a tap on a piece with one legal move plays it, and a tap on the square where
   * exactly one capture route ends (no piece chosen) plays that capture.
   */
  autoPlay: boolean;
  /** the side that may choose a premove now (not its turn, clocked game), or null */
  premoveSide: Color | null;
  /** the premove: [from] while its target is chosen, [from, to] once set; an intent only */
  premove: number[] | null;
  /** the keyboard cursor (a square number), or null before the board is focused */
  cursor: number | null;
}

export function initialState(geometry: Geometry, pieces: Pieces = new Map()): HeadlessState {
  return {
    geometry,
    orientation: 'white',
    pieces,
    movable: null,
    legalMoves: [],
    capturers: [],
    lastMove: null,
    partial: null,
    showNumbers: false,
    showCoords: false,
    look: 'classic',
    pending: false,
    autoPlay: false,
    premoveSide: null,
    premove: null,
    cursor: null,
  };
}

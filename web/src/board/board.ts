// Pure transitions of the board: what a tap on a square does to the HeadlessState.
//
// The board only follows the legal moves the server sent (full landing paths). A tap on a
// piece that has a legal move selects it; a tap on a marked square takes one step along the
// paths; when the steps taken identify one legal move, the move is complete and returned for
// the host to send. In a multi-capture the board stops at each landing square where the
// player still has a choice. Every function returns a new state and never mutates its input.

import { squaresBetween } from './geometry';
import type { Pieces } from './fen';
import type { HeadlessState, LegalMove } from './state';

const samePath = (a: readonly number[], b: readonly number[]): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i]);

const startsWith = (path: readonly number[], prefix: readonly number[]): boolean =>
  prefix.length <= path.length && prefix.every((x, i) => x === path[i]);

/** The legal moves the user may make now (those of the movable side's pieces). */
export function playableMoves(s: HeadlessState): LegalMove[] {
  if (s.movable === null || s.pending) return [];
  return s.legalMoves.filter((m) => {
    const from = m.path[0];
    return from !== undefined && m.path.length >= 2 && s.pieces.get(from)?.color === s.movable;
  });
}

/** Squares of the pieces that have a legal move now. */
export function selectableSquares(s: HeadlessState): Set<number> {
  return new Set(playableMoves(s).map((m) => m.path[0] as number));
}

/** The legal moves consistent with the steps chosen so far. */
export function candidateMoves(s: HeadlessState): LegalMove[] {
  const partial = s.partial;
  if (!partial) return [];
  return playableMoves(s).filter((m) => startsWith(m.path, partial));
}

/**
 * The squares to mark: the next landing square of every candidate move, and, when a
 * candidate ends where the piece stands and others go on, that square itself ("stop here").
 */
export function targetSquares(s: HeadlessState): Set<number> {
  const out = new Set<number>();
  const partial = s.partial;
  if (!partial) return out;
  for (const m of candidateMoves(s)) {
    const next = m.path[partial.length];
    if (next !== undefined) out.add(next);
    else if (partial.length > 1) out.add(partial[partial.length - 1] as number);
  }
  return out;
}

export interface TapResult {
  state: HeadlessState;
  /** set when the tap completed a legal move: send it to the server */
  move?: LegalMove;
}

/** Show a move the host plays itself (a premove sent when the turn came), as a tap would. */
export function playMove(s: HeadlessState, move: LegalMove): HeadlessState {
  return complete(s, move).state;
}

function complete(s: HeadlessState, move: LegalMove): TapResult {
  return {
    state: { ...s, partial: null, pending: true, pieces: applyMove(s.pieces, move), lastMove: [...move.path] },
    move,
  };
}

/** After choosing `prefix`, decide: completed move, or stop for the next choice. */
function step(s: HeadlessState, prefix: number[]): TapResult {
  const remaining = playableMoves(s).filter((m) => startsWith(m.path, prefix));
  const first = remaining[0];
  if (!first) return { state: { ...s, partial: null } };
  const allSame = remaining.every((m) => samePath(m.path, first.path));
  if (allSame) return complete(s, first); // nothing left to choose
  return { state: { ...s, partial: prefix } };
}

/** The one move a tap with nothing chosen plays when auto-play is on, if there is one. */
export function autoMove(s: HeadlessState, sq: number): LegalMove | null {
  if (!s.autoPlay) return null;
  const moves = playableMoves(s);
  const unique = (list: LegalMove[]): LegalMove | null => {
    const first = list[0];
    return first && list.every((m) => samePath(m.path, first.path)) ? first : null;
  };
  if (selectableSquares(s).has(sq)) return unique(moves.filter((m) => m.path[0] === sq));
  // the landing square of a capture route, tapped without choosing the piece first
  return unique(moves.filter((m) => m.captures.length > 0 && m.path[m.path.length - 1] === sq && m.path[0] !== sq));
}

/** What a tap (click or touch) on square `sq` does. `sq` null: a tap outside the squares. */
export function tap(s: HeadlessState, sq: number | null): TapResult {
  if (s.movable === null && s.premoveSide !== null && !s.pending) return { state: premoveTap(s, sq) };
  if (s.movable === null || s.pending) return { state: s.partial ? { ...s, partial: null } : s };
  const partial = s.partial;
  if (sq === null) return { state: { ...s, partial: null } };
  if (!partial) {
    const auto = autoMove(s, sq);
    if (auto) return complete(s, auto);
    return selectableSquares(s).has(sq) ? { state: { ...s, partial: [sq] } } : { state: s };
  }
  const here = partial[partial.length - 1] as number;
  const cands = candidateMoves(s);
  if (partial.length === 1 && sq === here) return { state: { ...s, partial: null } };
  if (cands.some((m) => m.path[partial.length] === sq)) return step(s, [...partial, sq]);
  if (partial.length > 1 && sq === here) {
    const ending = cands.find((m) => m.path.length === partial.length);
    if (ending) return complete(s, ending);
  }
  // A tap straight on the final square of exactly one candidate plays it.
  const byEnd = cands.filter((m) => m.path[m.path.length - 1] === sq);
  const only = byEnd[0];
  if (only && byEnd.every((m) => samePath(m.path, only.path))) return complete(s, only);
  if (partial.length === 1 && selectableSquares(s).has(sq)) return { state: { ...s, partial: [sq] } };
  return { state: { ...s, partial: null } };
}

/**
 * The pieces moved by a legal move: the piece goes from the first to the last square of the
 * path and the captured pieces leave. Used to show a move at once while the server's answer
 * is on its way (the server's position replaces it; crowning is left to the server).
 */
export function applyMove(pieces: Pieces, move: LegalMove): Pieces {
  const out = new Map(pieces);
  const from = move.path[0];
  const to = move.path[move.path.length - 1];
  if (from === undefined || to === undefined) return out;
  const piece = out.get(from);
  for (const c of move.captures) out.delete(c);
  out.delete(from);
  if (piece) out.set(to, piece);
  return out;
}

export interface DisplayPieces {
  pieces: Pieces;
  /** pieces already jumped in the capture being chosen (drawn faded) */
  ghosts: Set<number>;
}

/** The pieces as shown: during a multi-capture the piece stands on its last landing square. */
export function displayPieces(s: HeadlessState): DisplayPieces {
  const ghosts = new Set<number>();
  const partial = s.partial;
  if (!partial || partial.length < 2) return { pieces: s.pieces, ghosts };
  const from = partial[0] as number;
  const here = partial[partial.length - 1] as number;
  const captures = new Set<number>();
  for (const m of candidateMoves(s)) for (const c of m.captures) captures.add(c);
  for (let i = 0; i + 1 < partial.length; i++) {
    for (const sq of squaresBetween(s.geometry, partial[i] as number, partial[i + 1] as number)) {
      if (captures.has(sq)) ghosts.add(sq);
    }
  }
  const pieces = new Map(s.pieces);
  const piece = pieces.get(from);
  pieces.delete(from);
  if (piece) pieces.set(here, piece);
  return { pieces, ghosts };
}

/** Replace the position and the legal moves (a new state from the server). */
export function setPosition(
  s: HeadlessState,
  pieces: Pieces,
  legalMoves: LegalMove[],
  capturers: number[],
  lastMove: number[] | null,
): HeadlessState {
  return { ...s, pieces, legalMoves, capturers, lastMove, partial: null, pending: false };
}

/**
 * A tap while the opponent is to move in a clocked game: choose a premove (one of the side's
 * pieces, then any other playable square). It is an intent only: the host sends it when the
 * turn comes, if exactly one legal move then goes from its first to its second square, and the
 * server checks it. A tap on the chosen piece, outside the board, or on anything once a premove
 * is set cancels it.
 */
export function premoveTap(s: HeadlessState, sq: number | null): HeadlessState {
  const side = s.premoveSide;
  const pm = s.premove;
  if (side === null || sq === null) return pm ? { ...s, premove: null } : s;
  const own = s.pieces.get(sq)?.color === side;
  if (!pm || pm.length === 2) {
    if (pm && pm.length === 2) return { ...s, premove: own && sq !== pm[0] ? [sq] : null };
    return own ? { ...s, premove: [sq] } : s;
  }
  const from = pm[0] as number;
  if (sq === from) return { ...s, premove: null };
  if (own) return { ...s, premove: [sq] };
  return s.geometry.byNumber.has(sq) ? { ...s, premove: [from, sq] } : s;
}

/** The legal move a premove [from, to] stands for now: the only one from `from` ending on `to`. */
export function premoveMatch(legal: readonly LegalMove[], premove: readonly number[] | null): LegalMove | null {
  if (!premove || premove.length !== 2) return null;
  const [from, to] = premove;
  const list = legal.filter((m) => m.path[0] === from && m.path[m.path.length - 1] === to);
  const first = list[0];
  return first && list.every((m) => samePath(m.path, first.path)) ? first : null;
}

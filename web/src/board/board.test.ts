import { describe, expect, it } from 'vitest';
import { applyMove, candidateMoves, displayPieces, selectableSquares, setPosition, tap, targetSquares } from './board';
import { parseFen } from './fen';
import { initialState, type HeadlessState, type LegalMove } from './state';
import { geometry } from './testdata/fixtures';

/** A state as the game view sets it from a server state: `moves` as `papan moves --json` prints. */
function stateOf(variant: string, fen: string, moves: LegalMove[], movable: 'white' | 'black' | null = 'white'): HeadlessState {
  const s = initialState(geometry(variant));
  const capturers = [...new Set(moves.filter((m) => m.captures.length > 0).map((m) => m.path[0] as number))];
  return { ...setPosition(s, parseFen(fen).pieces, moves, capturers, null), movable };
}

const RUSSIAN_START: LegalMove[] = [
  { path: [21, 17], captures: [] },
  { path: [22, 17], captures: [] },
  { path: [22, 18], captures: [] },
  { path: [23, 18], captures: [] },
  { path: [23, 19], captures: [] },
  { path: [24, 19], captures: [] },
  { path: [24, 20], captures: [] },
];

// W:W32:B27,28,18,19,9,10 (Russian): three captures sharing the first landing 23
const BRANCHING: LegalMove[] = [
  { path: [32, 23, 14, 5], captures: [9, 18, 27], text: 'g1:a7' },
  { path: [32, 23, 14, 7], captures: [10, 18, 27], text: 'g1:e7' },
  { path: [32, 23, 16], captures: [19, 27], text: 'g1:g5' },
];

describe('tap a piece, then a marked square', () => {
  it('selects only pieces with a legal move and marks their targets', () => {
    const s = stateOf('russian', 'W:W21-32:B1-12', RUSSIAN_START);
    expect([...selectableSquares(s)].sort()).toEqual([21, 22, 23, 24]);
    expect(tap(s, 25).state.partial).toBeNull(); // blocked piece
    expect(tap(s, 9).state.partial).toBeNull(); // opponent's piece
    const a = tap(s, 22).state;
    expect(a.partial).toEqual([22]);
    expect([...targetSquares(a)].sort()).toEqual([17, 18]);
  });

  it('plays a one-step move on the second tap and shows it at once', () => {
    const s = tap(stateOf('russian', 'W:W21-32:B1-12', RUSSIAN_START), 22).state;
    const r = tap(s, 18);
    expect(r.move?.path).toEqual([22, 18]);
    expect(r.state.pending).toBe(true);
    expect(r.state.partial).toBeNull();
    expect(r.state.pieces.has(22)).toBe(false);
    expect(r.state.pieces.get(18)?.color).toBe('white');
    expect(r.state.lastMove).toEqual([22, 18]);
    // while pending nothing else can be played
    expect(tap(r.state, 23).state.partial).toBeNull();
  });

  it('switches to another piece, deselects on a second tap, ignores unmarked squares', () => {
    let s = tap(stateOf('russian', 'W:W21-32:B1-12', RUSSIAN_START), 22).state;
    s = tap(s, 23).state;
    expect(s.partial).toEqual([23]);
    expect(tap(s, 23).state.partial).toBeNull();
    const r = tap(s, 14);
    expect(r.move).toBeUndefined();
    expect(r.state.partial).toBeNull();
  });

  it('does nothing when it is not the user\'s turn', () => {
    const s = stateOf('russian', 'W:W21-32:B1-12', RUSSIAN_START, null);
    expect(tap(s, 22).state.partial).toBeNull();
    expect(selectableSquares(s).size).toBe(0);
    const b = stateOf('russian', 'W:W21-32:B1-12', RUSSIAN_START, 'black');
    expect(selectableSquares(b).size).toBe(0);
  });
});

describe('multi-capture: the board stops at each landing square with a choice', () => {
  it('stops at the first landing, then at the second, then plays the chosen route', () => {
    let s = stateOf('russian', 'W:W32:B27,28,18,19,9,10', BRANCHING);
    expect(s.capturers).toEqual([32]);
    s = tap(s, 32).state;
    expect([...targetSquares(s)]).toEqual([23]);
    s = tap(s, 23).state;
    expect(s.partial).toEqual([32, 23]);
    expect([...targetSquares(s)].sort((a, b) => a - b)).toEqual([14, 16]);
    // the piece stands on 23 and 27 is shown as jumped
    const shown = displayPieces(s);
    expect(shown.pieces.has(32)).toBe(false);
    expect(shown.pieces.get(23)?.color).toBe('white');
    expect([...shown.ghosts]).toEqual([27]);
    s = tap(s, 14).state;
    expect(s.partial).toEqual([32, 23, 14]);
    expect([...targetSquares(s)].sort((a, b) => a - b)).toEqual([5, 7]);
    expect([...displayPieces(s).ghosts].sort((a, b) => a - b)).toEqual([18, 27]);
    const r = tap(s, 7);
    expect(r.move?.path).toEqual([32, 23, 14, 7]);
    expect(r.move?.captures).toEqual([10, 18, 27]);
    expect([...r.state.pieces.keys()].sort((a, b) => a - b)).toEqual([7, 9, 19, 28]);
  });

  it('plays the rest at once when only one route is left', () => {
    let s = tap(stateOf('russian', 'W:W32:B27,28,18,19,9,10', BRANCHING), 32).state;
    s = tap(s, 23).state;
    const r = tap(s, 16);
    expect(r.move?.text).toBe('g1:g5');
  });

  it('plays a route by a tap on its final square when that names one move', () => {
    let s = tap(stateOf('russian', 'W:W32:B27,28,18,19,9,10', BRANCHING), 32).state;
    const r = tap(s, 5);
    expect(r.move?.path).toEqual([32, 23, 14, 5]);
    s = tap(s, 23).state;
    expect(tap(s, 1).state.partial).toBeNull(); // not a target: the choice starts over
  });

  it('follows a route that comes back to its start (Italian 24x24)', () => {
    const moves = [{ path: [24, 15, 22, 31, 24], captures: [19, 20, 27, 28], text: '24x24' }];
    let s = stateOf('italian', 'W:WK24:BK11,K19,K20,27,K28', moves);
    s = tap(s, 24).state;
    expect([...targetSquares(s)]).toEqual([15]);
    const r = tap(s, 15);
    expect(r.move?.path).toEqual([24, 15, 22, 31, 24]); // one route: nothing left to choose
    expect(r.state.pieces.get(24)?.king).toBe(true);
    expect(r.state.pieces.size).toBe(2);
  });

  it('lets a Thai king reverse through an emptied square (two routes, same captures)', () => {
    const moves = [
      { path: [18, 11, 25], captures: [15, 22] },
      { path: [18, 25, 11], captures: [15, 22] },
    ];
    let s = tap(stateOf('thai', 'W:WK18:B15,22', moves), 18).state;
    expect([...targetSquares(s)].sort((a, b) => a - b)).toEqual([11, 25]);
    const r = tap(s, 25);
    expect(r.move?.path).toEqual([18, 25, 11]);
  });

  it('offers "stop here" when one move ends where another goes on', () => {
    const moves = [
      { path: [1, 2], captures: [9] },
      { path: [1, 2, 3], captures: [9, 10] },
      { path: [1, 2, 4], captures: [9, 11] },
    ];
    let s = stateOf('turkish', 'W:W1:B9,10,11', moves);
    s = tap(tap(s, 1).state, 2).state;
    expect(s.partial).toEqual([1, 2]);
    expect([...targetSquares(s)].sort((a, b) => a - b)).toEqual([2, 3, 4]);
    expect(tap(s, 2).move?.path).toEqual([1, 2]);
  });

  it('keeps the flying-king landings of one capture apart (Russian d4:h8, d4:g7, d4:f6)', () => {
    const moves = [
      { path: [18, 4], captures: [15] },
      { path: [18, 8], captures: [15] },
      { path: [18, 11], captures: [15] },
      { path: [18, 25], captures: [22] },
      { path: [18, 29], captures: [22] },
    ];
    const s = tap(stateOf('russian', 'W:WK18:B15,22', moves), 18).state;
    expect([...targetSquares(s)].sort((a, b) => a - b)).toEqual([4, 8, 11, 25, 29]);
    expect(candidateMoves(s)).toHaveLength(5);
    expect(tap(s, 8).move?.path).toEqual([18, 8]);
  });
});

describe('applyMove', () => {
  it('moves the piece and lifts the captured ones without touching the input', () => {
    const pieces = parseFen('W:W22:B18,11,10').pieces;
    const out = applyMove(pieces, { path: [22, 15, 6], captures: [10, 18] });
    expect([...out.keys()].sort((a, b) => a - b)).toEqual([6, 11]);
    expect(pieces.size).toBe(4);
  });
});

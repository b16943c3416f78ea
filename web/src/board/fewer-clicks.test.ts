import { describe, expect, it } from 'vitest';
import { premoveMatch, premoveTap, setPosition, tap } from './board';
import { parseFen } from './fen';
import { initialState, type HeadlessState, type LegalMove } from './state';
import { geometry } from './testdata/fixtures';

function stateOf(variant: string, fen: string, moves: LegalMove[], autoPlay = true): HeadlessState {
  const s = initialState(geometry(variant));
  const capturers = [...new Set(moves.filter((m) => m.captures.length > 0).map((m) => m.path[0] as number))];
  return { ...setPosition(s, parseFen(fen).pieces, moves, capturers, null), movable: 'white', autoPlay };
}

// Russian, White: 21 has one move, 22 two
const START: LegalMove[] = [
  { path: [21, 17], captures: [] },
  { path: [22, 17], captures: [] },
  { path: [22, 18], captures: [] },
];
// W:W32:B27,28,18,19,9,10 (Russian): three capture routes from 32
const BRANCHING: LegalMove[] = [
  { path: [32, 23, 14, 5], captures: [9, 18, 27] },
  { path: [32, 23, 14, 7], captures: [10, 18, 27] },
  { path: [32, 23, 16], captures: [19, 27] },
];

describe('fewer clicks (auto-play)', () => {
  it('plays the only move of a tapped piece at once', () => {
    const r = tap(stateOf('russian', 'W:W21-32:B1-12', START), 21);
    expect(r.move?.path).toEqual([21, 17]);
    expect(r.state.pending).toBe(true);
  });
  it('still asks where to when the piece has two moves, and never plays when off', () => {
    expect(tap(stateOf('russian', 'W:W21-32:B1-12', START), 22).move).toBeUndefined();
    const off = tap(stateOf('russian', 'W:W21-32:B1-12', START, false), 21);
    expect(off.move).toBeUndefined();
    expect(off.state.partial).toEqual([21]);
  });
  it('plays the one capture route that ends on a tapped square, with no piece chosen', () => {
    const s = stateOf('russian', 'W:W32:B27,28,18,19,9,10', BRANCHING);
    expect(tap(s, 16).move?.path).toEqual([32, 23, 16]);
    expect(tap(s, 5).move?.captures).toEqual([9, 18, 27]);
    // 23 is a landing of three routes but the end of none: nothing happens
    expect(tap(s, 23).move).toBeUndefined();
    expect(tap(stateOf('russian', 'W:W32:B27,28,18,19,9,10', BRANCHING, false), 16).move).toBeUndefined();
  });
  it('does not play a quiet move by its landing square', () => {
    const s = stateOf('russian', 'W:W21-32:B1-12', START);
    expect(tap(s, 17).move).toBeUndefined();
    expect(tap(s, 18).move).toBeUndefined();
  });
});

describe('premove (an intent, sent when the turn comes)', () => {
  const waiting = (): HeadlessState => ({ ...stateOf('russian', 'W:W21-32:B1-12', []), movable: null, premoveSide: 'white' });
  it('chooses an own piece, then any other square; a tap on the piece cancels', () => {
    let s = premoveTap(waiting(), 9); // an opponent's piece: nothing
    expect(s.premove).toBeNull();
    s = premoveTap(s, 22);
    expect(s.premove).toEqual([22]);
    expect(premoveTap(s, 22).premove).toBeNull();
    s = premoveTap(s, 18);
    expect(s.premove).toEqual([22, 18]);
    expect(premoveTap(s, 13).premove).toBeNull(); // anything else cancels a set premove
    expect(premoveTap(s, 23).premove).toEqual([23]); // another own piece starts a new one
    expect(premoveTap(s, null).premove).toBeNull();
  });
  it('goes through tap() only while the opponent is to move and premoves are allowed', () => {
    expect(tap(waiting(), 22).state.premove).toEqual([22]);
    expect(tap({ ...waiting(), premoveSide: null }, 22).state.premove).toBeNull();
  });
  it('stands for the one legal move from its first to its second square', () => {
    expect(premoveMatch(START, [22, 18])?.path).toEqual([22, 18]);
    expect(premoveMatch(START, [22, 13])).toBeNull();
    expect(premoveMatch(BRANCHING, [32, 5])?.path).toEqual([32, 23, 14, 5]);
    expect(premoveMatch(BRANCHING, [32, 23])).toBeNull();
    expect(premoveMatch(START, [22])).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { parseFen } from '../board/fen';
import type { VariantRulesMeta } from '../board/geometry';
import type { LegalMove } from '../board/state';
import { geometry, meta } from '../board/testdata/fixtures';
import { format } from '../i18n';
import { explainRefusal, explanationText, type RefusalInput } from './explain';

// The facts the server sends (docs/protocol.md, GET /api/variants), as the core's table has them.
// the server's facts (GET /api/variants, saved in board/testdata/variants.json)
const AMERICAN: VariantRulesMeta = meta('american').rules;
const INTERNATIONAL: VariantRulesMeta = meta('international').rules;
const ITALIAN: VariantRulesMeta = meta('italian').rules;

function input(variant: string, fen: string, moves: LegalMove[], rules: VariantRulesMeta | undefined, name: string, mine: 'white' | 'black' = 'white'): RefusalInput {
  const p = parseFen(fen);
  return {
    geometry: geometry(variant),
    pieces: p.pieces,
    legalMoves: moves,
    capturers: [...new Set(moves.filter((m) => m.captures.length > 0).map((m) => m.path[0] as number))],
    mine,
    turn: p.turn,
    premoves: false,
    rules,
    variantName: name,
  };
}
const en = (e: ReturnType<typeof explainRefusal>): string | null => (e ? explanationText(e, (k, p) => format('en', k, p)) : null);
const id = (e: ReturnType<typeof explainRefusal>): string | null => (e ? explanationText(e, (k, p) => format('id', k, p)) : null);

describe('why a clicked piece cannot move', () => {
  it('names the majority rule and how many the ringed pieces take (International)', () => {
    // White men 28 and 33; 28 can take 23, 19... (a route of 3); 33 could take 1 but must not
    const moves: LegalMove[] = [{ path: [28, 17, 6, 15], captures: [22, 11, 10] }];
    const inp = input('international', 'W:W28,33,45:B22,11,10,29', moves, INTERNATIONAL, 'International draughts');
    expect(en(explainRefusal(inp, 45))).toBe('You must capture: the ringed piece can take 3 (majority rule)');
    expect(id(explainRefusal(inp, 45))).toBe('Wajib makan: bidak bercincin bisa memakan 3 (aturan makan terbanyak)');
    // without the facts from the server it says what the moves show, and no rule name
    expect(en(explainRefusal({ ...inp, rules: undefined }, 45))).toBe('You must capture: the ringed piece can take 3');
    // the piece that can capture is not refused
    expect(explainRefusal(inp, 28)).toBeNull();
  });

  it('says men do not capture backwards (American), with and without a capture elsewhere', () => {
    // Black to move (American: Black moves down the board, toward 32). Black man on 18 has a
    // white man behind it on 14 with 10 empty: a backward jump shape.
    const quiet: LegalMove[] = [{ path: [1, 5], captures: [] }, { path: [1, 6], captures: [] }];
    const inp = input('american', 'B:W14,22,23,25,27:B18,1', quiet, AMERICAN, 'American checkers', 'black');
    // 18 is blocked ahead (22, 23 taken, 25, 27 behind them too) and has a backward jump shape over 14
    expect(en(explainRefusal(inp, 18))).toBe('Men do not capture backwards in American checkers.');
    const forced: LegalMove[] = [{ path: [1, 10], captures: [6] }];
    const inp2 = input('american', 'B:W6,14,22,23,25,27:B18,1', forced, AMERICAN, 'American checkers', 'black');
    expect(en(explainRefusal(inp2, 18))).toBe('Men do not capture backwards in American checkers; the ringed pieces must capture.');
    // where men do capture backwards there is no such line
    expect(en(explainRefusal({ ...inp, rules: INTERNATIONAL }, 18))).toBe('This man has no free square to move to.');
  });

  it('says a man may not capture a king in Italian draughts', () => {
    // white man 22; black king on 18 with 13 empty beyond it: a jump shape a man may not take
    const inp = input('italian', 'W:W22,30:BK18,9', [{ path: [30, 26], captures: [] }], ITALIAN, 'Italian draughts');
    expect(en(explainRefusal(inp, 22))).toBe('In Italian draughts a man may not capture a king.');
    expect(en(explainRefusal({ ...inp, rules: AMERICAN }, 22))).toBe('This man has no free square to move to.');
  });

  it('explains turns and colours, and keeps quiet on empty squares', () => {
    const inp = input('russian', 'B:W21-32:B1-12', [{ path: [9, 13], captures: [] }], undefined, 'Russian draughts');
    expect(en(explainRefusal(inp, 22))).toBe("It is your opponent's turn.");
    expect(explainRefusal({ ...inp, premoves: true }, 22)).toBeNull(); // a premove is being chosen
    expect(explainRefusal(inp, 17)).toBeNull();
    const mineToMove = input('russian', 'W:W21-32:B1-12', [{ path: [21, 17], captures: [] }], undefined, 'Russian draughts');
    expect(en(explainRefusal(mineToMove, 9))).toBe("That is your opponent's piece.");
    expect(en(explainRefusal(mineToMove, 29))).toBe('This man has no free square to move to.');
  });
});

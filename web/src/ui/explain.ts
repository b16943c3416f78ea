// Rules explained in play: why a clicked piece cannot move, in one line. The client has no rules
// of its own: what is legal is the server's list of legal moves; the reason is read from that
// list (captures exist, how many pieces they take) and from the variant's facts the server sends
// in GET /api/variants (`rules`: which way men capture, the capture precedence). Where a fact is
// missing the line says less rather than guess. Pure, tested in Node.

import type { Pieces } from '../board/fen';
import type { Color, Geometry, VariantRulesMeta } from '../board/geometry';
import type { LegalMove } from '../board/state';
import type { UiKey } from '../i18n';

export interface RefusalInput {
  geometry: Geometry;
  pieces: Pieces;
  legalMoves: readonly LegalMove[];
  /** the pieces that must capture (the ringed ones); empty without forced capture */
  capturers: readonly number[];
  /** the player's colour, and whose turn it is */
  mine: Color;
  turn: Color;
  /** premoves are being taken (the opponent's turn in a clocked game) */
  premoves: boolean;
  rules: VariantRulesMeta | undefined;
  variantName: string;
}

export interface Explanation {
  key: UiKey;
  params: Record<string, string | number>;
}

const cellKey = (file: number, rank: number): string => `${file},${rank}`;

/** Squares `d` and `2d` away from `sq` along (df, dr), if both are on the board. */
function line(g: Geometry, sq: number, df: number, dr: number): [number, number] | null {
  const q = g.byNumber.get(sq);
  if (!q) return null;
  const a = g.byCell.get(cellKey(q.file + df, q.rank + dr));
  const b = g.byCell.get(cellKey(q.file + 2 * df, q.rank + 2 * dr));
  return a !== undefined && b !== undefined ? [a, b] : null;
}

/** The steps a man takes to jump, straight or diagonal, forward or backward (`dir` +1/-1 in ranks). */
function jumpSteps(g: Geometry, rankDir: number): [number, number][] {
  return g.allPlayable ? [[0, rankDir]] : [[-1, rankDir], [1, rankDir]];
}

/**
 * Would the man on `sq` have a jump in direction `rankDir` over an opponent's piece (a king only,
 * with `kingsOnly`) onto an empty square? Pure geometry: it says what the board looks like, never
 * whether the jump is legal (that is the server's list).
 */
function jumpShape(inp: RefusalInput, sq: number, rankDir: number, kingsOnly: boolean): boolean {
  const me = inp.pieces.get(sq);
  if (!me) return false;
  for (const [df, dr] of jumpSteps(inp.geometry, rankDir)) {
    const l = line(inp.geometry, sq, df, dr);
    if (!l) continue;
    const over = inp.pieces.get(l[0]);
    if (over && over.color !== me.color && (!kingsOnly || over.king) && !inp.pieces.has(l[1])) return true;
  }
  return false;
}

const PRECEDENCE_KEY: Record<NonNullable<VariantRulesMeta['precedence']>, UiKey | null> = {
  free: null,
  majority: 'rule_majority',
  majority_then_kings: 'rule_majority_then_kings',
  italian: 'rule_italian',
  kings_first: 'rule_kings_first',
};

/** Why the tap on `sq` did nothing, or null when there is nothing useful to say (an empty square). */
export function explainRefusal(inp: RefusalInput, sq: number): Explanation | null {
  const piece = inp.pieces.get(sq);
  if (!piece) return null;
  if (inp.turn !== inp.mine) {
    if (piece.color === inp.mine && !inp.premoves) return { key: 'why_notYourTurn', params: {} };
    return null;
  }
  if (piece.color !== inp.mine) return { key: 'why_opponentPiece', params: {} };
  if (inp.legalMoves.some((m) => m.path[0] === sq)) return null; // it can move: not refused
  const forward = inp.mine === 'white' ? 1 : -1;
  const rules = inp.rules;
  const captures = inp.legalMoves.filter((m) => m.captures.length > 0);
  const must = inp.capturers.length > 0 && captures.length > 0;
  const backwardShape = !piece.king && rules?.man_captures !== undefined && rules.man_captures !== 'forward_and_backward' && jumpShape(inp, sq, -forward, false);
  const kingShape = !piece.king && rules?.man_captures_king === false && jumpShape(inp, sq, forward, true);
  if (backwardShape) return { key: must ? 'why_noBackwardCaptureMust' : 'why_noBackwardCapture', params: { variant: inp.variantName } };
  if (kingShape) return { key: must ? 'why_manTakesNoKingMust' : 'why_manTakesNoKing', params: { variant: inp.variantName } };
  if (must) {
    const n = Math.max(...captures.map((m) => m.captures.length));
    const ringed = new Set(inp.capturers).size;
    const precedence = rules?.precedence;
    const ruleKey = precedence ? PRECEDENCE_KEY[precedence] : null;
    const key: UiKey = ringed === 1 ? 'why_mustCaptureOne' : 'why_mustCaptureMany';
    return ruleKey ? { key: 'why_withRule', params: { text: `{${key}}`, rule: `{${ruleKey}}`, n } } : { key, params: { n } };
  }
  return { key: piece.king ? 'why_blockedKing' : 'why_blockedMan', params: {} };
}

/** The explanation's text: `{key}` params are texts of other keys (the rule's name). */
export function explanationText(e: Explanation, t: (key: UiKey, params?: Record<string, string | number>) => string): string {
  const params: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(e.params)) {
    const m = typeof v === 'string' ? /^\{(\w+)\}$/.exec(v) : null;
    params[k] = m ? t(m[1] as UiKey, e.params) : v;
  }
  return t(e.key, params);
}

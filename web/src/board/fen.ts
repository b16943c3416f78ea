// Reading a PDN FEN ("W:W21-32:B1-12", kings prefixed K, ranges allowed) into pieces, for
// diagrams such as the start positions of the rules pages. Only square numbers are read:
// algebraic FEN squares and the :H/:F suffixes are the server's business. No rules here.

import type { Color } from './geometry';

export interface Piece {
  color: Color;
  king: boolean;
}

export type Pieces = Map<number, Piece>;

export interface ParsedFen {
  turn: Color;
  pieces: Pieces;
}

export function parseFen(fen: string): ParsedFen {
  const parts = fen.trim().replace(/\.$/, '').split(':');
  const side = parts[0]?.trim().toUpperCase();
  if (side !== 'W' && side !== 'B') throw new Error(`bad FEN side in '${fen}'`);
  const pieces: Pieces = new Map();
  for (const part of parts.slice(1)) {
    const p = part.trim();
    const colorChar = p[0]?.toUpperCase();
    if (colorChar !== 'W' && colorChar !== 'B') continue; // H<n>, F<n> and the like
    const color: Color = colorChar === 'W' ? 'white' : 'black';
    for (const item of p.slice(1).split(',')) {
      let t = item.trim();
      if (!t) continue;
      let king = false;
      if (t[0] === 'K' || t[0] === 'k') {
        king = true;
        t = t.slice(1);
      }
      const range = /^(\d+)-(\d+)$/.exec(t);
      if (range) {
        const a = Number(range[1]);
        const b = Number(range[2]);
        for (let n = a; n <= b; n++) pieces.set(n, { color, king });
      } else if (/^\d+$/.test(t)) {
        pieces.set(Number(t), { color, king });
      } else {
        throw new Error(`bad FEN square '${t}' in '${fen}'`);
      }
    }
  }
  return { turn: side === 'W' ? 'white' : 'black', pieces };
}

/** Pieces from the server's state.position lists. */
export function piecesFromLists(p: {
  white: number[];
  white_kings: number[];
  black: number[];
  black_kings: number[];
}): Pieces {
  const out: Pieces = new Map();
  for (const n of p.white) out.set(n, { color: 'white', king: false });
  for (const n of p.white_kings) out.set(n, { color: 'white', king: true });
  for (const n of p.black) out.set(n, { color: 'black', king: false });
  for (const n of p.black_kings) out.set(n, { color: 'black', king: true });
  return out;
}

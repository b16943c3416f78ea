// The position editor's model: which piece a tap puts on a square, and the FEN of what is on the
// board. Whether a game can start from it is the rules core's answer (checkSetup), not this file's.

import type { Color } from '../board/geometry';
import type { Pieces } from '../board/fen';

export type Tool = 'white-man' | 'white-king' | 'black-man' | 'black-king' | 'erase';
export const TOOLS: readonly Tool[] = ['white-man', 'white-king', 'black-man', 'black-king', 'erase'];

/** A tap with `tool` on `sq`: puts that piece there, or takes it away when it is already there. */
export function applyTool(pieces: Pieces, sq: number, tool: Tool): Pieces {
  const out = new Map(pieces);
  if (tool === 'erase') {
    out.delete(sq);
    return out;
  }
  const color: Color = tool.startsWith('white') ? 'white' : 'black';
  const king = tool.endsWith('king');
  const here = out.get(sq);
  if (here && here.color === color && here.king === king) out.delete(sq);
  else out.set(sq, { color, king });
  return out;
}

/** "W:W31,32,K45:B1,2": side to move, White's squares then Black's, ascending, kings with K. */
export function toFen(pieces: Pieces, turn: Color): string {
  const list = (c: Color): string =>
    [...pieces.entries()]
      .filter(([, p]) => p.color === c)
      .sort(([a], [b]) => a - b)
      .map(([n, p]) => `${p.king ? 'K' : ''}${n}`)
      .join(',');
  return `${turn === 'white' ? 'W' : 'B'}:W${list('white')}:B${list('black')}`;
}

// Board geometry built from the server's variant metadata (GET /api/variants).
//
// Nothing here knows a variant by name or hard-codes a square count: the board size, the
// playable squares and their numbers all come from `square_coords`. A square is identified by
// its number in the variant's numbering (`square_coords` of GET /api/variants, docs/protocol.md),
// the same number FEN and JSON use.
//
// Coordinates: file 0 = a, rank 0 = rank 1 (White's home row). Display cells: col 0 is the left
// column and row 0 the top row as the viewer sees the board for the given orientation.

export type Color = 'white' | 'black';
export type Topology = 'diagonal8' | 'diagonal10' | 'orthogonal8' | string;

export interface SquareCoordMeta {
  n: number;
  file: number;
  rank: number;
  name: string;
}

/** The capture facts of a variant (GET /api/variants, `rules`), for explaining a refused click. */
export interface VariantRulesMeta {
  /** which way men capture */
  man_captures: 'forward' | 'forward_and_backward' | 'forward_and_sideways';
  /** false where a man may not capture a king (Italian) */
  man_captures_king: boolean;
  /** short: one square; flying: any distance */
  king_range: 'short' | 'flying';
  /** which capture must be chosen among several */
  precedence: 'free' | 'majority' | 'majority_then_kings' | 'italian' | 'kings_first';
}

/** One row of GET /api/variants ("variants": [...]). */
export interface VariantMeta {
  key: string;
  name: string;
  topology: Topology;
  board: { size: number; squares: number };
  numbering: string;
  notation: 'numeric' | 'algebraic' | string;
  first_to_move: Color;
  start_fen: string;
  no_forced_capture_option: boolean;
  draw_rule_sets: string[];
  square_coords: SquareCoordMeta[];
  rules: VariantRulesMeta;
}

export interface SquareInfo {
  n: number;
  file: number;
  rank: number;
  name: string;
}

export interface Geometry {
  readonly variant: string;
  readonly size: number;
  /** true when every cell of the board is playable (orthogonal boards) */
  readonly allPlayable: boolean;
  readonly squares: readonly SquareInfo[];
  /** square number -> info */
  readonly byNumber: ReadonlyMap<number, SquareInfo>;
  /** "file,rank" -> square number, playable cells only */
  readonly byCell: ReadonlyMap<string, number>;
  /** the colour of a1: playable cells are "dark" on diagonal boards */
  readonly a1Playable: boolean;
}

const cellKey = (file: number, rank: number): string => `${file},${rank}`;

export function buildGeometry(meta: VariantMeta): Geometry {
  const size = meta.board.size;
  if (!Number.isInteger(size) || size < 2 || size > 26) {
    throw new Error(`variant ${meta.key}: bad board size ${String(size)}`);
  }
  const squares: SquareInfo[] = [];
  const byNumber = new Map<number, SquareInfo>();
  const byCell = new Map<string, number>();
  for (const s of meta.square_coords) {
    if (s.file < 0 || s.file >= size || s.rank < 0 || s.rank >= size) {
      throw new Error(`variant ${meta.key}: square ${s.n} is off the board`);
    }
    const info: SquareInfo = { n: s.n, file: s.file, rank: s.rank, name: s.name };
    if (byNumber.has(s.n) || byCell.has(cellKey(s.file, s.rank))) {
      throw new Error(`variant ${meta.key}: square ${s.n} given twice`);
    }
    squares.push(info);
    byNumber.set(s.n, info);
    byCell.set(cellKey(s.file, s.rank), s.n);
  }
  if (squares.length !== meta.board.squares) {
    throw new Error(
      `variant ${meta.key}: ${squares.length} square coordinates for ${meta.board.squares} squares`,
    );
  }
  squares.sort((a, b) => a.n - b.n);
  return {
    variant: meta.key,
    size,
    allPlayable: squares.length === size * size,
    squares,
    byNumber,
    byCell,
    a1Playable: byCell.has(cellKey(0, 0)),
  };
}

/** Display cell (col from the left, row from the top) of a board coordinate. */
export function cellOf(
  g: Geometry,
  file: number,
  rank: number,
  orientation: Color,
): { col: number; row: number } {
  return orientation === 'white'
    ? { col: file, row: g.size - 1 - rank }
    : { col: g.size - 1 - file, row: rank };
}

/** Board coordinate under a display cell. */
export function coordOfCell(
  g: Geometry,
  col: number,
  row: number,
  orientation: Color,
): { file: number; rank: number } {
  return orientation === 'white'
    ? { file: col, rank: g.size - 1 - row }
    : { file: g.size - 1 - col, rank: row };
}

/** Display cell of a square number; throws on a number the board does not have. */
export function squareCell(g: Geometry, n: number, orientation: Color): { col: number; row: number } {
  const s = g.byNumber.get(n);
  if (!s) throw new Error(`no square ${n} on the ${g.variant} board`);
  return cellOf(g, s.file, s.rank, orientation);
}

/** The square number under a display cell, or null for an unplayable or off-board cell. */
export function squareAtCell(g: Geometry, col: number, row: number, orientation: Color): number | null {
  if (col < 0 || row < 0 || col >= g.size || row >= g.size) return null;
  const { file, rank } = coordOfCell(g, col, row, orientation);
  return g.byCell.get(cellKey(file, rank)) ?? null;
}

/**
 * The square under a point given as fractions (0..1) of the board's width and height,
 * as pointer events give it after dividing by the element's bounding box.
 */
export function squareAtPoint(g: Geometry, fx: number, fy: number, orientation: Color): number | null {
  if (!(fx >= 0 && fx < 1 && fy >= 0 && fy < 1)) return null;
  return squareAtCell(g, Math.floor(fx * g.size), Math.floor(fy * g.size), orientation);
}

/** Whether a display cell is dark (drawn in the board's dark colour). */
export function isDarkCell(g: Geometry, file: number, rank: number): boolean {
  // a1 is dark on most boards; when the metadata says a1 is not playable on a diagonal board
  // (the mirrored Italian/Spanish board) the playable squares are still the dark ones.
  const a1Dark = g.allPlayable ? true : g.a1Playable;
  return ((file + rank) % 2 === 0) === a1Dark;
}

export const FILES = 'abcdefghijklmnopqrstuvwxyz';

/** Labels of the files (bottom edge) and ranks (left edge) in display order. */
export function edgeLabels(g: Geometry, orientation: Color): { files: string[]; ranks: string[] } {
  const files: string[] = [];
  const ranks: string[] = [];
  for (let i = 0; i < g.size; i++) {
    const c = coordOfCell(g, i, i, orientation);
    files.push(FILES[c.file] ?? '?');
    ranks.push(String(c.rank + 1));
  }
  return { files, ranks };
}

/**
 * The squares strictly between two squares on a straight line (diagonal, rank or file),
 * in order from `a` to `b`; empty when they are not on one line or are neighbours.
 * Used to show which captured piece a step of a capture jumps (pure geometry).
 */
export function squaresBetween(g: Geometry, a: number, b: number): number[] {
  const sa = g.byNumber.get(a);
  const sb = g.byNumber.get(b);
  if (!sa || !sb) return [];
  const df = sb.file - sa.file;
  const dr = sb.rank - sa.rank;
  const steps = Math.max(Math.abs(df), Math.abs(dr));
  if (steps < 2) return [];
  if (!(df === 0 || dr === 0 || Math.abs(df) === Math.abs(dr))) return [];
  const uf = Math.sign(df);
  const ur = Math.sign(dr);
  const out: number[] = [];
  for (let i = 1; i < steps; i++) {
    const n = g.byCell.get(cellKey(sa.file + uf * i, sa.rank + ur * i));
    if (n !== undefined) out.push(n);
  }
  return out;
}

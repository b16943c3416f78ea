// SVG charts: the evaluation graph of a reviewed game and a player's rating history. The
// geometry (points, paths, axis ticks) is pure and tested; the SVG elements are built from it.

const SVG = 'http://www.w3.org/2000/svg';

export interface Point {
  x: number;
  y: number;
}

export function polyline(points: readonly Point[]): string {
  return points.map((p, i) => `${i === 0 ? 'M' : 'L'}${round(p.x)},${round(p.y)}`).join(' ');
}

const round = (v: number): number => Math.round(v * 10) / 10;

/**
 * The evaluation graph: values in -1..1 (White's view, +1 top) per ply 0..n, drawn across
 * `width` by `height`; null values (not analysed yet) are skipped. The area under the curve is
 * White's share (drawn light on a dark ground, as the evaluation bar).
 */
export function evalGraph(values: readonly (number | null)[], width: number, height: number): { line: string; area: string; points: (Point | null)[] } {
  const n = Math.max(1, values.length - 1);
  const mid = height / 2;
  const points = values.map((v, i) => (v === null ? null : { x: (i / n) * width, y: mid - Math.max(-1, Math.min(1, v)) * mid }));
  const known = points.filter((p): p is Point => p !== null);
  if (known.length === 0) return { line: '', area: '', points };
  const line = polyline(known);
  const first = known[0] as Point;
  const last = known[known.length - 1] as Point;
  const area = `M${round(first.x)},${round(height)} ${polyline(known).replace(/^M/, 'L')} L${round(last.x)},${round(height)} Z`;
  return { line, area, points };
}

/** The ply under a click at fraction fx (0..1) of the graph's width. */
export function plyAt(fx: number, plies: number): number {
  return Math.max(0, Math.min(plies, Math.round(fx * plies)));
}

/** Round tick values covering [min, max] (about `count` of them). */
export function ticks(min: number, max: number, count = 4): number[] {
  if (!(max > min)) return [min];
  const raw = (max - min) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const out: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max + 1e-9; v += step) out.push(Math.round(v * 1000) / 1000);
  return out;
}

export interface Series {
  points: Point[];
  /** y of each tick value */
  ticks: { value: number; y: number }[];
  min: number;
  max: number;
}

/**
 * A rating history as points: x evenly by game (ratings change per game, and time gaps would
 * squeeze a busy week), y by rating with a margin; the first point is the rating before the
 * first game (rating - change).
 */
export function ratingSeries(history: readonly { rating: number; change: number }[], width: number, height: number, pad = 10): Series {
  if (history.length === 0) return { points: [], ticks: [], min: 0, max: 0 };
  const values = [(history[0]?.rating ?? 0) - (history[0]?.change ?? 0), ...history.map((h) => h.rating)];
  let min = Math.min(...values);
  let max = Math.max(...values);
  if (max - min < 20) {
    min -= 10;
    max += 10;
  }
  const y = (v: number): number => pad + (1 - (v - min) / (max - min)) * (height - 2 * pad);
  const n = values.length - 1;
  return {
    points: values.map((v, i) => ({ x: n === 0 ? width / 2 : (i / n) * width, y: y(v) })),
    ticks: ticks(min, max).map((value) => ({ value, y: y(value) })),
    min,
    max,
  };
}

export function svgEl<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

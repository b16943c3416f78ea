import { describe as suite, expect, it } from 'vitest';
import { tap, setPosition } from './board';
import { parseFen } from './fen';
import { CELL, describe, type PieceShape, type Shape, type TargetShape } from './render';
import { initialState, type HeadlessState, type LegalMove } from './state';
import { geometry } from './testdata/fixtures';

const of = <L extends Shape['layer']>(shapes: Shape[], layer: L): Extract<Shape, { layer: L }>[] =>
  shapes.filter((s): s is Extract<Shape, { layer: L }> => s.layer === layer);

function game(variant: string, fen: string, moves: LegalMove[], capturers: number[] = []): HeadlessState {
  return { ...setPosition(initialState(geometry(variant)), parseFen(fen).pieces, moves, capturers, null), movable: 'white' };
}

suite('render description', () => {
  it('draws size x size cells and one shape per piece, for every board', () => {
    for (const [v, fen, n, size] of [
      ['russian', 'W:W21-32:B1-12', 24, 8],
      ['international', 'W:W31-50:B1-20', 40, 10],
      ['turkish', 'W:W9-24:B41-56', 32, 8],
    ] as const) {
      const shapes = describe(game(v, fen, []));
      expect(of(shapes, 'cells')).toHaveLength(size * size);
      expect(of(shapes, 'pieces')).toHaveLength(n);
    }
  });

  it('draws Turkish dama on plain wood with lines in the classic look, chequered in candy', () => {
    const turkish = game('turkish', 'W:W9-24:B41-56', []);
    const classic = of(describe(turkish), 'cells');
    expect(classic.every((c) => c.lined && !c.dark)).toBe(true);
    const candy = of(describe({ ...turkish, look: 'candy' }), 'cells');
    expect(candy.some((c) => c.dark) && candy.some((c) => !c.dark)).toBe(true);
    expect(candy.some((c) => c.lined)).toBe(false);
    // the diagonal boards stay chequered in the classic look
    const russian = of(describe(game('russian', 'W:W21-32:B1-12', [])), 'cells');
    expect(russian.filter((c) => c.dark)).toHaveLength(32);
    expect(russian.some((c) => c.lined)).toBe(false);
  });

  it('puts White at the bottom, and Black at the bottom when flipped', () => {
    const s = game('russian', 'W:W21-32:B1-12', []);
    const bottom = (st: HeadlessState): PieceShape[] => of(describe(st), 'pieces').filter((p) => p.cy > 7 * CELL);
    expect(bottom(s).every((p) => p.color === 'white')).toBe(true);
    expect(bottom({ ...s, orientation: 'black' }).every((p) => p.color === 'black')).toBe(true);
  });

  it('rings only the pieces that must capture, and marks targets after a tap', () => {
    const moves = [
      { path: [22, 15, 6], captures: [10, 18] },
      { path: [22, 15, 8], captures: [11, 18] },
    ];
    const s = game('russian', 'W:W22,25:B18,11,10', moves, [22]);
    const pieces = of(describe(s), 'pieces');
    expect(pieces.filter((p) => p.must).map((p) => p.sq)).toEqual([22]);
    expect(pieces.filter((p) => p.movable).map((p) => p.sq)).toEqual([22]);
    const after = tap(s, 22).state;
    const targets: TargetShape[] = of(describe(after), 'targets');
    expect(targets.map((t) => t.sq)).toEqual([15]);
    expect(targets[0]?.capture).toBe(true);
    const mid = describe(tap(after, 15).state);
    expect(of(mid, 'targets').map((t) => t.sq)).toEqual([6, 8]);
    expect(of(mid, 'pieces').filter((p) => p.ghost).map((p) => p.sq)).toEqual([18]);
    expect(of(mid, 'marks').map((m) => m.mark)).toEqual(['selected', 'path']);
  });

  it('highlights the last move and shows numbers and coordinates on request', () => {
    const s = { ...game('international', 'W:W31-50:B1-20', []), lastMove: [32, 28] };
    const shapes = describe(s);
    expect(of(shapes, 'marks').map((m) => m.key)).toEqual(['l32', 'l28']);
    expect(of(shapes, 'labels')).toHaveLength(0);
    const labelled = describe({ ...s, showNumbers: true, showCoords: true });
    const labels = of(labelled, 'labels');
    expect(labels.filter((l) => l.kind === 'number')).toHaveLength(50);
    expect(labels.filter((l) => l.kind === 'file').map((l) => l.text).join('')).toBe('abcdefghij');
    expect(labels.filter((l) => l.kind === 'rank').map((l) => l.text)[0]).toBe('10');
  });

  it('gives every shape a unique key within its layer', () => {
    const s = { ...game('turkish', 'W:W9-24:B41-56', []), showNumbers: true, showCoords: true, lastMove: [17, 25] };
    const shapes = describe(s);
    const keys = shapes.map((x) => `${x.layer}:${x.key}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

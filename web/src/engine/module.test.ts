// The WebAssembly module against the native binary: the same rules code and the same engine, so
// the same legal moves (with their landing paths and texts) and, for a fixed-depth search with
// the same table size, the same node count, score and best move.
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PapanModule } from './module';
import { benchPositions, GLUE_FILE, openTestModule, papan, WASM_FILE } from './testing';
import type { WasmMove } from './types';

let mod: PapanModule;
let variants: { id: string; start_fen: string }[] = [];

beforeAll(async () => {
  mod = await openTestModule();
  variants = JSON.parse(await papan(['variants', '--json'])) as { id: string; start_fen: string }[];
});

const key = (m: { path: number[]; captures: number[] }): string => `${m.path.join('-')}/${[...m.captures].sort((a, b) => a - b).join(',')}`;
const sorted = (ms: WasmMove[]): WasmMove[] => [...ms].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
const spec = (variant: string, fen: string) => ({ variant, fen, moves: [], forcedCapture: true, drawRules: 0 });

describe('legal moves equal the native `papan moves --json`', () => {
  it('in every variant\'s start position and every bench position', async () => {
    const bench = benchPositions();
    expect(variants).toHaveLength(10);
    expect(bench.size).toBe(10);
    let compared = 0;
    for (const v of variants) {
      const fens = [v.start_fen, ...(bench.get(v.id) ?? [])];
      const native = (await papan(['moves', '--variant', v.id, '--batch'], fens.join('\n') + '\n'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { fen: string; moves: WasmMove[] });
      expect(native).toHaveLength(fens.length);
      for (const [i, fen] of fens.entries()) {
        const game = mod.load(spec(v.id, fen));
        expect(sorted(game.legal_moves), `${v.id} ${fen}`).toEqual(sorted(native[i]?.moves ?? []));
        compared++;
      }
    }
    expect(compared).toBe(70);
    // ten native subprocesses and 70 positions: seconds on a loaded 2-core machine, not 5
  }, 60_000);
});

interface NativeAnalysis {
  best: WasmMove;
  score: number;
  depth: number;
  nodes: number;
  pv: string[];
}

describe('a fixed-depth search equals the native `papan analyse --depth D`', () => {
  // Depth 8 keeps the run to seconds; both sides use a fresh engine with a 16 MB table.
  const DEPTH = 8;
  it('node count, score, best move and line in every bench position', async () => {
    let compared = 0;
    for (const [variant, fens] of benchPositions()) {
      for (const fen of fens) {
        const native = JSON.parse(
          await papan(['analyse', '--variant', variant, '--fen', fen, '--depth', String(DEPTH), '--hash', '16', '--json']),
        ) as NativeAnalysis;
        mod.load(spec(variant, fen));
        mod.resetEngine(16);
        const depths: number[] = [];
        const r = mod.analyse({ depth: DEPTH }, (line) => depths.push(line.depth));
        const line = r.lines[0];
        const where = `${variant} ${fen}`;
        expect(line?.move?.path, where).toEqual(native.best.path);
        expect(r.nodes, where).toBe(native.nodes);
        expect(line?.score, where).toBe(native.score);
        expect(line?.pv, where).toEqual(native.pv);
        expect(depths.at(-1), where).toBe(native.depth);
        compared++;
      }
    }
    expect(compared).toBe(60); // six positions of each of the ten variants
  }, 300_000);
});

describe('multi-PV by exclusion', () => {
  it('gives up to three lines with different first moves, best first, in all ten variants', () => {
    for (const v of variants) {
      mod.load(spec(v.id, ''));
      mod.resetEngine(16);
      const seen: { depth: number; multipv: number }[] = [];
      const r = mod.analyse({ depth: 5, lines: 3 }, (l) => seen.push({ depth: l.depth, multipv: l.multipv }));
      expect(r.lines.map((l) => l.multipv), v.id).toEqual([1, 2, 3]);
      const firsts = r.lines.map((l) => key(l.move as WasmMove));
      expect(new Set(firsts).size, v.id).toBe(3);
      for (const l of r.lines) expect(l.depth, v.id).toBe(5);
      // streamed depth by depth: all three lines of depth d before any of depth d + 1
      expect(seen.slice(0, 6), v.id).toEqual([
        { depth: 1, multipv: 1 }, { depth: 1, multipv: 2 }, { depth: 1, multipv: 3 },
        { depth: 2, multipv: 1 }, { depth: 2, multipv: 2 }, { depth: 2, multipv: 3 },
      ]);
    }
  });

  it('line 1 of a multi-PV search is the single-line search\'s best move', () => {
    // The fixed-depth single line equals native (above); line 1 searches the same tree first.
    mod.load(spec('international', ''));
    mod.resetEngine(16);
    const one = mod.analyse({ depth: 6 }).lines[0];
    mod.resetEngine(16);
    const three = mod.analyse({ depth: 6, lines: 3 }).lines[0];
    expect(three?.move?.path).toEqual(one?.move?.path);
  });

  it('caps the lines at the number of legal moves', () => {
    // Russian: White must capture, and only one capture exists
    mod.load(spec('russian', 'W:W22:B18'));
    const r = mod.analyse({ depth: 3, lines: 3 });
    expect(r.lines).toHaveLength(1);
    expect(r.lines[0]?.move?.captures).toEqual([18]);
  });
});

describe('the game session', () => {
  it('plays, undoes and reports every ply\'s FEN and the result', () => {
    let g = mod.load({ variant: 'russian', fen: 'W:W22:B18', moves: [], forcedCapture: true, drawRules: 0 });
    expect(g.turn).toBe('white');
    expect(g.capturers).toEqual([22]);
    g = mod.play('22-15');
    expect(g.result?.outcome).toBe('white_wins');
    expect(g.result?.reason).toBe('no_pieces');
    expect(g.fens).toEqual(['W:W22:B18', 'B:W15:B']);
    expect(g.moves[0]).toMatchObject({ ply: 0, color: 'white', path: [22, 15], captures: [18], text: 'c3:e5' });
    g = mod.undo();
    expect(g.ply).toBe(0);
    expect(g.result).toBeNull();
  });

  it('refuses an illegal move and a bad FEN with the core\'s message, keeping the game', () => {
    mod.load(spec('international', ''));
    expect(() => mod.play('31-27')).not.toThrow();
    expect(() => mod.play('1-99')).toThrow(/./);
    expect(() => mod.load(spec('international', 'W:W51'))).toThrow(/not a square/);
    expect(mod.play('19-23').ply).toBe(2); // the game of before is still there
  });

  it('replays moves given as landing paths or texts, and names the move that fails', () => {
    const g = mod.load({ variant: 'international', fen: '', moves: ['32-28', '19-23', '28x19'], forcedCapture: true, drawRules: 0 });
    expect(g.ply).toBe(3);
    expect(() => mod.load({ variant: 'international', fen: '', moves: ['32-28', '19-23', '31-27'], forcedCapture: true, drawRules: 0 })).toThrow(/move 3 '31-27'/);
  });

  it('plays a quiet move beside a capture only in a no-forced-capture game', () => {
    const s = { variant: 'american', fen: 'B:W18:B14,1', moves: ['1-5'], drawRules: 0 };
    expect(() => mod.load({ ...s, forcedCapture: true })).toThrow(/move 1/);
    expect(mod.load({ ...s, forcedCapture: false }).ply).toBe(1);
  });
});

describe('the position editor\'s check', () => {
  it('accepts a playable position and says why the others are not', () => {
    expect(mod.checkSetup('international', 'W:W31-50:B1-20')).toEqual({ fen: 'W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20' });
    expect(mod.checkSetup('international', 'W:W1,30:B20')).toMatchObject({ error: expect.stringMatching(/white man on 1/i) });
    expect(mod.checkSetup('russian', 'W:W5-25:B1')).toMatchObject({ error: expect.stringMatching(/White has 21 pieces; a side has at most 12/) });
    expect(mod.checkSetup('russian', 'W:W:B1')).toMatchObject({ error: expect.stringMatching(/over at once/) });
  });
});

describe('PDN', () => {
  it('reads a game into moves the session replays, and writes the session\'s game back', () => {
    const text = '[Event "t"]\n[White "A"]\n[Black "B"]\n[GameType "20"]\n\n1. 32-28 19-23 2. 28x19 14x23 *\n';
    const [game] = mod.readPdn(text, 'international');
    expect(game?.variant).toBe('international');
    expect(game?.moves).toEqual(['32-28', '19-23', '28x19', '14x23']);
    const g = mod.load({ variant: game!.variant, fen: game!.start_fen, moves: game!.moves, forcedCapture: true, drawRules: 0 });
    expect(g.ply).toBe(4);
    const out = mod.writePdn([['White', 'A'], ['Black', 'B']]);
    expect(out).toMatch(/\[White "A"\]/);
    expect(out).toMatch(/1\. 32-28 19-23 2\. 28x19 14x23 \*/);
  });

  it('detects the variant of a pasted game without a GameType, as the server\'s import does', () => {
    // An American checkers game as checkers programs write it (only American accepts its moves:
    // tests/data/pdn/checkers-no-gametype.pdn, game 2); the analysis board was on International
    const text =
      '[Black "Ward, C."]\n[White "Ames, B."]\n\n1. 10-15 22-18 2. 15x22 25x18 3. 9-14 18x9 4. 6x13 30-25 5. 11-15 25-22\n' +
      '6. 13-17 21x14 7. 15-19 23x16 8. 12x19 24x15 9. 5-9 14x5 10. 7-10 15x6 *\n';
    const [game] = mod.readPdn(text, 'international');
    expect(game?.variant).toBe('american');
    expect(game?.moves).toHaveLength(20);
  });

  it('reports the first error with its place', () => {
    expect(() => mod.readPdn('1. 32-28 32-28 *', 'international')).toThrow(/illegal|move/i);
  });
});

describe('size', () => {
  it('the .wasm and its glue are at most 1.5 MB gzipped', () => {
    const gz = gzipSync(readFileSync(WASM_FILE), { level: 9 }).length + gzipSync(readFileSync(GLUE_FILE), { level: 9 }).length;
    expect(gz).toBeLessThanOrEqual(1.5 * 1024 * 1024);
  });
});

describe('a single legal move', () => {
  it('is still searched under a time limit (the engine alone would answer at once)', () => {
    // Turkish: White's only move is the capture b4xb8
    mod.load(spec('turkish', 'W:W9,10,11,12,13,14,15,16,17,19,20,21,22,23,24,26:B34,41,43,44,45,46,47,48,49,50,51,52,53,54,55,56'));
    const depths: number[] = [];
    const r = mod.analyse({ seconds: 0.3, lines: 3 }, (l) => depths.push(l.depth));
    expect(r.lines).toHaveLength(1);
    expect(r.lines[0]?.move?.text).toBe('b4xb8');
    expect(depths.length).toBeGreaterThan(2);
    expect(r.lines[0]?.depth).toBeGreaterThan(2);
    expect(r.lines[0]?.pv.length).toBeGreaterThan(2);
  });
});

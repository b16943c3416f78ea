// `make bench`, the WebAssembly half: the engine bench of `papan bench` (bench/positions, fixed
// depth, a fresh engine with a 16 MB table per position, one thread) run in the WebAssembly
// module under node, printed next to the native binary's figures. The node counts must be the
// same (it is the same engine); the speeds are the figure docs/engine.md records.
//   npx vite-node bench/wasm-bench.ts [--depth D]      (from web/; PAPAN_BIN as in the tests)
import { benchPositions, openTestModule, papan } from '../src/engine/testing';

const arg = process.argv.indexOf('--depth');
const depth = arg > 0 ? Number(process.argv[arg + 1]) : 13;

interface NativeBench {
  variants: Record<string, { nodes: number; nps: number }>;
  bench: number;
  nps: number;
}

const native = JSON.parse((await papan(['bench', '--depth', String(depth), '--json'])).trim().split('\n').at(-1) as string) as NativeBench;
const mod = await openTestModule();
let totalNodes = 0;
let totalSeconds = 0;
const pad = (s: string | number, n: number): string => String(s).padStart(n);
console.log(`engine bench, depth ${depth}: WebAssembly (node ${process.version}) against native`);
console.log(`${'variant'.padEnd(14)}${pad('nodes', 12)}${pad('wasm nodes/s', 14)}${pad('native nodes/s', 16)}${pad('ratio', 8)}`);
let same = true;
for (const [variant, fens] of benchPositions()) {
  let nodes = 0;
  let seconds = 0;
  for (const fen of fens) {
    mod.load({ variant, fen, moves: [], forcedCapture: true, drawRules: 0 });
    mod.resetEngine(16);
    const t = performance.now();
    const r = mod.analyse({ depth });
    seconds += (performance.now() - t) / 1000;
    nodes += r.nodes;
  }
  totalNodes += nodes;
  totalSeconds += seconds;
  const n = native.variants[variant];
  if (!n || n.nodes !== nodes) same = false;
  const nps = Math.round(nodes / seconds);
  console.log(`${variant.padEnd(14)}${pad(nodes, 12)}${pad(nps, 14)}${pad(n?.nps ?? '?', 16)}${pad(n ? (nps / n.nps).toFixed(2) : '?', 8)}`);
}
const nps = Math.round(totalNodes / totalSeconds);
console.log(`${'all'.padEnd(14)}${pad(totalNodes, 12)}${pad(nps, 14)}${pad(native.nps, 16)}${pad((nps / native.nps).toFixed(2), 8)}`);
console.log(`WebAssembly nodes/s: ${nps}  native nodes/s: ${native.nps}  ratio: ${(nps / native.nps).toFixed(2)}`);
console.log(same ? `same node counts as native (Bench: ${native.bench})` : `node counts differ from native (wasm ${totalNodes}, native Bench: ${native.bench})`);
if (!same) process.exit(1);

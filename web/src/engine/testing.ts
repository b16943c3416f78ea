// Test support: the WebAssembly module opened under node from the build output, and the native
// `papan` binary that is its oracle. Both must exist: a missing one fails the tests with a
// message saying how to build it (a test that cannot run is a failing test).
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { openModule, type PapanModule } from './module';

const here = dirname(fileURLToPath(import.meta.url));
export const REPO = resolve(here, '../../..');
export const WASM_FILE = join(here, 'generated/papan-engine.wasm');
export const GLUE_FILE = join(here, 'generated/papan-engine.mjs');
export const PAPAN_BIN = process.env['PAPAN_BIN'] ?? join(REPO, 'build/release/papan');

export async function openTestModule(): Promise<PapanModule> {
  if (!existsSync(WASM_FILE)) {
    throw new Error(`no WebAssembly build at ${WASM_FILE}: run \`cmake --preset wasm && cmake --build --preset wasm\` (or make build)`);
  }
  return openModule({ wasmBinary: new Uint8Array(readFileSync(WASM_FILE)) });
}

const run = promisify(execFile);

/** Runs the native binary; its stdout. */
export async function papan(args: string[], input?: string): Promise<string> {
  if (!existsSync(PAPAN_BIN)) {
    throw new Error(`no native binary at ${PAPAN_BIN}: run \`cmake --preset release && cmake --build --preset release --target papan\``);
  }
  if (input === undefined) {
    const { stdout } = await run(PAPAN_BIN, args, { maxBuffer: 64 << 20 });
    return stdout;
  }
  return new Promise((res, rej) => {
    const child = execFile(PAPAN_BIN, args, { maxBuffer: 64 << 20 }, (err, stdout) => (err ? rej(err) : res(stdout)));
    child.stdin?.end(input);
  });
}

/** bench/positions/<variant>.fen: the positions of the engine's bench signature. */
export function benchPositions(): Map<string, string[]> {
  const dir = join(REPO, 'bench/positions');
  const out = new Map<string, string[]>();
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.fen')).sort()) {
    const fens = readFileSync(join(dir, f), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('#'));
    out.set(f.replace(/\.fen$/, ''), fens);
  }
  return out;
}

/** tests/data/analysis/few_moves.txt: positions of one, two and three legal moves in every variant. */
export function fewMovePositions(): { variant: string; legal: number; fen: string }[] {
  return readFileSync(join(REPO, 'tests/data/analysis/few_moves.txt'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => {
      const [variant = '', legal = '0', , fen = ''] = l.split(/\s+/);
      return { variant, legal: Number(legal), fen };
    });
}

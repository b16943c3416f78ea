// Typed access to the WebAssembly build of the rules core and the engine (wasm/src/exports.cpp).
// The worker uses it in the browser; the unit tests use it directly under node, handing it the
// .wasm bytes. Every call is synchronous inside the module: an analysis blocks its thread until
// it ends, which is why it runs in a worker.

import createPapanModule, { type EmscriptenInit } from './generated/papan-engine.mjs';
import type { AnalysisLine, AnalysisResult, GameSpec, Limits, PdnGameJson, WasmGame } from './types';

export class EngineError extends Error {
  override name = 'EngineError';
}

export interface PapanModule {
  /** A game from a position and moves; replaces the module's game. */
  load(spec: GameSpec): WasmGame;
  /** The loaded game after one more move (a move text or a landing path). */
  play(move: string): WasmGame;
  undo(): WasmGame;
  /** {fen} (normalised) when a game can start from the position, else {error} saying why not */
  checkSetup(variant: string, fen: string): { fen: string } | { error: string };
  /** a fresh engine with this transposition table (MB) */
  resetEngine(hashMb: number): void;
  /** searches the loaded game's position; onInfo hears every completed depth of every line */
  analyse(limits: Limits, onInfo?: (line: AnalysisLine) => void): AnalysisResult;
  readPdn(text: string, defaultVariant: string): PdnGameJson[];
  /** the loaded game as PDN with these tags */
  writePdn(tags: [string, string][]): string;
}

function parse<T>(text: unknown): T {
  const v = JSON.parse(String(text)) as T | { error: string };
  if (typeof v === 'object' && v !== null && 'error' in v && typeof (v as { error: unknown }).error === 'string') {
    throw new EngineError((v as { error: string }).error);
  }
  return v as T;
}

/** Spec → the module's load arguments; one key per distinct position and history. */
export function specKey(s: GameSpec): string {
  return JSON.stringify([s.variant, s.fen, s.moves, s.forcedCapture, s.drawRules]);
}

export async function openModule(init: EmscriptenInit = {}): Promise<PapanModule> {
  let sink: ((line: AnalysisLine) => void) | undefined;
  const m = await createPapanModule({
    ...init,
    onInfo: (json: string) => sink?.(JSON.parse(json) as AnalysisLine),
  });
  const load = m.cwrap('papan_load', 'string', ['string', 'string', 'string', 'number', 'number']);
  const play = m.cwrap('papan_play', 'string', ['string']);
  const undo = m.cwrap('papan_undo', 'string', []);
  const checkSetup = m.cwrap('papan_check_setup', 'string', ['string', 'string']);
  const resetEngine = m.cwrap('papan_reset_engine', null, ['number']);
  const analyse = m.cwrap('papan_analyse', 'string', ['number', 'number', 'number', 'number']);
  const readPdn = m.cwrap('papan_read_pdn', 'string', ['string', 'string']);
  const writePdn = m.cwrap('papan_write_pdn', 'string', ['string']);
  return {
    load: (s) => parse<WasmGame>(load(s.variant, s.fen, s.moves.join(' '), s.forcedCapture ? 1 : 0, s.drawRules)),
    play: (move) => parse<WasmGame>(play(move)),
    undo: () => parse<WasmGame>(undo()),
    checkSetup: (variant, fen) => {
      try {
        return parse<{ fen: string }>(checkSetup(variant, fen));
      } catch (e) {
        if (e instanceof EngineError) return { error: e.message };
        throw e;
      }
    },
    resetEngine: (mb) => void resetEngine(mb),
    analyse: (limits, onInfo) => {
      sink = onInfo;
      try {
        return parse<AnalysisResult>(analyse(limits.depth ?? 0, limits.seconds ?? 0, limits.nodes ?? 0, limits.lines ?? 1));
      } finally {
        sink = undefined;
      }
    },
    readPdn: (text, v) => parse<{ games: PdnGameJson[] }>(readPdn(text, v)).games,
    writePdn: (tags) => parse<{ pdn: string }>(writePdn(tags.map(([k, v]) => `${k}\t${v.replace(/[\t\n]/g, ' ')}`).join('\n'))).pdn,
  };
}

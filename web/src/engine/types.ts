// The JSON the WebAssembly bindings answer with (wasm/src/session.cpp, game_json.cpp,
// analysis.cpp) and the messages between the page and the analysis worker (docs/web.md).

import type { Color } from '../board/geometry';

export interface WasmMove {
  from: number;
  to: number;
  /** from, then every landing square */
  path: number[];
  captures: number[];
  text: string;
}

export interface PlayedMove {
  ply: number;
  color: Color;
  text: string;
  path: number[];
  captures: number[];
}

export interface PiecesJson {
  white: number[];
  white_kings: number[];
  black: number[];
  black_kings: number[];
}

export interface WasmGame {
  variant: string;
  start_fen: string;
  fen: string;
  turn: Color;
  ply: number;
  position: PiecesJson;
  legal_moves: WasmMove[];
  capturers: number[];
  moves: PlayedMove[];
  /** fens[i] is the position before moves[i]; fens[ply] the current one */
  fens: string[];
  move_limits: { rule: string; text: string; moves_left: number; plies_left: number }[];
  result: { outcome: string; reason: string; text: string } | null;
}

/** One principal variation at one depth. Scores: hundredths of a man, side to move's view. */
export interface AnalysisLine {
  /** 1 = the best line */
  multipv: number;
  depth: number;
  seldepth: number;
  score: number;
  /** nodes and seconds of the whole analysis so far */
  nodes: number;
  seconds: number;
  nps: number;
  move: WasmMove | null;
  /** the line in the variant's notation */
  pv: string[];
}

export interface AnalysisResult {
  nodes: number;
  seconds: number;
  lines: AnalysisLine[];
}

export interface PdnGameJson {
  variant: string;
  start_fen: string;
  /** full landing paths, one per move */
  moves: string[];
  result: string;
  tags: [string, string][];
}

/** What a position is: a variant, a start FEN ('' = the start position), moves played. */
export interface GameSpec {
  variant: string;
  fen: string;
  /** move texts or landing paths ("32-28", "28x19x10") */
  moves: string[];
  forcedCapture: boolean;
  /** 0 standard, 1 American club, 2 Russian federation (the server's numbers) */
  drawRules: number;
}

export interface Limits {
  depth?: number;
  seconds?: number;
  nodes?: number;
  /** multi-PV, 1..3 */
  lines?: number;
}

/** Page → worker. Every request carries its own id; every answer names it. */
export type WorkerRequest =
  | { id: number; kind: 'load'; spec: GameSpec }
  | { id: number; kind: 'play'; spec: GameSpec; move: string }
  | { id: number; kind: 'analyse'; spec: GameSpec; limits: Limits }
  | { id: number; kind: 'checkSetup'; variant: string; fen: string }
  | { id: number; kind: 'readPdn'; text: string; defaultVariant: string }
  | { id: number; kind: 'writePdn'; spec: GameSpec; tags: [string, string][] };

/** Worker → page. */
export type WorkerReply =
  | { id: number; kind: 'ok'; value: unknown }
  | { id: number; kind: 'error'; message: string }
  | { id: number; kind: 'info'; line: AnalysisLine }
  | { id: 0; kind: 'ready' };

export const MATE_SCORE = 30000;
export const MATE_BOUND = 29000;

// Wire types of the game server (docs/protocol.md is the source of truth; these follow it and
// the server's JSON in server/src). One WebSocket carries JSON objects, each with a "type".
// Squares are numbers in the variant's numbering; paths are [from, landing, ...].

import type { Color, VariantMeta } from '../board/geometry';

// Every enum of the protocol as a closed union of its names (server/src/wire/names.cpp is the
// server's one table of them; docs/protocol.md lists them).
export type Mode = 'computer' | 'friend' | 'hotseat' | 'random' | 'imported';
export type Level = 'easy' | 'normal' | 'hard';
/** a game's level: "" in a game without a computer */
export type GameLevel = Level | '';
export type Status = 'waiting' | 'playing' | 'over';
/** "" when nobody won (reason aborted, abandoned, an unknown imported result) */
export type Outcome = 'white_wins' | 'black_wins' | 'draw' | '';
export type Reason =
  | 'no_pieces' | 'no_moves' | 'resignation' | 'timeout' | 'agreement' | 'repetition' | 'no_progress'
  | 'move_limit' | 'endgame_rule' | 'insufficient_material' | 'timeout_draw_claimable'
  | 'timeout_opponent_cannot_win' | 'aborted' | 'abandoned' | 'imported';
/** the draws the side to move may claim (American club rules) */
export type ClaimableDraw = 'repetition' | 'insufficient_material';
/** the draw rule sets a game may be created with, and their numbers in a game's options */
export type DrawRules = 'standard' | 'american_club' | 'russian_official';
export type DrawRulesNumber = 0 | 1 | 2;
export type TimeKind = 'byoyomi' | 'fischer';
export type NoProgressKind = 'no_capture_no_man_move' | 'kings_only_no_capture' | 'no_capture_no_crowning' | 'no_capture_no_man_advance';
export type EventKind =
  | 'start' | 'move' | 'undo' | 'resign' | 'draw_offer' | 'draw_decline' | 'draw_agreed' | 'draw_claimed'
  | 'flag' | 'abort' | 'rematch_offer' | 'takeback_offer' | 'takeback_decline' | 'rematch' | 'chat';
export type ErrorCode =
  | 'bad_json' | 'bad_message' | 'unknown_type' | 'hello_first' | 'bad_token' | 'bad_secret' | 'bad_variant'
  | 'bad_mode' | 'bad_level' | 'bad_color' | 'bad_options' | 'bad_fen' | 'unknown_game' | 'not_your_game'
  | 'not_your_turn' | 'not_started' | 'game_over' | 'illegal_move' | 'stale_ply' | 'bad_ply' | 'out_of_time'
  | 'undo_not_allowed' | 'nothing_to_undo' | 'takeback_not_allowed' | 'no_takeback_offer' | 'chat_not_allowed'
  | 'chat_too_long' | 'chat_empty' | 'chat_rate' | 'no_draw_offer' | 'already_offered' | 'no_claim'
  | 'game_not_over' | 'invite_invalid' | 'invite_expired' | 'invite_used' | 'refused' | 'shutting_down'
  | 'too_many_games' | 'too_many_creates' | 'unavailable' | 'store_unavailable' | 'internal';

/** The names of each union, checked against docs/protocol.md and the server (protocol.test.ts). */
export const DRAW_RULES = ['standard', 'american_club', 'russian_official'] as const satisfies readonly DrawRules[];
export function isDrawRules(v: unknown): v is DrawRules {
  return (DRAW_RULES as readonly unknown[]).includes(v);
}
export const STATUSES = ['waiting', 'playing', 'over'] as const satisfies readonly Status[];
export const OUTCOMES = ['white_wins', 'black_wins', 'draw', ''] as const satisfies readonly Outcome[];
export const REASONS = [
  'no_pieces', 'no_moves', 'resignation', 'timeout', 'agreement', 'repetition', 'no_progress', 'move_limit',
  'endgame_rule', 'insufficient_material', 'timeout_draw_claimable', 'timeout_opponent_cannot_win', 'aborted',
  'abandoned', 'imported',
] as const satisfies readonly Reason[];
export const EVENT_KINDS = [
  'start', 'move', 'undo', 'resign', 'draw_offer', 'draw_decline', 'draw_agreed', 'draw_claimed', 'flag', 'abort',
  'rematch_offer', 'takeback_offer', 'takeback_decline', 'rematch', 'chat',
] as const satisfies readonly EventKind[];
export const ERROR_CODES = [
  'bad_json', 'bad_message', 'unknown_type', 'hello_first', 'bad_token', 'bad_secret', 'bad_variant', 'bad_mode',
  'bad_level', 'bad_color', 'bad_options', 'bad_fen', 'unknown_game', 'not_your_game', 'not_your_turn',
  'not_started', 'game_over', 'illegal_move', 'stale_ply', 'bad_ply', 'out_of_time', 'undo_not_allowed',
  'nothing_to_undo', 'takeback_not_allowed', 'no_takeback_offer', 'chat_not_allowed', 'chat_too_long',
  'chat_empty', 'chat_rate', 'no_draw_offer', 'already_offered', 'no_claim', 'game_not_over', 'invite_invalid',
  'invite_expired', 'invite_used', 'refused', 'shutting_down', 'too_many_games', 'too_many_creates',
  'unavailable', 'store_unavailable', 'internal',
] as const satisfies readonly ErrorCode[];
// compile-time: each list names every member of its union
type Missing<U, L extends readonly unknown[]> = Exclude<U, L[number]>;
export const ENUM_LISTS_COMPLETE: [
  Missing<Status, typeof STATUSES>, Missing<Outcome, typeof OUTCOMES>, Missing<Reason, typeof REASONS>,
  Missing<EventKind, typeof EVENT_KINDS>, Missing<ErrorCode, typeof ERROR_CODES>,
] extends [never, never, never, never, never] ? true : never = true;

export interface TimeControlJson {
  kind: TimeKind;
  /** seconds */
  main: number;
  periods?: number;
  period?: number;
  increment?: number;
}

// ---- client -> server ------------------------------------------------------------------------

export type ClientMessage =
  | { type: 'hello'; id?: number; name?: string; secret?: string; token?: string }
  | {
      type: 'create';
      id?: number;
      mode: 'computer' | 'friend' | 'hotseat';
      variant: string;
      level?: Level;
      color?: Color | 'random';
      clock?: TimeControlJson | null;
      options?: { no_forced_capture?: boolean; draw_rules?: DrawRules };
      fen?: string;
      rated?: boolean;
    }
  | { type: 'join'; id?: number; invite: string; name?: string }
  | { type: 'resume'; id?: number; game: string; last_version?: number }
  | { type: 'move'; id?: number; game: string; ply: number; path: number[] }
  | { type: 'resign' | 'draw_offer' | 'draw_accept' | 'draw_decline' | 'draw_claim' | 'undo' | 'rematch'; id?: number; game: string }
  | { type: 'takeback_offer' | 'takeback_accept' | 'takeback_decline'; id?: number; game: string }
  | { type: 'chat'; id?: number; game: string; text: string }
  | { type: 'seek'; id?: number; variant: string; clock?: TimeControlJson | null; options?: { no_forced_capture?: boolean }; rated?: boolean }
  | { type: 'cancel_seek'; id?: number };

/** ClientMessage without the optional request id the socket adds. */
export type Outgoing = ClientMessage extends infer M ? (M extends { id?: number } ? Omit<M, 'id'> : never) : never;

// ---- server -> client ------------------------------------------------------------------------

export interface PlayerJson {
  id: string;
  name: string;
  computer: boolean;
  account: boolean;
  /** a computer player's strength; absent for a person */
  level?: Level;
}

export interface MoveJson {
  ply: number;
  color: Color;
  text: string;
  path: number[];
  captures: number[];
}

export interface LegalMoveJson {
  text: string;
  path: number[];
  captures: number[];
}

export interface ClockSideJson {
  main_ms: number;
  periods: number;
  period_ms: number;
}

export interface ClockJson {
  time_control: TimeControlJson;
  server_time_ms: number;
  white: ClockSideJson;
  black: ClockSideJson;
  /** null until both sides have made their first move (each side's first move is not timed) */
  running: Color | null;
  /** whether each side has made its first move (its clock runs from then on) */
  started: Record<Color, boolean>;
}

export interface MoveLimitJson {
  rule: string;
  /** what a no_progress rule counts; absent for the endgame rules */
  kind?: NoProgressKind;
  /** the rule's length in moves of each side */
  limit_moves: number;
  text: string;
  moves_left: number;
  plies_left: number;
}

export interface RatingChange {
  before: number;
  after: number;
}

export interface ResultJson {
  outcome: Outcome;
  reason: Reason;
  text: string;
  /** a rated game's ratings in its variant, before and after it (absent in casual games) */
  ratings?: Record<Color, RatingChange>;
}

/** A line of a game's chat (docs/protocol.md, "Chat"). */
export interface ChatLine {
  by: Color;
  /** plies played when it was written */
  ply: number;
  time_ms: number;
  text: string;
}

/** The chat's length limit (characters after trimming) and the lines a state keeps. */
export const CHAT_MAX = 200;
export const CHAT_LINES = 100;

export interface GameState {
  id: string;
  version: number;
  variant: string;
  variant_name: string;
  mode: Mode;
  level: GameLevel;
  status: Status;
  rated: boolean;
  options: { forced_capture: boolean; draw_rules: DrawRulesNumber };
  players: { white: PlayerJson | null; black: PlayerJson | null };
  start_fen: string;
  fen: string;
  turn: Color;
  ply: number;
  position: { white: number[]; white_kings: number[]; black: number[]; black_kings: number[] };
  legal_moves: LegalMoveJson[];
  capturers: number[];
  moves: MoveJson[];
  move_limits: MoveLimitJson[];
  claimable_draw: ClaimableDraw | null;
  draw_offer: Color | null;
  /** the side asking to take back a move (friend and random games that are not rated), or null */
  takeback_offer: Color | null;
  /** undo would take something back now (against the computer, or hot-seat) */
  undo_allowed: boolean;
  rematch: { white: boolean; black: boolean; game: string | null };
  /** the last CHAT_LINES lines of the chat, oldest first: friend and random games between people only */
  chat?: ChatLine[];
  clock: ClockJson | null;
  result: ResultJson | null;
}

export interface GameEvent {
  kind: EventKind;
  by?: Color;
  computer?: boolean;
  move?: MoveJson;
  game?: string;
  plies?: number;
  joined?: Color;
  /** chat: the line and when it was written */
  text?: string;
  time_ms?: number;
}

/** Every field of GameState, to check the client's reading against docs/protocol.md. */
export const GAME_STATE_FIELDS = [
  'id', 'version', 'variant', 'variant_name', 'mode', 'level', 'status', 'rated', 'options', 'players',
  'start_fen', 'fen', 'turn', 'ply', 'position', 'legal_moves', 'capturers', 'moves', 'move_limits',
  'claimable_draw', 'draw_offer', 'takeback_offer', 'undo_allowed', 'rematch', 'chat', 'clock', 'result',
] as const satisfies readonly (keyof GameState)[];
// compile-time: the list names every field of GameState
type MissingStateField = Exclude<keyof GameState, (typeof GAME_STATE_FIELDS)[number]>;
export const STATE_FIELDS_COMPLETE: [MissingStateField] extends [never] ? true : never = true;

/** Every field of ClockJson, checked against the state example of docs/protocol.md. */
export const CLOCK_FIELDS = ['time_control', 'server_time_ms', 'white', 'black', 'running', 'started'] as const satisfies readonly (keyof ClockJson)[];
type MissingClockField = Exclude<keyof ClockJson, (typeof CLOCK_FIELDS)[number]>;
export const CLOCK_FIELDS_COMPLETE: [MissingClockField] extends [never] ? true : never = true;

/** The message types the client sends and the ones it reads. */
export const CLIENT_TYPES = [
  'hello', 'create', 'join', 'resume', 'move', 'resign', 'draw_offer', 'draw_accept', 'draw_decline',
  'draw_claim', 'undo', 'rematch', 'seek', 'cancel_seek', 'takeback_offer', 'takeback_accept',
  'takeback_decline', 'chat',
] as const satisfies readonly ClientMessage['type'][];
export const SERVER_TYPES = [
  'welcome', 'created', 'state', 'event', 'resumed', 'seeking', 'seek_cancelled', 'paired', 'presence', 'error',
] as const;

export type ServerMessage =
  | { type: 'welcome'; ref?: number; player: { id: string; name: string; account: boolean }; secret?: string }
  | { type: 'created'; ref?: number; game: string; mode: Mode; invite?: string; link?: string; expires_ms?: number }
  | { type: 'state'; ref?: number; game: string; version: number; state: GameState }
  | { type: 'event'; game: string; version: number; event: GameEvent; state: GameState }
  | { type: 'resumed'; ref?: number; game: string; version: number }
  | { type: 'seeking'; ref?: number; variant: string; wait_ms: number }
  | { type: 'seek_cancelled'; cancelled: boolean }
  | { type: 'paired'; game: string; computer: boolean; level?: Level }
  | { type: 'presence'; game: string; present: { white: boolean; black: boolean } }
  | { type: 'error'; ref?: number; code: ErrorCode; message: string };

// ---- HTTP: POST /api/import (docs/protocol.md, "Importing PDN") ---------------------------------

export interface ImportedGameJson {
  /** 1-based position of the game in the file */
  game: number;
  id: string;
  variant: string;
  white: string;
  black: string;
  /** the PDN result in the variant's style ("2-0", "1/2-1/2", "*") */
  result: string;
  moves: number;
  /** "/#/game/ID": the review */
  link: string;
  api: string;
}

export interface RejectedGameJson {
  game: number;
  /** the move number of the error, 0 when it is not at a move */
  move: number;
  line: number;
  kind: string;
  reason: string;
}

/** 201 */
export interface ImportReply {
  encoding: string;
  games: number;
  stored: ImportedGameJson[];
  rejected: RejectedGameJson[];
}

/** 4xx/5xx; 422 no_good_games carries the rejected games too */
export interface ImportError {
  error: string;
  message: string;
  rejected?: RejectedGameJson[];
}

export interface VariantsResponse {
  variants: VariantMeta[];
}

/** Reads one server frame; null when it is not a JSON object with a string "type". */
/**
 * What changed in an event (docs/protocol.md, "Game state"): the state's fields that changed,
 * with their new values; the move list as `moves_keep` (moves of the state before that stay)
 * and `moves_add` (the moves after them); the chat's new lines as `chat_add`.
 */
export type StateDelta = Partial<Omit<GameState, 'moves'>> & { moves_keep?: number; moves_add?: MoveJson[]; chat_add?: ChatLine[] };

/** An event as the server sends it: the whole `state` (a start, or the first after a load) or a `delta`. */
export type WireEvent = { type: 'event'; game: string; version: number; event: GameEvent; state?: GameState; delta?: StateDelta };
/** A server message as it arrives; the Connection turns every event into one with its full state. */
export type WireMessage = Exclude<ServerMessage, { type: 'event' }> | WireEvent;

/** The state after an event: `delta` applied to the state of the version before it. */
export function applyDelta(base: GameState, delta: StateDelta): GameState | null {
  const { moves_keep: keep, moves_add: add, chat_add: chatAdd, ...fields } = delta;
  if ((keep === undefined) !== (add === undefined)) return null;
  if (keep !== undefined && (!Number.isInteger(keep) || keep < 0 || keep > base.moves.length || !Array.isArray(add))) return null;
  if (chatAdd !== undefined && (!Array.isArray(chatAdd) || !Array.isArray(base.chat))) return null;
  const moves = keep === undefined ? base.moves : base.moves.slice(0, keep).concat(add ?? []);
  const next = { ...base, ...fields, moves } as GameState;
  if (chatAdd !== undefined) next.chat = (base.chat ?? []).concat(chatAdd).slice(-CHAT_LINES);
  return next;
}

export function parseServerMessage(text: string): WireMessage | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null || typeof (v as { type?: unknown }).type !== 'string') return null;
  return v as WireMessage;
}

// Wire fields and messages the client is built for but the server does not send or accept yet
// (docs/issue13-server-needs.md). Kept apart from protocol.ts, which follows docs/protocol.md
// exactly; each moves there when the server has it. Every field is optional: the client shows
// what it showed before while it is missing.

import type { Color } from '../board/geometry';
import type { GameState, Outgoing } from './protocol';

export interface ChatLine {
  by: Color;
  ply: number;
  time_ms: number;
  text: string;
}

export interface ProposedState {
  /** D: the game's chat (the last lines); absent: no chat on the server */
  chat?: ChatLine[];
}

export type StateWithProposed = Omit<GameState, keyof ProposedState> & ProposedState;

export type ProposedMessage =
  | { type: 'takeback_offer' | 'takeback_accept' | 'takeback_decline'; game: string }
  | { type: 'chat'; game: string; text: string };

/** A proposed message as the socket's outgoing type (the server answers unknown_type until it has it). */
export const asOutgoing = (m: ProposedMessage): Outgoing => m as unknown as Outgoing;

/** The chat's length limit (characters after trimming). */
export const CHAT_MAX = 200;

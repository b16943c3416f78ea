// Between people (docs/protocol.md, "Commands", "Chat" and "Ratings and rewards"): takeback requests, chat with
// a per-player mute, hot-seat undo, and the rating changes of a rated result. Pure parts first
// (tested with fixtures); the panel below them.

import type { Color } from '../board/geometry';
import { CHAT_MAX, type ChatLine, type GameState } from '../net/protocol';
import { buttonsOf, type Seat } from './model';

export interface TakebackButtons {
  ask: boolean;
  answer: boolean;
  /** we asked and wait */
  waiting: boolean;
}

/** Takeback: friend and random games that are not rated, between people, once the server offers it. */
export function takebackButtons(s: GameState, seat: Seat): TakebackButtons {
  const none = { ask: false, answer: false, waiting: false };
  if (s.takeback_offer === undefined || s.status !== 'playing' || s.result || s.rated) return none;
  if (s.mode !== 'friend' && s.mode !== 'random') return none;
  const mine = seat.mine;
  if (mine !== 'white' && mine !== 'black') return none;
  if (s.players.white?.computer || s.players.black?.computer) return none;
  const offer = s.takeback_offer;
  return {
    ask: offer === null && s.moves.some((m) => m.color === mine),
    answer: offer !== null && offer !== mine,
    waiting: offer === mine,
  };
}

/** What the opponent asked for that waits for the player's answer. */
export type OfferKind = 'draw' | 'takeback';

/**
 * The opponent's draw offer and takeback request that the player can answer now, draw first: the
 * prompt with the answer buttons, which a phone keeps in sight over the page (game.ts).
 */
export function offersToAnswer(s: GameState, seat: Seat): OfferKind[] {
  const out: OfferKind[] = [];
  if (buttonsOf(s, seat, false).answerDraw) out.push('draw');
  if (takebackButtons(s, seat).answer) out.push('takeback');
  return out;
}

/** The offers that came with this state (not there before): said once in the live region. */
export function newOffers(prev: GameState | null, next: GameState, seat: Seat): OfferKind[] {
  const before = prev ? offersToAnswer(prev, seat) : [];
  return offersToAnswer(next, seat).filter((k) => !before.includes(k));
}

/** Undo: against the computer as before; in hot-seat when the server says it may be done now. */
export function undoAllowed(s: GameState, seat: Seat): boolean {
  const playing = s.status === 'playing' && !s.result && seat.mine !== null && s.moves.length > 0;
  if (!playing) return false;
  if (s.mode === 'computer') return true;
  return s.mode === 'hotseat' && s.undo_allowed === true;
}

/** Chat: shown in friend and random games between people once the server keeps it; players write. */
export function chatShown(s: GameState): boolean {
  return s.chat !== undefined && (s.mode === 'friend' || s.mode === 'random') && !s.players.white?.computer && !s.players.black?.computer;
}

export function chatWritable(s: GameState, seat: Seat): boolean {
  return chatShown(s) && (seat.mine === 'white' || seat.mine === 'black');
}

/** The lines to show: those of muted players left out. */
export function visibleChat(s: GameState, muted: (playerId: string) => boolean): ChatLine[] {
  return (s.chat ?? []).filter((l) => {
    const id = s.players[l.by]?.id;
    return !id || !muted(id);
  });
}

/** A chat text as sent: trimmed, cut to the limit; null when nothing is left. */
export function chatText(raw: string): string | null {
  const t = raw.trim().slice(0, CHAT_MAX);
  return t === '' ? null : t;
}

export interface RatingLine {
  color: Color;
  name: string;
  after: number;
  delta: number;
}

/** "Ann 1216 (+16)": each side's rating after a rated game and its change. */
export function ratingLines(s: GameState): RatingLine[] {
  const r = s.result?.ratings;
  if (!r) return [];
  return (['white', 'black'] as const).flatMap((c) => {
    const x = r[c];
    const p = s.players[c];
    return x && p ? [{ color: c, name: p.name, after: Math.round(x.after), delta: Math.round(x.after - x.before) }] : [];
  });
}

export function signed(n: number): string {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '±0';
}

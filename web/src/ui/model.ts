// Pure view-model of the game page: from the server's state and who we are to what the page
// shows (orientation, who may move, buttons, move rows, clocks, the move-limit counter).
// No DOM here, so all of it is tested in Node.

import type { Color } from '../board/geometry';
import { maybeKey, type UiKey } from '../i18n';
import type { ClockJson, ClockSideJson, GameState, MoveJson, MoveLimitJson, ResultJson, TimeControlJson } from '../net/protocol';

export interface Seat {
  /** our colour, or null when we only watch; hot-seat: 'both' */
  mine: Color | 'both' | null;
}

export function seatOf(s: GameState, playerId: string | null): Seat {
  if (s.mode === 'hotseat') return { mine: 'both' };
  if (playerId && s.players.white?.id === playerId) return { mine: 'white' };
  if (playerId && s.players.black?.id === playerId) return { mine: 'black' };
  return { mine: null };
}

/** The side shown at the bottom: ours; White in hot-seat and for spectators. */
export function orientationOf(seat: Seat): Color {
  return seat.mine === 'black' ? 'black' : 'white';
}

/** The side whose pieces the user may move now. */
export function movableOf(s: GameState, seat: Seat): Color | null {
  if (s.status !== 'playing' || s.result) return null;
  if (seat.mine === 'both') return s.turn;
  return seat.mine === s.turn ? s.turn : null;
}

export interface Buttons {
  resign: boolean;
  offerDraw: boolean;
  answerDraw: boolean;
  claimDraw: boolean;
  undo: boolean;
  rematch: boolean;
  copyLink: boolean;
  pdn: boolean;
}

export function buttonsOf(s: GameState, seat: Seat, hasLink: boolean): Buttons {
  const playing = s.status === 'playing' && !s.result;
  const player = seat.mine !== null;
  const actor: Color | null = seat.mine === 'both' ? s.turn : seat.mine;
  return {
    resign: playing && player,
    offerDraw: playing && player && s.mode !== 'hotseat' && s.draw_offer === null,
    answerDraw: playing && player && s.draw_offer !== null && s.draw_offer !== actor,
    claimDraw: playing && player && s.claimable_draw !== null && actor === s.turn,
    undo: playing && s.mode === 'computer' && player && s.moves.length > 0,
    rematch: s.status === 'over' && player && s.rematch.game === null,
    copyLink: s.mode === 'friend' && hasLink && s.status === 'waiting',
    pdn: s.status === 'over',
  };
}

export interface MoveRow {
  number: number;
  first: MoveJson | null;
  second: MoveJson | null;
}

/** Moves two to a row, numbered; a game that starts with the second side leaves a gap. */
export function moveRows(moves: readonly MoveJson[], firstToMove: Color): MoveRow[] {
  const rows: MoveRow[] = [];
  let row: MoveRow | null = null;
  for (const m of moves) {
    const isFirst = m.color === firstToMove;
    if (isFirst || row === null || row.second !== null) {
      row = { number: rows.length + 1, first: null, second: null };
      rows.push(row);
    }
    if (isFirst) row.first = m;
    else row.second = m;
  }
  return rows;
}

export interface ClockShow {
  main_ms: number;
  periods: number;
  period_ms: number;
  /** in byo-yomi (main time used up) */
  overtime: boolean;
  flagged: boolean;
}

/** One side's clock `elapsed` ms after the server's snapshot (only the running side runs). */
export function clockAt(tc: TimeControlJson, side: ClockSideJson, elapsed: number): ClockShow {
  if (tc.kind === 'fischer') {
    const main = Math.max(0, side.main_ms - elapsed);
    return { main_ms: main, periods: 0, period_ms: 0, overtime: false, flagged: main <= 0 };
  }
  const period = Math.round((tc.period ?? 0) * 1000);
  if (side.main_ms > elapsed) {
    return { main_ms: side.main_ms - elapsed, periods: side.periods, period_ms: side.period_ms, overtime: false, flagged: false };
  }
  let rest = elapsed - side.main_ms;
  let periods = side.periods;
  let left = side.main_ms > 0 ? period : side.period_ms;
  while (periods > 0 && rest >= left) {
    rest -= left;
    periods -= 1;
    left = period;
  }
  if (periods <= 0) return { main_ms: 0, periods: 0, period_ms: 0, overtime: true, flagged: true };
  return { main_ms: 0, periods, period_ms: left - rest, overtime: true, flagged: false };
}

export function clocksAt(c: ClockJson, elapsed: number): Record<Color, ClockShow> {
  return {
    white: clockAt(c.time_control, c.white, c.running === 'white' ? elapsed : 0),
    black: clockAt(c.time_control, c.black, c.running === 'black' ? elapsed : 0),
  };
}

/** m:ss, or s.d under ten seconds. */
export function formatMs(ms: number): string {
  const t = Math.max(0, ms);
  if (t < 10_000) return (Math.floor(t / 100) / 10).toFixed(1);
  const s = Math.ceil(t / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** The move-limit counter to show: the nearest limit when at most `near` moves are left. */
export function nearLimit(s: GameState, near = 10): MoveLimitJson | null {
  let best: MoveLimitJson | null = null;
  for (const l of s.move_limits) {
    if (l.moves_left <= near && (!best || l.moves_left < best.moves_left)) best = l;
  }
  return best;
}

/**
 * The name of a draw counter's rule: with its kind and length ("25-move rule: only kings moved,
 * no capture"), else by its key ("one king against two"), else the server's English text.
 */
export function limitRuleName(t: (key: UiKey, params?: Record<string, string | number>) => string, l: MoveLimitJson): string {
  const kindKey = l.kind ? maybeKey(`limit_kind_${l.kind}`) : null;
  if (kindKey) return t(kindKey, { n: l.limit_moves });
  const ruleKey = maybeKey(`limit_${l.rule}`);
  return ruleKey ? t(ruleKey) : l.text;
}

/** The computer's reply is shown no sooner than this after the player's move. */
export const MIN_REPLY_MS = 400;

/**
 * How long to hold back a move event before showing it: a computer's reply that comes within
 * MIN_REPLY_MS of the player's move waits for the rest; anything else is shown at once.
 */
export function revealDelay(computerMove: boolean, sentAt: number | null, now: number, min = MIN_REPLY_MS): number {
  if (!computerMove || sentAt === null) return 0;
  return Math.max(0, min - (now - sentAt));
}

/** The orientation shown: the seat's, turned for the side to move in hot-seat if asked, flipped by the button. */
export function shownOrientation(seat: Seat, turn: Color, autoTurn: boolean, flipped: boolean): Color {
  const base: Color = seat.mine === 'both' && autoTurn ? turn : orientationOf(seat);
  return flipped ? (base === 'white' ? 'black' : 'white') : base;
}

/** The side that may choose a premove now: the player's, on the opponent's turn of a clocked game. */
export function premoveSideOf(s: GameState, seat: Seat): Color | null {
  if (s.status !== 'playing' || s.result || !s.clock) return null;
  if (seat.mine !== 'white' && seat.mine !== 'black') return null;
  return s.turn === seat.mine ? null : seat.mine;
}

/**
 * The computer's level when random pairing gave us the computer because no one was waiting
 * (a random game whose other seat is a computer, docs/protocol.md "Starting games"), so the page
 * can say so while the game is on; null otherwise (and for spectators and finished games).
 */
export function pairedComputerLevel(s: GameState, seat: Seat): string | null {
  if (s.mode !== 'random' || s.result || (seat.mine !== 'white' && seat.mine !== 'black')) return null;
  const other = s.players[seat.mine === 'white' ? 'black' : 'white'];
  if (!other?.computer) return null;
  return other.level || s.level || '';
}

/**
 * In a timed game, before the player's own first move: their clock does not run yet (each
 * side's first move is not timed, docs/protocol.md "Clocks"), so the page says so. False for
 * spectators, hot-seat, untimed and finished games, and once the player has moved.
 */
export function clockStartsWithFirstMove(s: GameState, seat: Seat): boolean {
  if (s.status !== 'playing' || s.result || !s.clock) return false;
  if (seat.mine !== 'white' && seat.mine !== 'black') return false;
  return s.clock.started?.[seat.mine] === false;
}

type T = (key: UiKey, params?: Record<string, string | number>) => string;

/**
 * The result line in the player's language: "You won — White wins (resignation)", "Draw (by
 * agreement)", "Game aborted (no first move in time)"; the server's English text stands in for a
 * reason the client has no words for. A seated player is told whether they won or lost.
 */
export function resultWords(t: T, r: ResultJson, mine: Seat['mine']): string {
  let head: string;
  if (r.outcome === '') {
    // nobody won: an aborted game, or one without a known result (abandoned, imported "*")
    head = t(r.reason === 'aborted' ? 'result_aborted' : 'result_unknown');
  } else {
    head = t(maybeKey(`result_${r.outcome}`) ?? 'result_draw');
  }
  if ((mine === 'white' || mine === 'black') && (r.outcome === 'white_wins' || r.outcome === 'black_wins')) {
    head = t(r.outcome.startsWith(mine) ? 'youWon' : 'youLost') + ` — ${head}`;
  }
  const reasonKey = maybeKey(`reason_${r.reason}`);
  return `${head} (${reasonKey ? t(reasonKey) : r.text})`;
}

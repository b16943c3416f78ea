import { describe, expect, it } from 'vitest';
import { format } from '../i18n';
import type { GameState, MoveJson } from '../net/protocol';
import { fieldProblems, serverProblem } from './account';
import { moveAnnouncement } from './announce';
import { attentionTitle, iconHref } from './attention';
import { MIN_REPLY_MS, premoveSideOf, revealDelay, shownOrientation, type ClockShow } from './model';
import { displayName } from './names';
import { lowTimeCrossed, soundsFor } from './sound';
import { resolveTheme } from './theme';

function game(over: Partial<GameState> = {}): GameState {
  return {
    id: 'g1', version: 1, variant: 'russian', variant_name: 'Russian draughts', mode: 'friend', level: '', status: 'playing', rated: false,
    options: { forced_capture: true, draw_rules: 0 },
    players: { white: { id: 'a', name: 'Ann', computer: false, account: false }, black: { id: 'b', name: 'Bob', computer: false, account: false } },
    start_fen: '', fen: '', turn: 'white', ply: 0,
    position: { white: [21, 22], white_kings: [], black: [9, 10], black_kings: [] },
    legal_moves: [], capturers: [], moves: [], move_limits: [], claimable_draw: null, draw_offer: null, takeback_offer: null, undo_allowed: false,
    rematch: { white: false, black: false, game: null }, clock: null, result: null, ...over,
  };
}
const mv = (ply: number, color: 'white' | 'black', path: number[], captures: number[] = [], text = path.join('-')): MoveJson => ({ ply, color, text, path, captures });
const t = (k: Parameters<typeof format>[1], p?: Record<string, string | number>): string => format('en', k, p);

describe('sounds and words for a change of the game', () => {
  const before = game();
  it('a move, a capture, a crowning, the end', () => {
    const moved = game({ moves: [mv(0, 'white', [22, 18])], position: { white: [21, 18], white_kings: [], black: [9, 10], black_kings: [] } });
    expect(soundsFor(before, moved)).toEqual(['move']);
    expect(moveAnnouncement(before, moved, t)).toBe('White: 22-18');
    const took = game({ moves: [mv(0, 'white', [22, 13], [18], '22x13')] });
    expect(soundsFor(before, took)).toEqual(['capture']);
    expect(moveAnnouncement(before, took, t)).toBe('White: 22x13, takes 1');
    const crowned = game({ moves: [mv(0, 'white', [22, 4])], position: { white: [21], white_kings: [4], black: [9, 10], black_kings: [] } });
    expect(soundsFor(before, crowned)).toEqual(['promotion']);
    expect(moveAnnouncement(before, crowned, t)).toBe('White: 22-4, crowned');
    const ended = game({ moves: [mv(0, 'white', [22, 18])], result: { outcome: 'white_wins', reason: 'resignation', text: '' } });
    expect(soundsFor(before, ended)).toEqual(['move', 'end']);
  });
  it('nothing for a first sight of a game, a resumed state or an undo', () => {
    expect(soundsFor(null, game())).toEqual([]);
    expect(soundsFor(game(), game())).toEqual([]);
    expect(soundsFor(game({ moves: [mv(0, 'white', [22, 18]), mv(1, 'black', [9, 13])] }), game({ moves: [] }))).toEqual([]);
    expect(moveAnnouncement(null, game(), t)).toBeNull();
  });
  it('low time: once when the running stage goes under 10 s', () => {
    const c = (main_ms: number, overtime = false, period_ms = 0, periods = 3): ClockShow => ({ main_ms, periods, period_ms, overtime, flagged: false });
    expect(lowTimeCrossed(c(10_100), c(9_900))).toBe(true);
    expect(lowTimeCrossed(c(9_900), c(9_800))).toBe(false);
    expect(lowTimeCrossed(c(0, true, 10_050, 2), c(0, true, 9_950, 2))).toBe(true);
    // a new period starts at 30 s: going under 10 s in it warns again
    expect(lowTimeCrossed(c(0, true, 9_000, 3), c(0, true, 9_900, 2))).toBe(true);
    expect(lowTimeCrossed(c(30_000), c(29_000))).toBe(false);
  });
});

describe('the computer\'s reply is shown no sooner than 400 ms after the player\'s move', () => {
  it('holds an early computer move for the rest of the time, nothing else', () => {
    expect(MIN_REPLY_MS).toBe(400);
    expect(revealDelay(true, 1000, 1050)).toBe(350);
    expect(revealDelay(true, 1000, 1500)).toBe(0);
    expect(revealDelay(false, 1000, 1050)).toBe(0);
    expect(revealDelay(true, null, 1050)).toBe(0);
  });
});

describe('orientation and premoves', () => {
  it('flips, and turns for the side to move in hot-seat when asked', () => {
    expect(shownOrientation({ mine: 'black' }, 'white', false, false)).toBe('black');
    expect(shownOrientation({ mine: 'black' }, 'white', false, true)).toBe('white');
    expect(shownOrientation({ mine: 'both' }, 'black', false, false)).toBe('white');
    expect(shownOrientation({ mine: 'both' }, 'black', true, false)).toBe('black');
    expect(shownOrientation({ mine: 'both' }, 'black', true, true)).toBe('white');
  });
  it('takes a premove only on the opponent\'s turn of a clocked game', () => {
    const clock = { time_control: { kind: 'byoyomi' as const, main: 300 }, server_time_ms: 0, white: { main_ms: 1, periods: 0, period_ms: 0 }, black: { main_ms: 1, periods: 0, period_ms: 0 }, running: 'black' as const, started: { white: true, black: true } };
    expect(premoveSideOf(game({ turn: 'black', clock }), { mine: 'white' })).toBe('white');
    expect(premoveSideOf(game({ turn: 'white', clock }), { mine: 'white' })).toBeNull();
    expect(premoveSideOf(game({ turn: 'black' }), { mine: 'white' })).toBeNull();
    expect(premoveSideOf(game({ turn: 'black', clock, mode: 'hotseat' }), { mine: 'both' })).toBeNull();
  });
});

describe('names, title, theme, sign-in problems', () => {
  it('names computers by level in lower case, and translates Guest', () => {
    expect(displayName(t, { name: 'Computer (easy)', computer: true })).toBe('Computer (easy)');
    expect(displayName((k, p) => format('id', k, p), { name: 'Computer (hard)', computer: true })).toBe('Komputer (sulit)');
    expect(displayName(t, { name: 'Computer', computer: true }, 'normal')).toBe('Computer (normal)');
    expect(displayName(t, { name: 'Lucas', computer: true }, 'easy')).toBe('Lucas');
    expect(displayName((k, p) => format('id', k, p), { name: 'Guest', account: false })).toBe('Tamu');
    expect(displayName(t, { name: 'Guest', account: true })).toBe('Guest');
    // the server names an unnamed guest "" (docs/protocol.md, "Identity"): each language has its word
    expect(displayName(t, { name: '', account: false })).toBe('Guest');
    expect(displayName((k, p) => format('id', k, p), { name: '', account: false })).toBe('Tamu');
    // the computer of a game against it, as the server names it in PDN and game lists, in both languages
    expect(displayName(t, { name: 'Computer (normal)', computer: true })).toBe('Computer (normal)');
    expect(displayName((k, p) => format('id', k, p), { name: 'Computer (easy)', computer: true })).toBe('Komputer (mudah)');
  });
  it('marks the title and the icon', () => {
    expect(attentionTitle('Papan', 'Your turn')).toBe('● Your turn · Papan');
    expect(iconHref(true)).toContain('e0301e');
    expect(iconHref(false)).not.toContain('e0301e');
  });
  it('follows the system unless a theme was chosen', () => {
    expect(resolveTheme(null, true)).toBe('dark');
    expect(resolveTheme(null, false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
  });
  it('lists every problem of the form, and the server\'s', () => {
    expect(fieldProblems('', '').map((p) => p.key)).toEqual(['err_username_empty', 'err_password_empty']);
    expect(fieldProblems('a b', 'short').map((p) => p.key)).toEqual(['err_username_form', 'err_password_form']);
    expect(fieldProblems('ann_1', 'correct horse')).toEqual([]);
    expect(serverProblem(409, 'username_taken', null).key).toBe('err_username_taken');
    expect(serverProblem(429, 'too_many_attempts', '42').params).toEqual({ s: 42 });
    expect(serverProblem(500, undefined, null).key).toBe('err_server');
  });
});

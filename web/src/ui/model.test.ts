import { describe, expect, it } from 'vitest';
import type { ClockJson, GameState, MoveJson, MoveLimitJson, PlayerJson, ResultJson } from '../net/protocol';
import { format, type UiKey } from '../i18n';
import { buttonsOf, clockAt, clockStartsWithFirstMove, formatMs, limitRuleName, movableOf, moveRows, nearLimit, orientationOf, pairedComputerLevel, resultWords, seatOf } from './model';

function game(over: Partial<GameState> = {}): GameState {
  return {
    id: 'g1', version: 1, variant: 'russian', variant_name: 'Russian draughts', mode: 'friend', level: '', status: 'playing', rated: false,
    options: { forced_capture: true, draw_rules: 0 },
    players: { white: { id: 'a', name: 'Ana', computer: false, account: false }, black: { id: 'b', name: 'Budi', computer: false, account: false } },
    start_fen: 'W:W21-32:B1-12', fen: 'W:W21-32:B1-12', turn: 'white', ply: 0,
    position: { white: [], white_kings: [], black: [], black_kings: [] },
    legal_moves: [], capturers: [], moves: [], move_limits: [], claimable_draw: null, draw_offer: null, takeback_offer: null, undo_allowed: false,
    rematch: { white: false, black: false, game: null }, clock: null, result: null,
    ...over,
  };
}

describe('game view model', () => {
  it('seats us, flips for Black, shows White in hot-seat', () => {
    expect(seatOf(game(), 'b')).toEqual({ mine: 'black' });
    expect(orientationOf(seatOf(game(), 'b'))).toBe('black');
    expect(orientationOf(seatOf(game({ mode: 'hotseat' }), 'a'))).toBe('white');
    expect(seatOf(game(), 'zz')).toEqual({ mine: null });
  });

  it('lets only the side to move move, both sides in hot-seat, nobody when over', () => {
    expect(movableOf(game(), { mine: 'white' })).toBe('white');
    expect(movableOf(game(), { mine: 'black' })).toBeNull();
    expect(movableOf(game({ turn: 'black' }), { mine: 'both' })).toBe('black');
    expect(movableOf(game({ status: 'over' }), { mine: 'white' })).toBeNull();
  });

  it('offers the buttons that fit the game', () => {
    const b = buttonsOf(game({ draw_offer: 'black' }), { mine: 'white' }, false);
    expect(b).toMatchObject({ resign: true, offerDraw: false, answerDraw: true, undo: false, rematch: false, pdn: false });
    const c = buttonsOf(game({ mode: 'computer', moves: [{} as MoveJson] }), { mine: 'white' }, false);
    expect(c.undo).toBe(true);
    const over = buttonsOf(game({ status: 'over' }), { mine: 'white' }, true);
    expect(over).toMatchObject({ resign: false, rematch: true, pdn: true, copyLink: false });
    expect(buttonsOf(game({ status: 'waiting' }), { mine: 'white' }, true).copyLink).toBe(true);
    expect(buttonsOf(game({ claimable_draw: 'repetition' }), { mine: 'white' }, false).claimDraw).toBe(true);
  });

  it('numbers moves in pairs, with a gap when the second side starts', () => {
    const m = (ply: number, color: 'white' | 'black'): MoveJson => ({ ply, color, text: `m${ply}`, path: [], captures: [] });
    const rows = moveRows([m(0, 'black'), m(1, 'white'), m(2, 'black')], 'black');
    expect(rows.map((r) => [r.number, r.first?.text, r.second?.text])).toEqual([[1, 'm0', 'm1'], [2, 'm2', undefined]]);
    const gap = moveRows([m(0, 'black'), m(1, 'white')], 'white');
    expect(gap.map((r) => [r.first?.text, r.second?.text])).toEqual([[undefined, 'm0'], ['m1', undefined]]);
  });

  it('runs a byo-yomi clock through main time and periods', () => {
    const tc = { kind: 'byoyomi' as const, main: 300, periods: 3, period: 30 };
    const side = { main_ms: 10_000, periods: 3, period_ms: 30_000 };
    expect(clockAt(tc, side, 4_000)).toMatchObject({ main_ms: 6_000, periods: 3, overtime: false });
    expect(clockAt(tc, side, 15_000)).toMatchObject({ main_ms: 0, periods: 3, period_ms: 25_000, overtime: true });
    expect(clockAt(tc, side, 45_000)).toMatchObject({ periods: 2, period_ms: 25_000 });
    expect(clockAt(tc, side, 100_001)).toMatchObject({ flagged: true });
    const inPeriod = { main_ms: 0, periods: 2, period_ms: 12_000 };
    expect(clockAt(tc, inPeriod, 13_000)).toMatchObject({ periods: 1, period_ms: 29_000 });
  });

  it('runs a Fischer clock and formats times', () => {
    const tc = { kind: 'fischer' as const, main: 180, increment: 2 };
    expect(clockAt(tc, { main_ms: 5_000, periods: 0, period_ms: 0 }, 6_000).flagged).toBe(true);
    expect(formatMs(300_000)).toBe('5:00');
    expect(formatMs(61_500)).toBe('1:02');
    expect(formatMs(9_950)).toBe('9.9');
  });

  it('shows the move-limit counter only when it is near', () => {
    expect(nearLimit(game({ move_limits: [{ rule: 'no_progress', kind: 'kings_only_no_capture', limit_moves: 25, text: 'x', moves_left: 30, plies_left: 60 }] }))).toBeNull();
    const near = nearLimit(game({ move_limits: [
      { rule: 'a', limit_moves: 16, text: 'a', moves_left: 9, plies_left: 18 },
      { rule: 'b', limit_moves: 5, text: 'b', moves_left: 4, plies_left: 8 },
    ] }));
    expect(near?.rule).toBe('b');
  });

  it('names the draw rule by its kind and length, else by its key, else by the server\'s text', () => {
    const en = (k: Parameters<typeof format>[1], p?: Record<string, string | number>) => format('en', k, p);
    const id = (k: Parameters<typeof format>[1], p?: Record<string, string | number>) => format('id', k, p);
    const intl: MoveLimitJson = { rule: 'no_progress', kind: 'kings_only_no_capture', limit_moves: 25, text: '25 moves each with only kings moved and no capture', moves_left: 3, plies_left: 5 };
    expect(limitRuleName(en, intl)).toBe('25-move rule: only kings moved, no capture');
    expect(limitRuleName(id, intl)).toBe('aturan 25 langkah: hanya raja bergerak, tanpa makan');
    expect(limitRuleName(en, { ...intl, kind: 'no_capture_no_man_move', limit_moves: 40 })).toBe('40-move rule: no capture, no man moved');
    expect(limitRuleName(en, { rule: 'king_vs_two', limit_moves: 5, text: 'x', moves_left: 2, plies_left: 4 })).toBe('one king against two');
    expect(limitRuleName(en, { rule: 'something_new', limit_moves: 5, text: 'the server says', moves_left: 2, plies_left: 4 })).toBe('the server says');
  });
});

describe('random pairing that gave the computer', () => {
  const ai: PlayerJson = { id: 'ai', name: 'Sari', computer: true, account: false, level: 'normal' };
  const me = { id: 'a', name: 'Ana', computer: false, account: false };
  it('names the computer\'s level to the player it was paired with', () => {
    expect(pairedComputerLevel(game({ mode: 'random', players: { white: me, black: ai } }), { mine: 'white' })).toBe('normal');
    expect(pairedComputerLevel(game({ mode: 'random', players: { white: { ...ai, level: 'hard' }, black: me } }), { mine: 'black' })).toBe('hard');
    // a computer seat without its own level: the game's
    expect(pairedComputerLevel(game({ mode: 'random', level: 'easy', players: { white: me, black: { ...ai, level: undefined } } }), { mine: 'white' })).toBe('easy');
  });
  it('says nothing for a person, a chosen computer game, a spectator or a finished game', () => {
    expect(pairedComputerLevel(game({ mode: 'random' }), { mine: 'white' })).toBeNull();
    expect(pairedComputerLevel(game({ mode: 'computer', players: { white: me, black: ai } }), { mine: 'white' })).toBeNull();
    expect(pairedComputerLevel(game({ mode: 'random', players: { white: me, black: ai } }), { mine: null })).toBeNull();
    const over: ResultJson = { outcome: 'draw', reason: 'agreement', text: 'Draw' };
    expect(pairedComputerLevel(game({ mode: 'random', players: { white: me, black: ai }, result: over }), { mine: 'white' })).toBeNull();
  });
});

describe('clocks that start with each side\'s first move, and the aborted result', () => {
  const clock = (started: ClockJson['started'], running: ClockJson['running'] = null): ClockJson => ({
    time_control: { kind: 'byoyomi', main: 300, periods: 3, period: 30 }, server_time_ms: 0,
    white: { main_ms: 300_000, periods: 3, period_ms: 30_000 }, black: { main_ms: 300_000, periods: 3, period_ms: 30_000 },
    running, started,
  });

  it('tells each player, until their own first move, that their clock starts with it', () => {
    const before = game({ clock: clock({ white: false, black: false }) });
    expect(clockStartsWithFirstMove(before, { mine: 'white' })).toBe(true);
    expect(clockStartsWithFirstMove(before, { mine: 'black' })).toBe(true);
    const whiteMoved = game({ turn: 'black', clock: clock({ white: true, black: false }) });
    expect(clockStartsWithFirstMove(whiteMoved, { mine: 'white' })).toBe(false);
    expect(clockStartsWithFirstMove(whiteMoved, { mine: 'black' })).toBe(true);
    const both = game({ clock: clock({ white: true, black: true }, 'white') });
    expect(clockStartsWithFirstMove(both, { mine: 'white' })).toBe(false);
    expect(clockStartsWithFirstMove(both, { mine: 'black' })).toBe(false);
    // never to a spectator, in an untimed game, before the friend came, or after the end
    expect(clockStartsWithFirstMove(before, { mine: null })).toBe(false);
    expect(clockStartsWithFirstMove(game(), { mine: 'white' })).toBe(false);
    expect(clockStartsWithFirstMove({ ...before, status: 'waiting' }, { mine: 'white' })).toBe(false);
    expect(clockStartsWithFirstMove({ ...before, status: 'over', result: { outcome: '', reason: 'aborted', text: '' } }, { mine: 'white' })).toBe(false);
  });

  it('says the note in English and Indonesian', () => {
    expect(format('en', 'clockStartsWithFirstMove')).toBe('Your clock starts with your first move.');
    expect(format('id', 'clockStartsWithFirstMove')).toBe('Waktumu mulai berjalan setelah langkah pertamamu.');
  });

  it('words an aborted game in both languages, with no winner or loser', () => {
    const aborted: ResultJson = { outcome: '', reason: 'aborted', text: 'Aborted: White made no first move in time' };
    const en = (k: UiKey, p?: Record<string, string | number>) => format('en', k, p);
    const id = (k: UiKey, p?: Record<string, string | number>) => format('id', k, p);
    expect(resultWords(en, aborted, 'white')).toBe('Game aborted (no first move in time)');
    expect(resultWords(en, aborted, 'black')).toBe('Game aborted (no first move in time)');
    expect(resultWords(id, aborted, null)).toBe('Permainan dibatalkan (langkah pertama tidak dibuat tepat waktu)');
    // an ordinary ending still says who won, to the players
    const resigned: ResultJson = { outcome: 'white_wins', reason: 'resignation', text: 'White wins: Black resigned' };
    expect(resultWords(en, resigned, 'black')).toBe('You lost — White wins (resignation)');
    expect(resultWords(en, resigned, null)).toBe('White wins (resignation)');
    expect(resultWords(id, { outcome: '', reason: 'abandoned', text: '' }, 'white')).toBe('Hasil tidak diketahui (lama tidak dimainkan)');
  });
});

// Fixtures in the shape of docs/protocol.md (takebacks, chat, ratings).
import { describe, expect, it } from 'vitest';
import type { GameState } from '../net/protocol';
import { chatShown, chatText, chatWritable, newOffers, offersToAnswer, ratingLines, signed, takebackButtons, undoAllowed, visibleChat } from './social';

function state(over: Partial<GameState> = {}): GameState {
  return {
    id: 'g', version: 5, variant: 'russian', variant_name: '', mode: 'friend', level: '', status: 'playing', rated: false,
    options: { forced_capture: true, draw_rules: 0 },
    players: { white: { id: 'a', name: 'Ann', computer: false, account: true }, black: { id: 'b', name: 'Bob', computer: false, account: true } },
    start_fen: '', fen: '', turn: 'white', ply: 2, position: { white: [], white_kings: [], black: [], black_kings: [] },
    legal_moves: [], capturers: [],
    moves: [{ ply: 0, color: 'white', text: 'c3-d4', path: [22, 18], captures: [] }, { ply: 1, color: 'black', text: 'b6-a5', path: [9, 13], captures: [] }],
    move_limits: [], claimable_draw: null, draw_offer: null, takeback_offer: null, undo_allowed: false, rematch: { white: false, black: false, game: null }, clock: null, result: null,
    ...over,
  };
}

describe('takeback (friend and random games, not rated)', () => {
  it('asks, answers and waits', () => {
    expect(takebackButtons(state({ takeback_offer: null }), { mine: 'white' })).toEqual({ ask: true, answer: false, waiting: false });
    expect(takebackButtons(state({ takeback_offer: 'black' }), { mine: 'white' })).toEqual({ ask: false, answer: true, waiting: false });
    expect(takebackButtons(state({ takeback_offer: 'white' }), { mine: 'white' })).toEqual({ ask: false, answer: false, waiting: true });
  });
  it('is not offered in rated, computer or hot-seat games, to spectators, or by a server without it', () => {
    const none = { ask: false, answer: false, waiting: false };
    const older: Partial<GameState> = state(); // a server without takebacks sends no field
    delete older.takeback_offer;
    expect(takebackButtons(older as GameState, { mine: 'white' })).toEqual(none);
    expect(takebackButtons(state({ takeback_offer: null, rated: true }), { mine: 'white' })).toEqual(none);
    expect(takebackButtons(state({ takeback_offer: null, mode: 'hotseat' }), { mine: 'both' })).toEqual(none);
    expect(takebackButtons(state({ takeback_offer: null }), { mine: null })).toEqual(none);
    const vsComputer = state({ takeback_offer: null, mode: 'random', players: { white: { id: 'a', name: 'Ann', computer: false, account: true }, black: { id: 'ai', name: 'Lucas', computer: true, account: false, level: 'easy' } } });
    expect(takebackButtons(vsComputer, { mine: 'white' })).toEqual(none);
  });
  it('hot-seat undo once the server allows it', () => {
    expect(undoAllowed(state({ mode: 'hotseat' }), { mine: 'both' })).toBe(false);
    expect(undoAllowed(state({ mode: 'hotseat', undo_allowed: true }), { mine: 'both' })).toBe(true);
    expect(undoAllowed(state({ mode: 'computer' }), { mine: 'white' })).toBe(true);
    expect(undoAllowed(state({ mode: 'friend', undo_allowed: true }), { mine: 'white' })).toBe(false);
  });
});

describe('the opponent\'s offers to answer (the prompt kept in sight on a phone)', () => {
  it('lists the draw offer and the takeback request of the opponent, not one\'s own, nor to spectators', () => {
    expect(offersToAnswer(state(), { mine: 'white' })).toEqual([]);
    expect(offersToAnswer(state({ draw_offer: 'black' }), { mine: 'white' })).toEqual(['draw']);
    expect(offersToAnswer(state({ draw_offer: 'black', takeback_offer: 'black' }), { mine: 'white' })).toEqual(['draw', 'takeback']);
    expect(offersToAnswer(state({ draw_offer: 'white', takeback_offer: 'white' }), { mine: 'white' })).toEqual([]);
    expect(offersToAnswer(state({ draw_offer: 'black', takeback_offer: 'black' }), { mine: null })).toEqual([]);
    expect(offersToAnswer(state({ draw_offer: 'black', result: { outcome: 'draw', reason: 'agreement', text: '' }, status: 'over' }), { mine: 'white' })).toEqual([]);
  });
  it('says an offer once, when it comes', () => {
    const offered = state({ takeback_offer: 'black' });
    expect(newOffers(state(), offered, { mine: 'white' })).toEqual(['takeback']);
    expect(newOffers(offered, state({ takeback_offer: 'black', version: 6 }), { mine: 'white' })).toEqual([]);
    expect(newOffers(offered, state({ takeback_offer: 'black', draw_offer: 'black' }), { mine: 'white' })).toEqual(['draw']);
    expect(newOffers(null, offered, { mine: 'white' })).toEqual(['takeback']); // a page opened on it
  });
});

describe('chat', () => {
  const chat = [
    { by: 'white' as const, ply: 0, time_ms: 1, text: 'good luck' },
    { by: 'black' as const, ply: 1, time_ms: 2, text: 'you too' },
  ];
  it('is shown where the server keeps it, writable by players, and hides a muted player', () => {
    expect(chatShown(state())).toBe(false);
    expect(chatShown(state({ chat }))).toBe(true);
    expect(chatShown(state({ chat, mode: 'hotseat' }))).toBe(false);
    expect(chatWritable(state({ chat }), { mine: null })).toBe(false);
    expect(chatWritable(state({ chat }), { mine: 'black' })).toBe(true);
    expect(visibleChat(state({ chat }), (id) => id === 'b').map((l) => l.text)).toEqual(['good luck']);
  });
  it('sends trimmed text of at most 200 characters, nothing when empty', () => {
    expect(chatText('  hi  ')).toBe('hi');
    expect(chatText('   ')).toBeNull();
    expect(chatText('x'.repeat(250))?.length).toBe(200);
  });
});

describe('ratings in the result banner', () => {
  it('shows each side\'s new rating and its change', () => {
    const s = state({ rated: true, status: 'over', result: { outcome: 'white_wins', reason: 'resignation', text: '', ratings: { white: { before: 1200, after: 1216 }, black: { before: 1200, after: 1184 } } } });
    expect(ratingLines(s).map((r) => `${r.name} ${r.after} (${signed(r.delta)})`)).toEqual(['Ann 1216 (+16)', 'Bob 1184 (−16)']);
    expect(ratingLines(state({ status: 'over', result: { outcome: 'draw', reason: 'agreement', text: '' } }))).toEqual([]);
  });
});

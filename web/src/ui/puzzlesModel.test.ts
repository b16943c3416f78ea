import { describe, expect, it } from 'vitest';
import { amountWord, countWord, explainWrong, fromSquare, parsePuzzleHash, PuzzleMemory, solverMoves, type PuzzleJson } from './puzzlesModel';
import { pt, themeName } from './puzzlesText';

const puzzle: PuzzleJson = {
  id: 'p0123456789ab',
  variant: 'international',
  fen: 'W:W27,28,32,33,37,38:B12,13,17,18,21,22',
  color: 'white',
  solution: ['28-23', '18x29', '27x16'],
  themes: ['shot'],
  rating: 1400,
  deviation: 350,
  plays: 0,
  solved: 0,
  source: 'selfplay:1:0:12',
  proof: { depth: 12, score: 180, second: -40, horizon: 3, baseline: 0, proven: 200, alternative: -100 },
  wrong: [
    { step: 0, move: '33-29', reply: '22x24', captured: 3, crowns: false, value: -300 },
    { step: 0, move: '32-27', reply: '21x41', captured: 2, crowns: true, value: -500 },
    { step: 0, move: '37-31', reply: '17-22', captured: 0, crowns: false, value: 0 },
  ],
};

describe('puzzle routes', () => {
  it('reads variant, mode and id', () => {
    expect(parsePuzzleHash('#/puzzles')).toEqual({ variant: null, mode: 'rated', id: null });
    expect(parsePuzzleHash('#/puzzles/turkish')).toEqual({ variant: 'turkish', mode: 'rated', id: null });
    expect(parsePuzzleHash('#/puzzles/russian/daily')).toEqual({ variant: 'russian', mode: 'daily', id: null });
    expect(parsePuzzleHash('#/puzzles/pool/streak')).toEqual({ variant: 'pool', mode: 'streak', id: null });
    expect(parsePuzzleHash('#/puzzles/pool/p0123456789ab')).toEqual({ variant: 'pool', mode: 'rated', id: 'p0123456789ab' });
  });
});

describe('wrong moves explained', () => {
  it('says what the reply captures, in the opponent’s name, and what it costs', () => {
    const e = explainWrong('en', puzzle, 0, '33-29');
    expect(e.reply).toBe('22x24');
    expect(e.text).toBe('This lets Black capture three. You would lose three men.');
  });
  it('says a crowning with the capture', () => {
    expect(explainWrong('en', puzzle, 0, '32-27').text).toBe('This lets Black capture two and crown a king. You would lose five men.');
  });
  it('says that a quiet wrong move wins nothing, and what the key wins', () => {
    expect(explainWrong('en', puzzle, 0, '37-31').text).toBe('It wins nothing; the right move wins two men.');
  });
  it('says when a wrong move wins less than the key', () => {
    const less: PuzzleJson = { ...puzzle, wrong: [{ step: 0, move: '38-33', reply: '17-21', captured: 0, crowns: false, value: 100 }] };
    expect(explainWrong('en', less, 0, '38-33').text).toBe('It wins only a man; the right move wins two men.');
  });
  it('speaks Indonesian', () => {
    expect(explainWrong('id', puzzle, 0, '33-29').text).toBe('Langkah ini membuat Hitam bisa memakan tiga. Anda akan kehilangan tiga bidak.');
  });
  it('has a plain answer for a move it does not list', () => {
    expect(explainWrong('en', puzzle, 2, '32-28')).toEqual({ reply: null, text: 'That is not the winning move.' });
  });
});

describe('puzzle words', () => {
  it('counts in words up to five', () => {
    expect(countWord('en', 1)).toBe('one');
    expect(countWord('id', 4)).toBe('empat');
    expect(countWord('en', 7)).toBe('7');
    expect(amountWord('en', -100)).toBe('a man');
    expect(amountWord('id', 200)).toBe('dua bidak');
  });
  it('names themes and fills placeholders', () => {
    expect(themeName('en', 'shot')).toBe('Shot');
    expect(themeName('id', 'breakthrough')).toBe('Terobosan');
    expect(themeName('en', 'unknown')).toBe('unknown');
    expect(pt('en', 'yourRating', { rating: 1523 })).toBe('Your puzzle rating: 1523');
  });
  it('takes the solver’s moves and the from square', () => {
    expect(solverMoves(puzzle)).toEqual(['28-23', '27x16']);
    expect(fromSquare('27x16')).toBe('27');
    expect(fromSquare('c3:e5')).toBe('c3');
    expect(fromSquare('d3xd5')).toBe('d3');
  });
});

describe('what the browser keeps', () => {
  const storage = (): { getItem(k: string): string | null; setItem(k: string, v: string): void; removeItem(k: string): void } => {
    const m = new Map<string, string>();
    return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v), removeItem: (k) => void m.delete(k) };
  };
  it('keeps the rating per variant and the best streak only when it grows', () => {
    const mem = new PuzzleMemory(storage());
    expect(mem.rating('thai')).toBeNull();
    mem.setRating({ variant: 'thai', rating: 1530, deviation: 290, attempts: 1, solved: 1, best_streak: 0 });
    expect(mem.rating('thai')?.rating).toBe(1530);
    expect(mem.rating('czech')).toBeNull();
    mem.setBestStreak('thai', 4);
    mem.setBestStreak('thai', 2);
    expect(mem.bestStreak('thai')).toBe(4);
    expect(mem.adopted('ana')).toBe(false);
    mem.setAdopted('ana');
    expect(mem.adopted('ana')).toBe(true);
  });
});

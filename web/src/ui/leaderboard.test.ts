import { describe, expect, it } from 'vitest';
import { leaderboardVariant, type RatedVariant } from './leaderboard';

const keys = ['international', 'russian', 'czech', 'american'];
const known = (k: string): boolean => keys.includes(k);
const listed: RatedVariant[] = [
  { variant: 'russian', players: 12 },
  { variant: 'czech', players: 3 },
];

describe('the variant the leaderboard opens on', () => {
  it('is the lobby\'s variant when it has rated players', () => {
    expect(leaderboardVariant(listed, 'czech', known, 'international')).toBe('czech');
    expect(leaderboardVariant(listed, 'russian', known, 'international')).toBe('russian');
  });
  it('is otherwise the first listed (most players), whatever the lobby is on', () => {
    expect(leaderboardVariant(listed, 'international', known, 'international')).toBe('russian');
    expect(leaderboardVariant(listed, null, known, 'international')).toBe('russian');
    expect(leaderboardVariant([{ variant: 'czech', players: 3 }, { variant: 'russian', players: 12 }], 'american', known, 'international')).toBe('czech');
  });
  it('skips variants the client does not know, and rows without players', () => {
    expect(leaderboardVariant([{ variant: 'frisian', players: 40 }, { variant: 'czech', players: 3 }], 'american', known, 'international')).toBe('czech');
    expect(leaderboardVariant([{ variant: 'russian', players: 0 }, { variant: 'czech', players: 3 }], 'russian', known, 'international')).toBe('czech');
  });
  it('is the lobby\'s variant (or the first variant) when nobody is rated yet', () => {
    expect(leaderboardVariant([], 'czech', known, 'international')).toBe('czech');
    expect(leaderboardVariant([], null, known, 'international')).toBe('international');
    expect(leaderboardVariant([], 'frisian', known, 'international')).toBe('international');
  });
});

import { describe, expect, it } from 'vitest';
import { gameRow, historyOf, parseProfile, ratedVariants } from './profile';
import fixture from './testdata/profile.json';

const profile = parseProfile(fixture);

describe('player profile', () => {
  it('reads the route\'s shape and refuses another', () => {
    expect(profile.user.username).toBe('ann');
    expect(() => parseProfile({ error: 'not_found' })).toThrow(/not a player profile/);
  });

  it('orders variants by games and the history by time', () => {
    expect(ratedVariants(profile)).toEqual(['international', 'russian']);
    expect(historyOf(profile, 'international').map((h) => h.rating)).toEqual([1216, 1199]);
  });

  it('shows each game from the player\'s side', () => {
    const rows = profile.games.map((g) => gameRow(g, profile.user));
    expect(rows.map((r) => [r.color, r.opponent?.name, r.result])).toEqual([
      ['black', 'bob', 'loss'],
      ['white', 'bob', 'win'],
      ['white', 'Computer (easy)', 'draw'],
      ['black', 'cy', 'playing'],
    ]);
    expect(rows[2]?.opponent).toMatchObject({ computer: true, account: false });
    expect(rows[1]?.opponent?.account).toBe(true);
    expect(rows[3]?.opponent?.account).toBe(false); // a guest has no profile
    // the rated rows carry the rating change the server sends; casual ones none
    expect(rows.map((r) => r.ratingChange)).toEqual([-17, 16, null, null]);
  });
});

// A player's profile (GET /api/players/{name}, docs/protocol.md) as the page shows it: ratings
// per variant, the rating history of one variant, and the games from the player's side.

export interface ProfileRating {
  rating: number;
  games: number;
  wins: number;
  losses: number;
  draws: number;
}

export interface ProfileHistory {
  variant: string;
  game: string;
  rating: number;
  change: number;
  at_ms: number;
}

export interface GameSummary {
  id: string;
  variant: string;
  mode: string;
  status: string;
  white: { id: string; name: string; computer: boolean } | null;
  black: { id: string; name: string; computer: boolean } | null;
  outcome: string;
  reason: string;
  result_text: string;
  rated: boolean;
  created_ms: number;
  /** a signed-in player's rated game: what it did to the player's rating */
  rating_change?: number;
}

export interface PlayerProfile {
  user: { id: string; username: string };
  created_ms: number;
  ratings: Record<string, ProfileRating>;
  history: ProfileHistory[];
  games: GameSummary[];
}

export type SideResult = 'win' | 'loss' | 'draw' | 'playing' | 'imported';

export interface GameRow {
  id: string;
  variant: string;
  color: 'white' | 'black' | null;
  /** account: the opponent has a profile (a signed-in player, id "u<N>"; guests are "g…") */
  opponent: { name: string; computer: boolean; account: boolean } | null;
  result: SideResult;
  rated: boolean;
  created_ms: number;
  /** the change of the player's rating by this game (rated games of a signed-in player) */
  ratingChange: number | null;
  /** a game the player imported from a PDN file: its players, the player in neither seat */
  imported: { white: string; black: string } | null;
}

/** Which seat of `g` is the profile's player (by id, else by name, ignoring case). */
export function seatOf(g: GameSummary, user: PlayerProfile['user']): 'white' | 'black' | null {
  for (const c of ['white', 'black'] as const) {
    const p = g[c];
    if (p && !p.computer && p.id === user.id) return c;
  }
  const name = user.username.toLowerCase();
  for (const c of ['white', 'black'] as const) {
    const p = g[c];
    if (p && !p.computer && p.name.toLowerCase() === name) return c;
  }
  return null;
}

export function gameRow(g: GameSummary, user: PlayerProfile['user']): GameRow {
  const color = seatOf(g, user);
  const other = color === 'white' ? g.black : color === 'black' ? g.white : null;
  let result: SideResult = 'playing';
  if (g.status === 'over') {
    if (g.outcome === 'draw') result = 'draw';
    else if (color && g.outcome === `${color}_wins`) result = 'win';
    else if (color && (g.outcome === 'white_wins' || g.outcome === 'black_wins')) result = 'loss';
    else result = 'draw';
  }
  const imported = g.mode === 'imported' ? { white: g.white?.name ?? '?', black: g.black?.name ?? '?' } : null;
  if (imported) result = 'imported';
  return { id: g.id, variant: g.variant, color, opponent: other ? { name: other.name, computer: other.computer, account: !other.computer && /^u\d+$/.test(other.id) } : null, result, rated: g.rated, created_ms: g.created_ms, ratingChange: typeof g.rating_change === 'number' ? g.rating_change : null, imported };
}

/** The rating changes of one variant, oldest first. */
export function historyOf(p: PlayerProfile, variant: string): ProfileHistory[] {
  return p.history.filter((h) => h.variant === variant).sort((a, b) => a.at_ms - b.at_ms);
}

/** The variants with a rating, most games first (ties by name). */
export function ratedVariants(p: PlayerProfile): string[] {
  return Object.entries(p.ratings)
    .sort(([a, x], [b, y]) => y.games - x.games || (a < b ? -1 : 1))
    .map(([k]) => k);
}

/** Reads the route's JSON; throws on a shape that is not a profile. */
export function parseProfile(v: unknown): PlayerProfile {
  const p = v as Partial<PlayerProfile> | null;
  if (!p || typeof p !== 'object' || !p.user || typeof p.user.username !== 'string' || typeof p.ratings !== 'object' || !Array.isArray(p.history) || !Array.isArray(p.games)) {
    throw new Error('not a player profile');
  }
  return p as PlayerProfile;
}

// The leaderboard page (#/leaderboard[/KEY]): the top ratings of a variant. Without a variant in
// the address it opens on the lobby's variant when that has rated players, otherwise on the
// variant with the most (GET /api/leaderboard without `variant` lists them, most players first).

import type { AppCtx, View } from './context';
import { h } from './dom';

/** One row of GET /api/leaderboard without `variant`. */
export interface RatedVariant {
  variant: string;
  players: number;
}

type Board = { players?: { username: string; rating: number; games: number }[] };

/**
 * The variant the leaderboard opens on: the lobby's when it has rated players, else the first of
 * `listed` (most players first) that the client knows, else the lobby's (or `fallback`) to say
 * nobody is rated yet.
 */
export function leaderboardVariant(listed: readonly RatedVariant[], lobby: string | null, known: (key: string) => boolean, fallback: string): string {
  const rated = listed.filter((v) => v.players > 0 && known(v.variant));
  if (lobby && known(lobby) && rated.some((v) => v.variant === lobby)) return lobby;
  return rated[0]?.variant ?? (lobby && known(lobby) ? lobby : fallback);
}

export function leaderboardView(ctx: AppCtx, root: HTMLElement, key: string | null): View {
  const lobbyVariant = typeof ctx.prefs.lobby['variant'] === 'string' ? (ctx.prefs.lobby['variant'] as string) : null;
  const known = (k: string): boolean => ctx.variant(k) !== undefined;
  const fallback = ctx.variants[0]?.key ?? 'international';
  const asked = key && known(key) ? key : null;
  const table = h('div', {}, ctx.t('loading'));
  const nav = h('nav', { class: 'rules-nav', 'aria-label': ctx.t('variant') });
  const section = h('section', { class: 'card leaderboard', 'data-test': 'leaderboard' }, h('h1', {}, ctx.t('leaderboard')), nav, table);
  root.replaceChildren(section);
  const showNav = (variant: string): void => {
    section.dataset['variant'] = variant;
    nav.replaceChildren(...ctx.variants.map((v) => h('a', { href: `#/leaderboard/${v.key}`, class: v.key === variant ? 'active' : '', 'aria-current': v.key === variant ? 'page' : undefined }, ctx.variantName(v.key))));
  };
  if (asked) showNav(asked);
  let alive = true;
  const getJson = <T>(url: string): Promise<T> =>
    fetch(url).then((r) => {
      if (!r.ok) throw new Error(`${url}: ${r.status}`);
      return r.json() as Promise<T>;
    });
  const load = async (): Promise<void> => {
    let variant = asked;
    if (!variant) {
      const listed = await getJson<{ variants?: RatedVariant[] }>('/api/leaderboard');
      variant = leaderboardVariant(listed.variants ?? [], lobbyVariant, known, fallback);
    }
    const body = await getJson<Board>(`/api/leaderboard?variant=${encodeURIComponent(variant)}`);
    if (!alive) return;
    showNav(variant);
    const players = body.players ?? [];
    table.replaceChildren(
      players.length === 0
        ? h('p', { class: 'muted' }, ctx.t('nobodyYet'))
        : h(
            'table',
            {},
            h('caption', { class: 'sr-only' }, `${ctx.t('leaderboard')}: ${ctx.variantName(variant)}`),
            h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, '#'), h('th', { scope: 'col' }, ctx.t('player')), h('th', { scope: 'col' }, ctx.t('rating')), h('th', { scope: 'col' }, ctx.t('games')))),
            h('tbody', {}, ...players.map((p, i) => h('tr', {}, h('td', {}, i + 1), h('td', {}, h('a', { href: `#/player/${encodeURIComponent(p.username)}`, 'data-test': 'leaderboard-player' }, p.username)), h('td', {}, Math.round(p.rating)), h('td', {}, p.games)))),
          ),
    );
  };
  load().catch((err: Error) => {
    if (alive) table.textContent = ctx.t('error', { message: err.message });
  });
  return { destroy: () => void (alive = false) };
}

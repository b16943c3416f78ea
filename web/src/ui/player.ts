// A player's profile (#/player/NAME): ratings per variant, the rating history of a variant as an
// SVG chart, and the player's games, each linking to its review. The data: GET /api/players/NAME
// (docs/protocol.md); the shaping is analysis/profile.ts.

import { gameRow, historyOf, parseProfile, ratedVariants, type PlayerProfile } from '../analysis/profile';
import { polyline, ratingSeries, svgEl } from './charts';
import type { AppCtx, View } from './context';
import { h } from './dom';
import { importPanel } from './importPdn';
import { displayName } from './names';
import { signed } from './social';

export const playerLink = (name: string): string => `#/player/${encodeURIComponent(name)}`;

function date(ctx: AppCtx, ms: number): string {
  return new Date(ms).toLocaleDateString(ctx.lang === 'id' ? 'id-ID' : 'en-GB', { year: 'numeric', month: 'short', day: 'numeric' });
}

export function playerView(ctx: AppCtx, root: HTMLElement, name: string): View {
  let alive = true;
  root.replaceChildren(h('section', { class: 'card profile', 'data-test': 'profile-loading' }, ctx.t('loading')));
  fetch(`/api/players/${encodeURIComponent(name)}`)
    .then(async (r) => {
      if (r.status === 404) return null;
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      return parseProfile(await r.json());
    })
    .then((p) => {
      if (!alive) return;
      if (!p) {
        root.replaceChildren(h('section', { class: 'card profile' }, h('p', { class: 'banner error', 'data-test': 'no-player' }, ctx.t('noSuchPlayer', { name }))));
        return;
      }
      render(p);
    })
    .catch((err: Error) => {
      if (alive) root.replaceChildren(h('p', { class: 'banner error' }, ctx.t('error', { message: err.message })));
    });

  function render(p: PlayerProfile): void {
    const variants = ratedVariants(p);
    let chosen = variants.find((v) => historyOf(p, v).length > 0) ?? variants[0] ?? null;
    const chart = h('div', { class: 'rating-chart', 'data-test': 'rating-chart' });
    const tabs = h('nav', { class: 'rules-nav' });
    const drawChart = (): void => {
      tabs.replaceChildren(...variants.filter((v) => historyOf(p, v).length > 0).map((v) =>
        h('a', { href: '#', class: v === chosen ? 'active' : '', 'data-test': `chart-${v}`, onclick: (e: Event) => { e.preventDefault(); chosen = v; drawChart(); } }, ctx.variantName(v))));
      const hist = chosen ? historyOf(p, chosen) : [];
      if (hist.length === 0) {
        chart.replaceChildren(h('p', { class: 'muted' }, ctx.t('noRatedGames')));
        return;
      }
      const W = 600;
      const H = 200;
      const L = 44;
      const s = ratingSeries(hist, W - L - 8, H);
      const svg = svgEl('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': `${ctx.t('ratingHistory')}: ${ctx.variantName(chosen ?? '')}`, class: 'rating-svg' });
      for (const t of s.ticks) {
        svg.append(svgEl('line', { x1: L, y1: t.y, x2: W, y2: t.y, class: 'grid' }));
        const label = svgEl('text', { x: L - 6, y: t.y + 4, class: 'tick', 'text-anchor': 'end' });
        label.textContent = String(t.value);
        svg.append(label);
      }
      const pts = s.points.map((q) => ({ x: q.x + L, y: q.y }));
      svg.append(svgEl('path', { d: polyline(pts), class: 'rating-line', 'data-test': 'rating-line' }));
      const first = hist[0];
      const before = first ? first.rating - first.change : 0;
      pts.forEach((q, i) => {
        const hi = hist[i - 1]; // point 0 is the rating before the first game
        // a game's point names its game (data-game); the starting point has none
        const dot = svgEl('circle', { cx: q.x, cy: q.y, r: 4, class: 'rating-dot', 'data-test': 'rating-dot', ...(hi ? { 'data-game': hi.game } : {}) });
        const tip = svgEl('title', {});
        tip.textContent = hi ? `${hi.rating} (${hi.change >= 0 ? '+' : ''}${hi.change}) · ${date(ctx, hi.at_ms)}` : String(before);
        dot.append(tip);
        svg.append(dot);
      });
      chart.replaceChildren(svg);
    };

    const ratingRows = variants.map((v) => {
      const r = p.ratings[v] ?? { rating: 0, games: 0, wins: 0, losses: 0, draws: 0 };
      return h('tr', { 'data-test': `rating-${v}` }, h('td', {}, ctx.variantName(v)), h('td', { class: 'num' }, Math.round(r.rating)), h('td', { class: 'num' }, r.games), h('td', { class: 'num' }, `${r.wins} / ${r.losses} / ${r.draws}`));
    });
    const games = p.games.map((g) => gameRow(g, p.user));
    root.replaceChildren(
      h('section', { class: 'card profile', 'data-test': 'profile', 'data-player': p.user.username },
        h('h1', {}, p.user.username),
        h('p', { class: 'muted' }, ctx.t('memberSince', { date: date(ctx, p.created_ms) })),
        variants.length === 0
          ? h('p', { class: 'muted' }, ctx.t('noRatedGames'))
          : h('table', { class: 'ratings' },
              h('thead', {}, h('tr', {}, h('th', {}, ctx.t('variant')), h('th', {}, ctx.t('rating')), h('th', {}, ctx.t('games')), h('th', {}, ctx.t('winsLossesDraws')))),
              h('tbody', {}, ...ratingRows)),
        // one's own profile: import games from a PDN file
        ctx.prefs.token && ctx.prefs.username?.toLowerCase() === p.user.username.toLowerCase() ? importPanel(ctx, ctx.prefs.token) : null,
        h('h3', {}, ctx.t('ratingHistory')),
        tabs,
        chart,
        h('h3', {}, ctx.t('games')),
        games.length === 0
          ? h('p', { class: 'muted' }, ctx.t('noMoves'))
          : h('table', { class: 'game-table', 'data-test': 'profile-games' },
              h('thead', {}, h('tr', {}, h('th', {}, ctx.t('date')), h('th', {}, ctx.t('variant')), h('th', {}, ctx.t('opponent')), h('th', {}, ctx.t('result')), h('th', {}, ''))),
              h('tbody', {}, ...games.map((g) =>
                h('tr', { 'data-test': 'profile-game', 'data-game': g.id, 'data-result': g.result },
                  h('td', {}, date(ctx, g.created_ms)),
                  h('td', {}, ctx.variantName(g.variant), g.rated ? h('span', { class: 'muted' }, ` · ${ctx.t('ratedShort')}`) : null),
                  h('td', {}, g.imported ? `${g.imported.white} – ${g.imported.black}` : !g.opponent ? '—' : g.opponent.account ? h('a', { href: playerLink(g.opponent.name), 'data-test': 'opponent-link' }, g.opponent.name) : displayName(ctx.t, g.opponent)),
                  h('td', { class: `result-${g.result}` }, ctx.t(`side_result_${g.result}`), g.ratingChange !== null ? h('span', { class: 'muted', 'data-test': 'rating-change' }, ` (${signed(g.ratingChange)})`) : null),
                  h('td', {}, h('a', { href: `#/game/${g.id}`, 'data-test': 'review-link' }, ctx.t('reviewLink'))))))),
      ),
    );
    drawChart();
  }

  return { destroy: () => void (alive = false) };
}

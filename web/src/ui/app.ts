// The application shell: header (title, menu, language switch), the connection banner and a
// hash router: #/ lobby, #/game/ID, #join=TOKEN (the server's friend link), #/rules[/KEY],
// #/leaderboard[/KEY], #/analysis[/KEY][?fen=FEN], #/player/NAME. The analysis board and the
// profile are loaded when first opened (their own chunks; the analysis board brings the engine).

import type { VariantMeta } from '../board/geometry';
import { format, LANGS, messages, pickLanguage, type Lang } from '../i18n';
import type { GameState, VariantsResponse } from '../net/protocol';
import { Connection, socketUrl } from '../net/socket';
import type { AppCtx, View } from './context';
import { h } from './dom';
import { gameView } from './game';
import { joinView, lobbyView } from './lobby';
import { browserStorage, Prefs } from './prefs';
import { leaderboardView } from './leaderboard';
import { rulesView } from './rules';
import { finishView, loadAuthConfig, NO_AUTH, type AuthConfig } from './signin';
import { inviteOf, startTelegram, telegramSession } from './telegram';
import { applyTheme, toggleTheme, watchSystemTheme } from './theme';

/** The #/analysis route's variant and FEN ("#/analysis/russian?fen=W:W21-32:B1-12"). */
export function parseAnalysisHash(hash: string): { variant: string | null; fen: string | null } {
  const m = /^#\/analysis(?:\/([\w-]+))?\/?(?:\?(.*))?$/.exec(hash);
  if (!m) return { variant: null, fen: null };
  const fen = new URLSearchParams(m[2] ?? '').get('fen');
  return { variant: m[1] ?? null, fen: fen && fen.trim() ? fen.trim() : null };
}

/** A page from a chunk loaded on first use; leaving before it arrives cancels it. */
function lazyView(root: HTMLElement, loading: string, load: () => Promise<(root: HTMLElement) => View>): View {
  let inner: View | null = null;
  let gone = false;
  root.replaceChildren(h('p', { class: 'card' }, loading));
  load().then(
    (mount) => {
      if (!gone) inner = mount(root);
    },
    (err: Error) => {
      if (!gone) root.replaceChildren(h('p', { class: 'banner error' }, err.message));
    },
  );
  return {
    destroy: () => {
      gone = true;
      inner?.destroy();
    },
  };
}

export async function startApp(root: HTMLElement): Promise<void> {
  const prefs = new Prefs(browserStorage());
  // Opened by Telegram: its launch data signs the player in before the socket says hello.
  const telegram = await startTelegram();
  // Inside Telegram the words follow the Telegram user's language until one is chosen here.
  let lang: Lang = pickLanguage(prefs.storedLang, telegram?.launch.language ? [telegram.launch.language] : (navigator.languages ?? [navigator.language]));
  const games = new Map<string, GameState>();
  const conn = new Connection({
    url: socketUrl(location),
    identity: () => {
      const token = prefs.token;
      const secret = prefs.secret;
      // an unnamed guest says no name: the server keeps it empty and every page names it in its language
      return { name: prefs.username ?? prefs.nickname, ...(token ? { token } : {}), ...(secret ? { secret } : {}) };
    },
    onSecret: (s) => (prefs.secret = s),
  });
  conn.onMessage((m) => {
    // a session token the server no longer knows: sign out and say hello as a guest
    if (m.type === 'error' && m.code === 'bad_token') {
      prefs.token = null;
      prefs.username = null;
      conn.close();
      conn.connect();
    }
  });

  const header = h('header', { class: 'top' });
  const connBanner = h('div', { class: 'conn-banner', 'data-test': 'conn-banner', hidden: true });
  const main = h('main', { id: 'main' });
  root.replaceChildren(header, connBanner, main);

  let variants: VariantMeta[] = [];
  let auth: AuthConfig = NO_AUTH;
  let view: View | null = null;

  const ctx: AppCtx = {
    get lang() {
      return lang;
    },
    t: (key, params) => format(lang, key, params),
    msgs: () => messages(lang),
    prefs,
    conn,
    get variants() {
      return variants;
    },
    variant: (key) => variants.find((v) => v.key === key),
    games,
    navigate: (hash) => {
      if (location.hash === hash) route();
      else location.hash = hash;
    },
    variantName: (key) => messages(lang).variantNames[key] ?? variants.find((v) => v.key === key)?.name ?? key,
    get auth() {
      return auth;
    },
    telegram,
  };

  document.body.dataset['look'] = prefs.look;
  applyTheme(prefs);
  telegram?.applyTheme(); // inside Telegram its colours win
  watchSystemTheme(prefs, () => renderHeader());

  function renderHeader(): void {
    document.documentElement.lang = lang;
    document.title = `Papan — ${format(lang, 'tagline')}`;
    header.replaceChildren(
      h('a', { class: 'brand', href: '#/' }, h('span', { class: 'logo', 'aria-hidden': 'true' }), h('span', { class: 'brand-name' }, 'Papan')),
      h('nav', { class: 'menu' },
        h('a', { href: '#/', 'data-test': 'nav-play' }, ctx.t('play')),
        h('a', { href: '#/rules', 'data-test': 'nav-rules' }, ctx.t('rules')),
        h('a', { href: '#/analysis', 'data-test': 'nav-analysis' }, ctx.t('analysis')),
        h('a', { href: '#/leaderboard', 'data-test': 'nav-leaderboard' }, ctx.t('leaderboard'))),
      h('div', { class: 'lang', role: 'group', 'aria-label': ctx.t('language') },
        ...LANGS.map((l) => h('button', {
          type: 'button',
          class: l === lang ? 'active' : '',
          'data-test': `lang-${l}`,
          'aria-pressed': String(l === lang),
          onclick: () => {
            if (l === lang) return;
            lang = l;
            prefs.lang = l;
            renderHeader();
            renderConn();
            route();
          },
        }, l.toUpperCase()))),
      themeButton(),
    );
  }

  function themeButton(): HTMLElement {
    const dark = document.documentElement.dataset['theme'] === 'dark';
    return h('button', {
      type: 'button',
      class: 'theme-toggle',
      'data-test': 'theme-toggle',
      'aria-pressed': String(dark),
      'aria-label': ctx.t('themeDark'),
      title: ctx.t(dark ? 'themeLight' : 'themeDark'),
      onclick: () => {
        toggleTheme(prefs);
        renderHeader();
      },
    }, h('span', { 'aria-hidden': 'true' }, dark ? '☀' : '☾'));
  }

  function renderConn(): void {
    const s = conn.status;
    connBanner.hidden = s === 'open';
    connBanner.textContent = s === 'lost' ? ctx.t('connectionLost') : ctx.t('connecting');
    connBanner.classList.toggle('lost', s === 'lost');
    document.body.dataset['conn'] = s;
  }
  conn.onStatus(renderConn);

  function route(): void {
    view?.destroy();
    view = null;
    const hash = location.hash || '#/';
    let m: RegExpExecArray | null;
    window.scrollTo?.(0, 0);
    if ((m = /^#join=([\w-]+)/.exec(hash))) view = joinView(ctx, main, m[1] as string);
    else if ((m = /^#signin=([\w-]+)/.exec(hash))) view = finishView(ctx, main, m[1] as string);
    else if ((m = /^#\/game\/([\w-]+)/.exec(hash))) view = gameView(ctx, main, m[1] as string);
    else if ((m = /^#\/rules(?:\/([\w-]+))?/.exec(hash))) view = rulesView(ctx, main, m[1] ?? null);
    else if ((m = /^#\/leaderboard(?:\/([\w-]+))?/.exec(hash))) view = leaderboardView(ctx, main, m[1] ?? null);
    else if (/^#\/analysis(?:[/?]|$)/.test(hash)) {
      const { variant, fen } = parseAnalysisHash(hash);
      view = lazyView(main, ctx.t('loading'), () => import('./analysis').then((a) => (r: HTMLElement) => a.analysisView(ctx, r, variant, fen)));
    } else if ((m = /^#\/player\/([^/?]+)/.exec(hash))) {
      const name = decodeURIComponent(m[1] as string);
      view = lazyView(main, ctx.t('loading'), () => import('./player').then((p) => (r: HTMLElement) => p.playerView(ctx, r, name)));
    }
    else view = lobbyView(ctx, main);
    main.dataset['route'] = hash.replace(/^#\/?/, '').split('/')[0]?.split('=')[0] || 'lobby';
    telegram?.showBack(main.dataset['route'] !== 'lobby', () => (history.length > 1 ? history.back() : ctx.navigate('#/')));
  }

  renderHeader();
  renderConn();
  main.replaceChildren(h('p', { class: 'card' }, ctx.t('loading')));
  try {
    const [r, config] = await Promise.all([fetch('/api/variants'), loadAuthConfig()]);
    variants = ((await r.json()) as VariantsResponse).variants;
    auth = config;
    if (telegram) {
      const session = await telegramSession(telegram.launch);
      if (session) {
        prefs.token = session.token;
        prefs.username = session.username;
      }
      // A friend's invite opened through the bot: to its game.
      const invite = inviteOf(location.search, telegram.launch.startParam);
      if (invite) history.replaceState(null, '', `${location.pathname}#join=${invite}`);
    }
  } catch (err) {
    main.replaceChildren(h('p', { class: 'banner error' }, ctx.t('error', { message: (err as Error).message })));
    return;
  }
  conn.connect();
  window.addEventListener('hashchange', route);
  route();
}

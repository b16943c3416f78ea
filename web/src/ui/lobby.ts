// The lobby: choose variant (with the "no forced capture" house rule where the variant offers
// it), opponent (computer with level and colour, friend link, random opponent, hot-seat), time
// control and nickname; sign up / sign in. Choices are remembered for the next visit.

import type { Color } from '../board/geometry';
import { maybeKey } from '../i18n';
import { isDrawRules, type DrawRules, type Level, type ServerMessage, type TimeControlJson } from '../net/protocol';
import { accountForm } from './account';
import { keepSession, loadSignInFacts, providerButton, signInErrorText, type SignInFacts } from './signin';
import { Attention } from './attention';
import { signed } from './social';
import type { AppCtx, View } from './context';
import { h } from './dom';
import { displayName } from './names';

interface ListedGame {
  id: string;
  variant: string;
  mode: string;
  status: string;
  white: SeatJson | null;
  black: SeatJson | null;
  outcome?: string | null;
  rating_change?: number;
}

type ModeChoice = 'computer' | 'friend' | 'random' | 'hotseat';
/** The player's side as chosen, relative to the variant: the side that moves first (the default:
 * Black in American, White elsewhere), the other one, or random. */
export type SideChoice = 'first' | 'second' | 'random';

/** The colour a side choice means in a variant whose first mover is `first`. */
export function colorOf(side: SideChoice, first: Color): Color | 'random' {
  if (side === 'random') return 'random';
  return side === 'first' ? first : first === 'white' ? 'black' : 'white';
}
type TcChoice = 'default' | 'fast' | 'slow' | 'fischer' | 'none';

const TIME_CONTROLS: Record<TcChoice, TimeControlJson | null> = {
  default: { kind: 'byoyomi', main: 300, periods: 3, period: 30 },
  fast: { kind: 'byoyomi', main: 180, periods: 3, period: 30 },
  slow: { kind: 'byoyomi', main: 600, periods: 3, period: 30 },
  fischer: { kind: 'fischer', main: 180, increment: 2 },
  none: null,
};

interface SeatJson {
  id: string;
  name: string;
  computer?: boolean;
}

/** A player's name, linking to the profile for a signed-in player (ids "u<N>"; guests have none). */
function seatName(ctx: AppCtx, p: SeatJson | null): HTMLElement | string {
  if (!p) return '?';
  return !p.computer && /^u\d+$/.test(p.id) ? h('a', { href: `#/player/${encodeURIComponent(p.name)}` }, p.name) : displayName(ctx.t, p);
}

export function lobbyView(ctx: AppCtx, root: HTMLElement): View {
  const saved = ctx.prefs.lobby;
  const choice = {
    variant: typeof saved['variant'] === 'string' && ctx.variant(saved['variant']) ? saved['variant'] : (ctx.variants[0]?.key ?? 'international'),
    mode: (['computer', 'friend', 'random', 'hotseat'].includes(String(saved['mode'])) ? saved['mode'] : 'computer') as ModeChoice,
    level: (['easy', 'normal', 'hard'].includes(String(saved['level'])) ? saved['level'] : 'normal') as Level,
    side: (['first', 'second', 'random'].includes(String(saved['side'])) ? saved['side'] : 'first') as SideChoice,
    tc: (String(saved['tc']) in TIME_CONTROLS ? saved['tc'] : 'default') as TcChoice,
    noForced: saved['noForced'] === true,
    drawRules: isDrawRules(saved['drawRules']) ? saved['drawRules'] : ('standard' as DrawRules),
    fen: '',
    rated: saved['rated'] === true,
  };
  let busy = false;
  let message = '';
  let seeking = false;
  /** how the signed-in account signs in, and whether it may play rated games (GET /api/me) */
  let facts: SignInFacts | null = null;
  const offs: (() => void)[] = [];

  const form = h('form', { class: 'lobby-form', 'data-test': 'lobby' });
  const account = h('div', { class: 'account card' });
  const mine = h('div', { class: 'my-games', 'data-test': 'my-games' });
  root.replaceChildren(h('section', { class: 'lobby' }, h('div', { class: 'card' }, h('h1', {}, ctx.t('play')), form), h('div', { class: 'lobby-side' }, account, mine)));

  let alive = true;
  /** The player's games (GET /api/games?player=ID: the signed-in player's, or the guest's saved identity's), unfinished first. */
  const loadMine = (): void => {
    const pid = ctx.conn.playerId;
    if (!pid) return;
    fetch(`/api/games?player=${encodeURIComponent(pid)}`)
      .then((r) => r.json() as Promise<{ games?: ListedGame[] }>)
      .then((body) => {
        if (!alive) return;
        const games = body.games ?? [];
        const open = games.filter((g) => g.status === 'playing' || g.status === 'waiting');
        const done = games.filter((g) => g.status === 'over');
        const shown = [...open.slice(0, 10), ...done.slice(0, 10)];
        mine.replaceChildren(
          ...(shown.length === 0
            ? []
            : [
                h('div', { class: 'card' }, h('h2', {}, ctx.t('myGames')),
                  h('ul', { class: 'game-links' }, ...shown.map((g) => h('li', { 'data-status': g.status },
                    h('a', { href: `#/game/${g.id}`, 'data-test': 'my-game' }, `${ctx.variantName(g.variant)} · ${ctx.t(`mode_${g.mode}` as 'mode_computer') || g.mode}`),
                    ' · ', seatName(ctx, g.white), ' – ', seatName(ctx, g.black), ' · ',
                    h('span', { class: 'muted' }, g.status === 'over' ? resultOf(g) : ctx.t('inProgress')),
                    typeof g.rating_change === 'number' ? h('span', { class: 'muted', 'data-test': 'my-rating-change' }, ` (${signed(g.rating_change)})`) : null)))),
              ]),
        );
      })
      .catch(() => undefined);
  };
  const resultOf = (g: ListedGame): string => {
    const k = g.outcome ? maybeKey(`result_${g.outcome}`) : null;
    return k ? ctx.t(k) : ctx.t('finished');
  };
  loadMine();
  offs.push(() => void (alive = false));

  const remember = (): void => {
    ctx.prefs.lobby = { ...choice };
  };

  function radio<T extends string>(name: string, value: T, current: T, label: string, on: (v: T) => void): HTMLElement {
    return h(
      'label',
      { class: `choice${value === current ? ' active' : ''}` },
      h('input', { type: 'radio', name, value, checked: value === current, 'data-test': `${name}-${value}`, onchange: () => on(value) }),
      h('span', {}, label),
    );
  }

  function renderForm(): void {
    const meta = ctx.variant(choice.variant);
    const rows: (HTMLElement | null)[] = [];
    rows.push(
      h(
        'label',
        { class: 'field' },
        h('span', {}, ctx.t('variant')),
        h(
          'select',
          {
            'data-test': 'variant',
            onchange: (e: Event) => {
              choice.variant = (e.target as HTMLSelectElement).value;
              choice.drawRules = 'standard';
              remember();
              renderForm();
            },
          },
          ...ctx.variants.map((v) => h('option', { value: v.key, selected: v.key === choice.variant }, ctx.variantName(v.key))),
        ),
        h('a', { class: 'rules-link', href: `#/rules/${choice.variant}` }, ctx.t('rules')),
      ),
    );
    if (meta?.no_forced_capture_option) {
      rows.push(
        h('label', { class: 'toggle' }, h('input', { type: 'checkbox', 'data-test': 'no-forced', checked: choice.noForced, onchange: (e: Event) => { choice.noForced = (e.target as HTMLInputElement).checked; remember(); } }), ctx.t('noForcedCapture')),
      );
    }
    if (meta && meta.draw_rule_sets.length > 1) {
      rows.push(
        h(
          'label',
          { class: 'field' },
          h('span', {}, ctx.t('drawRules')),
          h(
            'select',
            { 'data-test': 'draw-rules', onchange: (e: Event) => { const v = (e.target as HTMLSelectElement).value; choice.drawRules = isDrawRules(v) ? v : 'standard'; remember(); } },
            ...meta.draw_rule_sets.map((r) => h('option', { value: r, selected: r === choice.drawRules }, ctx.t(`drawRules_${r}` as 'drawRules_standard') || r)),
          ),
        ),
      );
    }
    const setMode = (m: ModeChoice): void => {
      choice.mode = m;
      remember();
      renderForm();
    };
    rows.push(
      h('fieldset', {}, h('legend', {}, ctx.t('mode')),
        radio('mode', 'computer', choice.mode, ctx.t('mode_computer'), setMode),
        radio('mode', 'friend', choice.mode, ctx.t('mode_friend'), setMode),
        radio('mode', 'random', choice.mode, ctx.t('mode_random'), setMode),
        radio('mode', 'hotseat', choice.mode, ctx.t('mode_hotseat'), setMode)),
    );
    if (choice.mode === 'computer') {
      const setLevel = (l: Level): void => { choice.level = l; remember(); renderForm(); };
      rows.push(
        h('fieldset', {}, h('legend', {}, ctx.t('level')),
          radio('level', 'easy', choice.level, ctx.t('level_easy'), setLevel),
          radio('level', 'normal', choice.level, ctx.t('level_normal'), setLevel),
          radio('level', 'hard', choice.level, ctx.t('level_hard'), setLevel)),
      );
    }
    if (choice.mode === 'computer' || choice.mode === 'friend') {
      // Named by colour, kept as "moves first" or not: the default is the side that moves first,
      // in every variant, and a choice carries over to the other variants as that.
      const first = meta?.first_to_move ?? 'white';
      const color = colorOf(choice.side, first);
      const setColor = (c: Color | 'random'): void => {
        choice.side = c === 'random' ? 'random' : c === first ? 'first' : 'second';
        remember();
        renderForm();
      };
      const label = (c: Color): string => (c === first ? ctx.t('colorMovesFirst', { color: ctx.t(`color_${c}`) }) : ctx.t(`color_${c}`));
      rows.push(
        h('fieldset', {}, h('legend', {}, ctx.t('color')),
          radio('color', first, color, label(first), setColor),
          radio('color', first === 'white' ? 'black' : 'white', color, label(first === 'white' ? 'black' : 'white'), setColor),
          radio('color', 'random', color, ctx.t('color_random'), setColor)),
      );
    }
    if (choice.mode === 'friend' || choice.mode === 'random') {
      rows.push(
        h('label', { class: 'field' }, h('span', {}, ctx.t('timeControl')),
          h('select', { 'data-test': 'time-control', onchange: (e: Event) => { choice.tc = (e.target as HTMLSelectElement).value as TcChoice; remember(); } },
            ...(Object.keys(TIME_CONTROLS) as TcChoice[])
              .filter((k) => choice.mode === 'friend' || k !== 'none')
              .map((k) => h('option', { value: k, selected: k === choice.tc }, ctx.t(`tc_${k}`))))),
      );
    }
    if (choice.mode === 'friend' && ctx.prefs.username) {
      // The operator may keep rated games for accounts signed in with the provider (Ttakji's rule).
      const barred = ctx.auth.rated_requires === 'oidc' && facts !== null && !facts.may_rate;
      rows.push(
        barred
          ? h('p', { class: 'muted', 'data-test': 'rated-needs-provider' }, ctx.t('ratedNeedsProvider', { name: ctx.auth.oidc?.name ?? '' }))
          : h('label', { class: 'toggle' }, h('input', { type: 'checkbox', 'data-test': 'rated', checked: choice.rated, onchange: (e: Event) => { choice.rated = (e.target as HTMLInputElement).checked; remember(); } }), ctx.t('rated')),
      );
    }
    if (choice.mode === 'friend' || choice.mode === 'hotseat') {
      rows.push(
        h('details', { class: 'fen', open: choice.fen !== '' },
          h('summary', {}, ctx.t('fromPosition')),
          h('input', { type: 'text', 'data-test': 'fen', placeholder: meta?.start_fen ?? 'W:W21-32:B1-12', value: choice.fen, spellcheck: 'false', onchange: (e: Event) => { choice.fen = (e.target as HTMLInputElement).value.trim(); } })),
      );
    }
    rows.push(
      h('label', { class: 'field' }, h('span', {}, ctx.t('nickname')),
        h('input', { type: 'text', maxlength: 24, 'data-test': 'nickname', value: ctx.prefs.username ?? ctx.prefs.nickname, disabled: !!ctx.prefs.username, onchange: (e: Event) => { ctx.prefs.nickname = (e.target as HTMLInputElement).value.trim(); } })),
    );
    rows.push(
      seeking
        ? h('div', { class: 'seeking', 'data-test': 'seeking' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), ctx.t('seeking'), h('button', { type: 'button', class: 'btn', onclick: () => { ctx.conn.send({ type: 'cancel_seek' }); seeking = false; renderForm(); } }, ctx.t('cancel')))
        : h('div', { class: 'start-row' }, h('button', { type: 'submit', class: 'btn primary big', 'data-test': 'start', disabled: busy }, ctx.t('start'))),
    );
    if (message) rows.push(h('p', { class: 'banner error' }, message));
    form.replaceChildren(...rows.filter((x): x is HTMLElement => x !== null));
  }

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void start();
  });

  async function start(): Promise<void> {
    if (busy) return;
    message = '';
    const nick = (form.querySelector<HTMLInputElement>('[data-test="nickname"]')?.value ?? '').trim();
    if (nick && !ctx.prefs.username && nick !== ctx.conn.playerName) {
      ctx.prefs.nickname = nick;
      ctx.conn.rehello(); // the server takes the new name before the game is created
    }
    const options = { no_forced_capture: choice.noForced && !!ctx.variant(choice.variant)?.no_forced_capture_option, draw_rules: choice.drawRules };
    if (choice.mode === 'random') {
      seeking = true;
      renderForm();
      ctx.conn.send({ type: 'seek', variant: choice.variant, clock: TIME_CONTROLS[choice.tc] ?? TIME_CONTROLS.default, options: { no_forced_capture: options.no_forced_capture } });
      return;
    }
    busy = true;
    renderForm();
    try {
      const reply = await ctx.conn.request({
        type: 'create',
        mode: choice.mode,
        variant: choice.variant,
        ...(choice.mode === 'computer' ? { level: choice.level } : {}),
        ...(choice.mode === 'computer' || choice.mode === 'friend' ? { color: colorOf(choice.side, ctx.variant(choice.variant)?.first_to_move ?? 'white') } : {}),
        ...(choice.mode === 'friend' ? { clock: TIME_CONTROLS[choice.tc], rated: choice.rated && !!ctx.prefs.username } : {}),
        ...((choice.mode === 'friend' || choice.mode === 'hotseat') && choice.fen ? { fen: choice.fen } : {}),
        options,
      });
      if (reply.type === 'created') {
        if (reply.link) ctx.prefs.setLink(reply.game, new URL(reply.link, location.href).href);
        ctx.navigate(`#/game/${reply.game}`);
        return;
      }
      if (reply.type === 'error') message = ctx.t('error', { message: reply.message });
    } catch (err) {
      message = ctx.t('error', { message: (err as Error).message });
    }
    busy = false;
    renderForm();
  }

  offs.push(
    ctx.conn.onMessage((m: ServerMessage) => {
      if (m.type === 'welcome') {
        loadMine();
      } else if (m.type === 'paired') {
        seeking = false;
        new Attention().call(ctx.t('titleArrived'));
        ctx.navigate(`#/game/${m.game}`);
      } else if (m.type === 'error' && seeking) {
        seeking = false;
        message = ctx.t('error', { message: m.message });
        renderForm();
      }
    }),
  );

  /** A sign-in that came back refused (#signin-error=REASON), said once. */
  const refused = /^#signin-error=([\w-]+)/.exec(location.hash);
  const signInError = refused ? h('p', { class: 'banner error', role: 'alert', 'data-test': 'signin-error' }, signInErrorText(ctx, refused[1] as string)) : null;
  if (refused) history.replaceState(null, '', `${location.pathname}${location.search}#/`);

  const loadFacts = (): void => {
    const token = ctx.prefs.token;
    if (!token) return;
    void loadSignInFacts(token).then((f) => {
      if (!alive || token !== ctx.prefs.token) return;
      facts = f;
      renderAccount();
      renderForm();
    });
  };

  function renderAccount(): void {
    if (ctx.prefs.username) {
      // A password account may link the provider (and play rated games where the rule asks it).
      const canLink = facts !== null && !facts.sign_in.includes('oidc');
      account.replaceChildren(
        ...[
          signInError,
          h('p', { 'data-test': 'signed-in' }, ctx.t('signedInAs', { name: ctx.prefs.username }), ' · ', h('a', { href: `#/player/${encodeURIComponent(ctx.prefs.username)}`, 'data-test': 'my-profile' }, ctx.t('myProfile'))),
          canLink ? providerButton(ctx, ctx.auth, true) : null,
          h('button', { type: 'button', class: 'btn', 'data-test': 'sign-out', onclick: () => { ctx.prefs.token = null; ctx.prefs.username = null; facts = null; ctx.conn.close(); ctx.conn.connect(); renderAccount(); renderForm(); } }, ctx.t('signOut')),
          h('p', {}, h('a', { href: '#/leaderboard' }, ctx.t('leaderboard'))),
        ].filter((x): x is HTMLElement => x !== null),
      );
      return;
    }
    account.replaceChildren(
      ...[
        signInError,
        providerButton(ctx, ctx.auth),
        accountForm(ctx, (token, username) => {
          keepSession(ctx, token, username);
          renderAccount();
          renderForm();
          loadFacts();
        }),
        h('p', {}, h('a', { href: '#/leaderboard' }, ctx.t('leaderboard'))),
      ].filter((x): x is HTMLElement => x !== null),
    );
  }

  renderForm();
  renderAccount();
  loadFacts();
  // In Telegram its main button starts the game as chosen.
  ctx.telegram?.setMain(ctx.t('start'), () => void start());
  offs.push(() => ctx.telegram?.setMain(null));
  return { destroy: () => offs.forEach((f) => f()) };
}

/**
 * Opening a friend link (#join=TOKEN): a guest first picks the nickname to play under
 * (prefilled with the last one used); then sit down and go to the game. A signed-in player joins
 * at once under the account's name.
 */
export function joinView(ctx: AppCtx, root: HTMLElement, invite: string): View {
  let done = false;
  let id: number | null = null;
  const sit = (): void => {
    root.replaceChildren(h('p', { class: 'card', 'data-test': 'joining' }, ctx.t('loading')));
    if (!ctx.prefs.username && ctx.prefs.nickname && ctx.conn.playerName !== null && ctx.prefs.nickname !== ctx.conn.playerName) ctx.conn.rehello();
    // `name` goes with the join (docs/protocol.md, "Starting games"); the hello above names the guest for the rest of the session
    id = ctx.conn.send({ type: 'join', invite, ...(ctx.prefs.username || !ctx.prefs.nickname ? {} : { name: ctx.prefs.nickname }) });
  };
  const off = ctx.conn.onMessage((m) => {
    if (done || id === null) return;
    if ((m.type === 'state' || m.type === 'event') && (m.type === 'event' || m.ref === id)) {
      done = true;
      ctx.games.set(m.game, m.state);
      ctx.navigate(`#/game/${m.game}`);
    } else if (m.type === 'error' && m.ref === id) {
      done = true;
      root.replaceChildren(h('div', { class: 'card' }, h('p', { class: 'banner error', 'data-test': 'join-error' }, ctx.t('error', { message: m.message })), h('a', { class: 'btn', href: '#/' }, ctx.t('newGame'))));
    }
  });
  if (ctx.prefs.username) {
    sit();
  } else {
    const nick = h('input', { id: 'join-nickname', type: 'text', maxlength: 24, 'data-test': 'join-nickname', value: ctx.prefs.nickname, autocomplete: 'nickname', required: true });
    const form = h(
      'form',
      { class: 'card join-form', 'data-test': 'join-form' },
      h('h1', {}, ctx.t('joinTitle')),
      h('label', { class: 'field', for: 'join-nickname' }, h('span', {}, ctx.t('nickname')), nick),
      h('button', { type: 'submit', class: 'btn primary big', 'data-test': 'join' }, ctx.t('joinButton')),
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const name = nick.value.trim();
      if (name) ctx.prefs.nickname = name;
      sit();
    });
    root.replaceChildren(form);
    nick.focus();
  }
  return { destroy: off };
}

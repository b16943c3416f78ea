// Sign-in from outside (docs/protocol.md, "Sign-in from outside"): the sign-ins the site offers
// (GET /api/auth/config: an OpenID Connect provider such as Google, a Telegram bot, the rule for
// rated games), the provider's button, and the page the provider sends the browser back to
// (#signin=TICKET): the ticket is traded for a session, after a nickname at the first sign-in or a
// password login to link an existing account.

import { accountForm } from './account';
import type { AppCtx, View } from './context';
import { h } from './dom';

export interface AuthConfig {
  oidc: { name: string } | null;
  telegram: { bot: string } | null;
  rated_requires: 'account' | 'oidc';
}

export const NO_AUTH: AuthConfig = { oidc: null, telegram: null, rated_requires: 'account' };

export async function loadAuthConfig(): Promise<AuthConfig> {
  try {
    const r = await fetch('/api/auth/config');
    if (!r.ok) return NO_AUTH;
    const body = (await r.json()) as Partial<AuthConfig>;
    return { oidc: body.oidc ?? null, telegram: body.telegram ?? null, rated_requires: body.rated_requires === 'oidc' ? 'oidc' : 'account' };
  } catch {
    return NO_AUTH;
  }
}

/** What GET /api/me says about how the account signs in and whether it may play rated games. */
export interface SignInFacts {
  sign_in: string[];
  may_rate: boolean;
}

export async function loadSignInFacts(token: string): Promise<SignInFacts | null> {
  try {
    const r = await fetch('/api/me', { headers: { Authorization: `Bearer ${token}` } });
    if (!r.ok) return null;
    const body = (await r.json()) as Partial<SignInFacts>;
    return { sign_in: body.sign_in ?? [], may_rate: body.may_rate !== false };
  } catch {
    return null;
  }
}

/** The session the page keeps: signed in as `username` (a new hello over the socket). */
export function keepSession(ctx: AppCtx, token: string, username: string): void {
  ctx.prefs.token = token;
  ctx.prefs.username = username;
  ctx.conn.close();
  ctx.conn.connect();
}

/** "Sign in with Google": to the provider, and back to #signin=... (link: join the signed-in account). */
export function providerButton(ctx: AppCtx, config: AuthConfig, link = false): HTMLElement | null {
  if (!config.oidc) return null;
  const name = config.oidc.name;
  const error = h('p', { class: 'form-errors', role: 'alert', 'data-test': 'oidc-error' });
  const button = h(
    'button',
    {
      type: 'button',
      class: 'btn oidc',
      'data-test': link ? 'oidc-link' : 'oidc-sign-in',
      onclick: async () => {
        error.textContent = '';
        try {
          const token = ctx.prefs.token;
          const r = await fetch('/api/auth/oidc/start', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', ...(link && token ? { Authorization: `Bearer ${token}` } : {}) },
            body: JSON.stringify(link ? { link: true } : {}),
          });
          const body = (await r.json()) as { url?: string };
          if (!r.ok || !body.url) throw new Error(String(r.status));
          location.assign(body.url);
        } catch (e) {
          error.textContent = ctx.t('err_server', { status: (e as Error).message });
        }
      },
    },
    ctx.t(link ? 'linkProvider' : 'signInWith', { name }),
  );
  return h('div', { class: 'oidc-row' }, button, error);
}

/** Why a sign-in came back refused (#signin-error=REASON), in the player's words. */
export function signInErrorText(ctx: AppCtx, reason: string): string {
  switch (reason) {
    case 'cancelled':
      return ctx.t('signInCancelled');
    case 'already_linked':
      return ctx.t('signInAlreadyLinked');
    case 'expired':
    case 'wrong_browser':
      return ctx.t('signInExpired');
    case 'provider_unavailable':
      return ctx.t('signInUnavailable');
    default:
      return ctx.t('signInRefused', { reason });
  }
}

interface FinishAnswer {
  token?: string;
  user?: { username: string };
  needs_nickname?: boolean;
  suggested?: string;
  provider?: string;
  error?: string;
  message?: string;
}

async function finish(ticket: string, extra: Record<string, unknown>, bearer?: string | null): Promise<{ status: number; body: FinishAnswer }> {
  const r = await fetch('/api/auth/finish', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}) },
    body: JSON.stringify({ ticket, ...extra }),
  });
  return { status: r.status, body: (await r.json().catch(() => ({}))) as FinishAnswer };
}

/** #signin=TICKET: the provider has vouched for the player; finish the sign-in here. */
export function finishView(ctx: AppCtx, root: HTMLElement, ticket: string): View {
  let gone = false;
  // The ticket leaves the address bar and the history at once.
  history.replaceState(null, '', `${location.pathname}${location.search}#/`);
  const done = (token: string, username: string): void => {
    keepSession(ctx, token, username);
    ctx.navigate('#/');
  };
  const failed = (text: string): void => {
    root.replaceChildren(h('div', { class: 'card' }, h('p', { class: 'banner error', 'data-test': 'signin-error' }, text), h('a', { class: 'btn', href: '#/' }, ctx.t('newGame'))));
  };
  root.replaceChildren(h('p', { class: 'card', 'data-test': 'signing-in' }, ctx.t('loading')));
  const nicknameForm = (suggested: string, provider: string): HTMLElement => {
    const nick = h('input', { id: 'signin-nickname', type: 'text', maxlength: 24, value: suggested, 'data-test': 'signin-nickname', autocomplete: 'nickname', autocapitalize: 'none', spellcheck: 'false' });
    const errors = h('p', { class: 'form-errors', role: 'alert', 'data-test': 'signin-nickname-error' });
    const form = h(
      'form',
      { class: 'card signin-nickname', 'data-test': 'signin-nickname-form', novalidate: true },
      h('h1', {}, ctx.t('chooseNickname')),
      h('p', { class: 'muted' }, ctx.t('chooseNicknameHelp', { name: provider })),
      h('label', { class: 'field', for: 'signin-nickname' }, h('span', {}, ctx.t('nickname')), nick),
      errors,
      h('button', { type: 'submit', class: 'btn primary', 'data-test': 'signin-create' }, ctx.t('createAccount')),
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const username = nick.value.trim();
      if (!/^[A-Za-z0-9_-]{3,24}$/.test(username)) {
        errors.textContent = ctx.t('err_username_form');
        return;
      }
      void finish(ticket, { username }).then(({ status, body }) => {
        if (gone) return;
        if (body.token && body.user) done(body.token, body.user.username);
        else if (status === 409) errors.textContent = ctx.t('err_username_taken');
        else if (status === 410) failed(ctx.t('signInExpired'));
        else errors.textContent = ctx.t('err_server', { status });
      });
    });
    return form;
  };
  // An existing password account: log in with it and the identity joins it.
  const linkForm = (provider: string): HTMLElement =>
    h(
      'div',
      { class: 'card signin-link', 'data-test': 'signin-link' },
      h('p', {}, ctx.t('linkExisting', { name: provider })),
      accountForm(ctx, (token) => {
        void finish(ticket, { link: true }, token).then(({ status, body }) => {
          if (gone) return;
          if (body.token && body.user) done(body.token, body.user.username);
          else failed(status === 409 ? ctx.t('signInAlreadyLinked') : ctx.t('signInExpired'));
        });
      }),
    );
  void finish(ticket, {})
    .then(({ body }) => {
      if (gone) return;
      if (body.token && body.user) {
        done(body.token, body.user.username);
      } else if (body.needs_nickname) {
        root.replaceChildren(h('section', { class: 'signin' }, nicknameForm(body.suggested ?? '', body.provider ?? ''), linkForm(body.provider ?? '')));
        root.querySelector<HTMLInputElement>('[data-test="signin-nickname"]')?.focus({ preventScroll: true });
      } else {
        failed(ctx.t('signInExpired'));
      }
    })
    .catch(() => failed(ctx.t('signInUnavailable')));
  return { destroy: () => void (gone = true) };
}

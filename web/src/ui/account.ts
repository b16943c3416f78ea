// The sign-in / sign-up form of the lobby: labelled fields, Enter signs in, and every problem
// listed in the player's language, those the client can see before sending (empty or
// malformed fields, the server's rules of docs/protocol.md) and the server's answer.

import type { UiKey } from '../i18n';
import type { AppCtx } from './context';
import { h } from './dom';

export interface Problem {
  key: UiKey;
  params?: Record<string, string | number>;
  field: 'username' | 'password' | null;
}

/** The problems of the fields before anything is sent (all of them, not the first). */
export function fieldProblems(username: string, password: string): Problem[] {
  const out: Problem[] = [];
  if (username.trim() === '') out.push({ key: 'err_username_empty', field: 'username' });
  else if (!/^[A-Za-z0-9_-]{3,24}$/.test(username.trim())) out.push({ key: 'err_username_form', field: 'username' });
  if (password === '') out.push({ key: 'err_password_empty', field: 'password' });
  else if (password.length < 8 || password.length > 128) out.push({ key: 'err_password_form', field: 'password' });
  return out;
}

/** The server's refusal as a problem in the player's language. */
export function serverProblem(status: number, code: string | undefined, retryAfter: string | null): Problem {
  switch (code) {
    case 'bad_username':
      return { key: 'err_username_form', field: 'username' };
    case 'bad_password':
      return { key: 'err_password_form', field: 'password' };
    case 'username_taken':
      return { key: 'err_username_taken', field: 'username' };
    case 'bad_credentials':
      return { key: 'err_bad_credentials', field: null };
    case 'too_many_attempts':
      return { key: 'err_too_many_attempts', params: { s: Number(retryAfter) || 60 }, field: null };
    default:
      return { key: 'err_server', params: { status }, field: null };
  }
}

/** The form; `signedIn` runs once the server gave a session. */
export function accountForm(ctx: AppCtx, signedIn: (token: string, username: string) => void): HTMLElement {
  const user = h('input', { id: 'account-username', name: 'username', type: 'text', autocomplete: 'username', 'data-test': 'username', autocapitalize: 'none', spellcheck: 'false', 'aria-describedby': 'account-errors' });
  const pass = h('input', { id: 'account-password', name: 'password', type: 'password', autocomplete: 'current-password', 'data-test': 'password', 'aria-describedby': 'account-errors' });
  const errors = h('ul', { id: 'account-errors', class: 'form-errors', 'data-test': 'account-errors', role: 'alert' });
  let busy = false;
  const show = (list: Problem[]): void => {
    errors.replaceChildren(...list.map((p) => h('li', {}, ctx.t(p.key, p.params))));
    user.setAttribute('aria-invalid', String(list.some((p) => p.field === 'username')));
    pass.setAttribute('aria-invalid', String(list.some((p) => p.field === 'password')));
  };
  const go = async (path: 'login' | 'register'): Promise<void> => {
    if (busy) return;
    const problems = fieldProblems(user.value, pass.value);
    show(problems);
    if (problems.length) return;
    busy = true;
    try {
      const r = await fetch(`/api/${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: user.value.trim(), password: pass.value }) });
      const body = (await r.json().catch(() => ({}))) as { token?: string; user?: { username: string }; error?: string };
      if (!r.ok || !body.token || !body.user) {
        show([serverProblem(r.status, body.error, r.headers.get('Retry-After'))]);
        return;
      }
      signedIn(body.token, body.user.username);
    } catch {
      show([{ key: 'err_server', params: { status: '-' }, field: null }]);
    } finally {
      busy = false;
    }
  };
  const form = h(
    'form',
    { class: 'account-form', 'data-test': 'account-form', novalidate: true },
    h('h2', {}, ctx.t('signInTitle')),
    h('p', { class: 'muted' }, ctx.t('signInHelp')),
    h('label', { class: 'field', for: 'account-username' }, h('span', {}, ctx.t('username')), user),
    h('label', { class: 'field', for: 'account-password' }, h('span', {}, ctx.t('password')), pass),
    errors,
    h('div', { class: 'row' },
      h('button', { type: 'submit', class: 'btn primary', 'data-test': 'sign-in' }, ctx.t('signIn')),
      h('button', { type: 'button', class: 'btn', 'data-test': 'sign-up', onclick: () => void go('register') }, ctx.t('signUp'))),
  );
  // Enter in either field submits: sign in
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void go('login');
  });
  return form;
}

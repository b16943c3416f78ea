// "Import PDN" on the signed-in player's own profile: a PDN file (picked or pasted) goes to
// POST /api/import (docs/protocol.md, "Importing PDN"); the answer lists the stored games, each
// linking to its review, and the rejected ones with game, move and the server's reason.
// readImportAnswer is the pure part (unit-tested); importPanel the DOM.

import type { UiKey } from '../i18n';
import type { ImportError, ImportReply, ImportedGameJson, RejectedGameJson } from '../net/protocol';
import type { AppCtx } from './context';
import { h } from './dom';

/** The server's limit on the body (1 MiB): a larger file is refused before it is sent. */
export const IMPORT_MAX_BYTES = 1024 * 1024;

export type ImportOutcome =
  | { kind: 'stored'; stored: ImportedGameJson[]; rejected: RejectedGameJson[]; encoding: string }
  | { kind: 'refused'; key: UiKey; params: Record<string, string | number>; rejected: RejectedGameJson[] };

/** What an answer of POST /api/import means for the player. */
export function readImportAnswer(status: number, body: unknown, retryAfter: string | null): ImportOutcome {
  if (status === 201 && body && typeof body === 'object' && Array.isArray((body as ImportReply).stored)) {
    const r = body as ImportReply;
    return { kind: 'stored', stored: r.stored, rejected: Array.isArray(r.rejected) ? r.rejected : [], encoding: r.encoding };
  }
  const e = (body && typeof body === 'object' ? body : {}) as Partial<ImportError>;
  const rejected = Array.isArray(e.rejected) ? e.rejected : [];
  switch (e.error) {
    case 'not_signed_in':
      return { kind: 'refused', key: 'import_sign_in', params: {}, rejected };
    case 'body_too_large':
      return { kind: 'refused', key: 'import_too_large', params: { mb: 1 }, rejected };
    case 'no_games':
      return { kind: 'refused', key: 'import_no_games', params: {}, rejected };
    case 'no_good_games':
      return { kind: 'refused', key: 'import_no_good_games', params: {}, rejected };
    case 'too_many_imports':
      return { kind: 'refused', key: 'import_too_many', params: { min: Math.max(1, Math.ceil((Number(retryAfter) || 60) / 60)) }, rejected };
    case 'busy':
      return { kind: 'refused', key: 'import_busy', params: {}, rejected };
    default:
      return { kind: 'refused', key: 'err_server', params: { status }, rejected };
  }
}

/** "Game 2: move 3 (black): illegal move ..." (the server's reason names the move and line). */
export function rejectedLine(ctx: Pick<AppCtx, 't'>, r: RejectedGameJson): string {
  return ctx.t('import_rejected', { game: r.game, reason: r.reason });
}

/** The panel; `token` is the signed-in player's session. */
export function importPanel(ctx: AppCtx, token: string): HTMLElement {
  const file = h('input', { type: 'file', accept: '.pdn,.txt,application/x-pdn,text/plain', id: 'import-file', 'data-test': 'import-file' });
  const text = h('textarea', { id: 'import-text', rows: 5, spellcheck: 'false', 'data-test': 'import-text', placeholder: '[GameType "20"] 1. 32-28 19-23 ...' });
  const out = h('div', { class: 'import-result', 'data-test': 'import-result', role: 'status', 'aria-live': 'polite' });
  const send = h('button', { type: 'submit', class: 'btn primary', 'data-test': 'import-send' }, ctx.t('import_send'));
  let busy = false;

  const show = (o: ImportOutcome): void => {
    const rejected = o.rejected.length === 0 ? null : h('div', {},
      h('h4', {}, ctx.t('import_rejected_title', { n: o.rejected.length })),
      h('ul', { class: 'import-rejected', 'data-test': 'import-rejected' }, ...o.rejected.map((r) => h('li', { 'data-game': r.game }, rejectedLine(ctx, r)))));
    if (o.kind === 'refused') {
      out.replaceChildren(h('p', { class: 'banner error', 'data-test': 'import-error' }, ctx.t(o.key, o.params)), ...(rejected ? [rejected] : []));
      return;
    }
    out.replaceChildren(
      h('p', { class: 'banner', 'data-test': 'import-summary' }, ctx.t('import_stored', { n: o.stored.length })),
      h('ul', { class: 'import-stored', 'data-test': 'import-stored' }, ...o.stored.map((g) =>
        h('li', { 'data-game': g.id },
          h('a', { href: `#/game/${g.id}`, 'data-test': 'import-link' }, `${g.white} – ${g.black}`),
          ` · ${ctx.variantName(g.variant)} · ${g.result} · ${ctx.t('import_moves', { n: g.moves })}`))),
      ...(rejected ? [rejected] : []),
    );
  };

  const go = async (): Promise<void> => {
    if (busy) return;
    const picked = file.files?.[0] ?? null;
    const body: Blob | string = picked ?? text.value;
    const size = picked ? picked.size : new TextEncoder().encode(text.value).length;
    if (size === 0 || (!picked && text.value.trim() === '')) {
      show({ kind: 'refused', key: 'import_nothing', params: {}, rejected: [] });
      return;
    }
    if (size > IMPORT_MAX_BYTES) {
      show({ kind: 'refused', key: 'import_too_large', params: { mb: 1 }, rejected: [] });
      return;
    }
    busy = true;
    send.setAttribute('disabled', '');
    out.replaceChildren(h('p', { class: 'muted' }, ctx.t('import_sending')));
    try {
      // the file's bytes as they are: the server detects the encoding
      const r = await fetch('/api/import', { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/x-pdn' }, body });
      show(readImportAnswer(r.status, await r.json().catch(() => null), r.headers.get('Retry-After')));
    } catch {
      show({ kind: 'refused', key: 'err_server', params: { status: '-' }, rejected: [] });
    } finally {
      busy = false;
      send.removeAttribute('disabled');
    }
  };

  const form = h('form', { class: 'import-form card', 'data-test': 'import-form' },
    h('h3', {}, ctx.t('import_title')),
    h('p', { class: 'muted' }, ctx.t('import_help')),
    h('label', { class: 'field', for: 'import-file' }, h('span', {}, ctx.t('import_file')), file),
    h('label', { class: 'field', for: 'import-text' }, h('span', {}, ctx.t('import_paste')), text),
    h('div', { class: 'row' }, send),
    out);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void go();
  });
  return form;
}

// Rules pages: the rules of every variant in plain words (i18n texts restating
// docs/rules.md) with a diagram of the start position drawn by the board component from
// the variant's start FEN and square numbers; the rules index also answers a few questions.

import { createBoard, type BoardApi } from '../board/api';
import { parseFen } from '../board/fen';
import { buildGeometry } from '../board/geometry';
import type { AppCtx, View } from './context';
import { h } from './dom';
import { squareWords } from './announce';
import { boardControls, lookFor } from './looks';

export function rulesView(ctx: AppCtx, root: HTMLElement, key: string | null): View {
  const boards: BoardApi[] = [];
  const rules = ctx.msgs().rules;
  const nav = h(
    'nav',
    { class: 'rules-nav' },
    ...ctx.variants.map((v) => h('a', { href: `#/rules/${v.key}`, class: v.key === key ? 'active' : '' }, ctx.variantName(v.key))),
  );
  const meta = key ? ctx.variant(key) : undefined;
  if (!meta) {
    root.replaceChildren(
      h('section', { class: 'rules card', 'data-test': 'rules-index' }, h('h1', {}, ctx.t('rules')), nav, h('ul', {}, ...rules.common.map((p) => h('li', {}, p))), h('p', {}, rules.noForced),
        h('h3', {}, ctx.t('faq')),
        h('dl', { class: 'faq', 'data-test': 'faq' }, ...rules.faq.flatMap((f) => [h('dt', {}, f.q), h('dd', {}, f.a)]))),
    );
    return { destroy: () => undefined };
  }
  const g = buildGeometry(meta);
  const fen = parseFen(meta.start_fen);
  const diagram = h('div', { class: 'diagram board-host', 'data-test': 'rules-diagram' });
  const boardKind = meta.topology === 'orthogonal8' ? ctx.t('boardTurkish') : g.size === 10 ? ctx.t('board10') : ctx.t('board8');
  root.replaceChildren(
    h(
      'section',
      { class: 'rules card', 'data-test': 'rules', 'data-variant': meta.key },
      nav,
      h('h1', {}, ctx.t('rulesOf', { name: ctx.variantName(meta.key) })),
      h(
        'div',
        { class: 'rules-body' },
        h('figure', { class: 'rules-figure' }, diagram, h('figcaption', {}, `${ctx.t('startPosition')} · ${boardKind} · ${ctx.t('firstMove', { side: ctx.t(meta.first_to_move === 'white' ? 'white' : 'black') })}`), boardControls(ctx, () => boards, () => true, () => meta.key)),
        h(
          'div',
          { class: 'rules-text' },
          h('ul', {}, ...(rules.variants[meta.key] ?? []).map((p) => h('li', {}, p))),
          h('h3', {}, ctx.t('allRules')),
          h('ul', {}, ...rules.common.map((p) => h('li', {}, p))),
          meta.no_forced_capture_option ? h('p', {}, rules.noForced) : null,
          h('p', {}, h('a', { class: 'btn primary', href: '#/', 'data-test': 'play-variant', onclick: () => (ctx.prefs.lobby = { ...ctx.prefs.lobby, variant: meta.key }) }, ctx.t('play'))),
        ),
      ),
    ),
  );
  const b = createBoard(diagram, { geometry: g, label: `${ctx.variantName(meta.key)}: ${ctx.t('startPosition')}`, words: squareWords(ctx.t), onMove: () => undefined });
  b.setLook(lookFor(ctx.prefs, meta.key));
  b.setShowNumbers(true);
  b.setShowCoords(ctx.prefs.showCoords);
  b.setPosition(fen.pieces, [], [], null);
  boards.push(b);
  return { destroy: () => b.destroy() };
}

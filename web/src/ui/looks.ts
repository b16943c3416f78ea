// The controls under a board: the board look (classic wood / candy on pistachio) and the
// square numbers and coordinates. Choices are remembered in the preferences.

import type { BoardApi } from '../board/api';
import type { Look } from '../board/state';
import type { AppCtx } from './context';
import { h } from './dom';
import type { Prefs } from './prefs';

/** Languages of the places where dama is played on its plain lined wooden board: Turkish, Greek,
 * Armenian, Arabic, Azerbaijani. */
const DAMA_LANGUAGES = new Set(['tr', 'el', 'hy', 'ar', 'az']);

/**
 * The look a board opens with while the player never chose one. Turkish dama opens on the classic
 * wooden board drawn with lines where players are used to plain dama, and with candy pieces on a
 * pistachio board elsewhere (as the Turkish dama product page says); the other variants open on
 * classic wood.
 */
export function defaultLook(variant: string, languages: readonly string[]): Look {
  if (variant !== 'turkish') return 'classic';
  return languages.some((l) => DAMA_LANGUAGES.has(l.toLowerCase().split('-')[0] ?? '')) ? 'classic' : 'candy';
}

function browserLanguages(): readonly string[] {
  return typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
}

/** The look of a board of `variant`: the player's choice, else the default. */
export function lookFor(prefs: Pick<Prefs, 'chosenLook'>, variant: string, languages: readonly string[] = browserLanguages()): Look {
  return prefs.chosenLook ?? defaultLook(variant, languages);
}

/** Shows `look` as the chosen one among the look buttons under `root`. */
export function markLook(root: ParentNode, look: Look): void {
  for (const btn of root.querySelectorAll<HTMLElement>('.look-choice')) {
    const on = btn.dataset['look'] === look;
    btn.classList.toggle('active', on);
    btn.setAttribute('aria-pressed', String(on));
  }
}

export function boardControls(ctx: AppCtx, boards: () => BoardApi[], numbersShown: () => boolean = () => ctx.prefs.showNumbers, variant: () => string = () => ''): HTMLElement {
  const looks: Look[] = ['classic', 'candy'];
  const current = lookFor(ctx.prefs, variant());
  const lookButtons = looks.map((l) =>
    h(
      'button',
      {
        type: 'button',
        class: `look-choice look-${l}${current === l ? ' active' : ''}`,
        'data-test': `look-${l}`,
        'aria-pressed': String(current === l),
        onclick: () => {
          ctx.prefs.look = l;
          document.body.dataset['look'] = l;
          for (const b of boards()) b.setLook(l);
          for (const btn of lookButtons) {
            const on = btn.dataset['look'] === l;
            btn.classList.toggle('active', on);
            btn.setAttribute('aria-pressed', String(on));
          }
        },
        'data-look': l,
      },
      h('span', { class: 'swatch', 'aria-hidden': 'true' }),
      ctx.t(l === 'classic' ? 'look_classic' : 'look_candy'),
    ),
  );
  const toggle = (label: string, test: string, get: () => boolean, set: (v: boolean) => void): HTMLElement =>
    h(
      'label',
      { class: 'toggle' },
      h('input', {
        type: 'checkbox',
        'data-test': test,
        checked: get(),
        onchange: (e: Event) => set((e.target as HTMLInputElement).checked),
      }),
      label,
    );
  return h(
    'div',
    { class: 'board-controls' },
    h('span', { class: 'controls-label' }, ctx.t('look'), ':'),
    ...lookButtons,
    toggle(ctx.t('showNumbers'), 'numbers', numbersShown, (v) => {
      ctx.prefs.showNumbers = v;
      for (const b of boards()) b.setShowNumbers(v);
    }),
    toggle(ctx.t('showCoords'), 'coords', () => ctx.prefs.showCoords, (v) => {
      ctx.prefs.showCoords = v;
      for (const b of boards()) b.setShowCoords(v);
    }),
  );
}

export interface PlayControlHooks {
  flip(): void;
  boards(): BoardApi[];
  /** a preference changed that the page shows */
  changed(): void;
}

/** The controls of a game page: flip the board, sounds, fewer clicks, hot-seat turn. */
export function playControls(ctx: AppCtx, hooks: PlayControlHooks): HTMLElement {
  const toggle = (label: string, test: string, on: boolean, set: (v: boolean) => void, hidden = false): HTMLElement =>
    h('label', { class: 'toggle', hidden }, h('input', { type: 'checkbox', 'data-test': test, checked: on, onchange: (e: Event) => set((e.target as HTMLInputElement).checked) }), label);
  // only on one device (hot-seat); the game page shows it there
  const autoTurn = toggle(ctx.t('autoTurn'), 'auto-turn', ctx.prefs.autoTurn, (v) => {
    ctx.prefs.autoTurn = v;
    hooks.changed();
  }, true);
  autoTurn.classList.add('auto-turn');
  return h(
    'div',
    { class: 'play-controls' },
    h('button', { type: 'button', class: 'btn small', 'data-test': 'flip', onclick: () => hooks.flip() }, h('span', { 'aria-hidden': 'true' }, '⇅ '), ctx.t('flip')),
    toggle(ctx.t('sounds'), 'sounds', !ctx.prefs.muted, (v) => (ctx.prefs.muted = !v)),
    toggle(ctx.t('autoPlay'), 'auto-play', ctx.prefs.autoPlay, (v) => {
      ctx.prefs.autoPlay = v;
      for (const b of hooks.boards()) b.setAutoPlay(v);
    }),
    autoTurn,
  );
}

// The engine's output on the analysis board: the evaluation bar beside the board and the
// principal variations (up to three) with depth, score and speed.

import type { Color } from '../board/geometry';
import { barShare, describeScore, menText, numberedLine, whiteView } from '../analysis/score';
import type { AnalysisLine } from '../engine/types';
import type { AppCtx } from './context';
import { h } from './dom';

export function scoreLabel(ctx: AppCtx, white: number): string {
  const d = describeScore(white);
  if (d.kind === 'men') return menText(d.value);
  return ctx.t('winIn', { side: ctx.t(d.winner === 'white' ? 'white' : 'black'), n: d.plies });
}

export interface EnginePanel {
  bar: HTMLElement;
  panel: HTMLElement;
  /** the lines of the position with `turn` to move, `ply` plies after the first side's first move */
  show(lines: readonly AnalysisLine[], turn: Color, ply: number, note?: string): void;
}

export function enginePanel(ctx: AppCtx, onPlay: (line: AnalysisLine) => void): EnginePanel {
  const fill = h('div', { class: 'eval-fill' });
  const barText = h('span', { class: 'eval-text' });
  const bar = h('div', { class: 'eval-bar', 'data-test': 'eval-bar', role: 'img' }, fill, barText);
  const head = h('div', { class: 'engine-head muted', 'data-test': 'engine-head' });
  const list = h('ol', { class: 'engine-lines', 'data-test': 'engine-lines' });
  const panel = h('div', { class: 'engine-panel' }, head, list);

  return {
    bar,
    panel,
    show(lines, turn, ply, note) {
      const best = lines[0];
      const white = best ? whiteView(best.score, turn) : 0;
      const share = best ? barShare(white) : 0.5;
      fill.style.height = `${Math.round(share * 1000) / 10}%`;
      bar.dataset['share'] = share.toFixed(3);
      barText.textContent = best ? scoreLabel(ctx, white) : '';
      bar.setAttribute('aria-label', best ? scoreLabel(ctx, white) : ctx.t('engine'));
      head.textContent = note ?? (best ? `${ctx.t('depthShort', { d: best.depth })} · ${ctx.t('speed', { n: Math.round(best.nps / 1000) })}` : '');
      list.replaceChildren(
        ...lines.map((l) =>
          h('li', { class: 'engine-line', 'data-test': 'engine-line', 'data-multipv': l.multipv, 'data-depth': l.depth },
            h('span', { class: 'score' }, scoreLabel(ctx, whiteView(l.score, turn))),
            h('button', { type: 'button', class: 'pv', title: l.pv.join(' '), onclick: () => onPlay(l) }, numberedLine(l.pv, ply)))),
      );
    },
  };
}

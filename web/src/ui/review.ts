// Game review: the page a finished game shows (#/game/ID once it is over). The game page keeps
// its header, result and buttons; the review takes over its board and move list: any ply can be
// shown (click a move, ←/→/Home/End, swipe), the board flipped, the FEN copied, and "Analyse
// game" runs the in-browser engine over every position with a fixed node budget, draws the
// evaluation graph and marks the moves that lose (analysis/judge.ts, thresholds in docs/web.md).
//
// This module and the engine it starts are loaded only once a game is over.

import type { BoardApi } from '../board/api';
import { parseFen } from '../board/fen';
import type { Color } from '../board/geometry';
import { EngineClient, StoppedError } from '../engine/client';
import type { GameSpec, PlayedMove, WasmGame } from '../engine/types';
import { MATE_SCORE } from '../engine/types';
import { markMoves, type MoveMark, type PositionEval } from '../analysis/judge';
import { graphValue, whiteView } from '../analysis/score';
import type { GameState } from '../net/protocol';
import { evalGraph, plyAt, svgEl } from './charts';
import type { AppCtx } from './context';
import { h } from './dom';
import { moveRows } from './model';
import { bindSteps, copyToClipboard, type Step } from './navigation';
import { scoreLabel } from './enginePanel';

/** The engine's budget for each position of a reviewed game (docs/web.md). */
export const REVIEW_NODES = 150_000;

export interface ReviewParts {
  board: BoardApi;
  boardHost: HTMLElement;
  moveList: HTMLElement;
  /** where the review puts its controls and graph */
  panel: HTMLElement;
  orientation: Color;
}

export interface Review {
  update(s: GameState): void;
  destroy(): void;
}

const SYMBOL: Record<MoveMark['judgement'], string> = { inaccuracy: '?!', mistake: '?', blunder: '??' };

/** Analyses kept for the games reviewed in this tab, so coming back does not start over. */
const analysed = new Map<string, (PositionEval | null)[]>();

function specOf(s: GameState): GameSpec {
  const rules = s.options.draw_rules;
  return {
    variant: s.variant,
    fen: s.start_fen,
    moves: s.moves.map((m) => m.text),
    forcedCapture: s.options.forced_capture,
    drawRules: typeof rules === 'number' ? rules : 0,
  };
}

export function createReview(ctx: AppCtx, parts: ReviewParts, initial: GameState): Review {
  const client = new EngineClient();
  let state = initial;
  let game: WasmGame | null = null;
  let ply = initial.moves.length;
  let orientation = parts.orientation;
  let evals: (PositionEval | null)[] = analysed.get(initial.id) ?? [];
  let marks: MoveMark[] = [];
  let running = false;
  /** one shown position being analysed (stepping), not the whole game */
  let stepping = false;
  let note = '';
  let alive = true;

  const fenField = h('input', { class: 'fen-field', readonly: true, 'data-test': 'review-fen', 'aria-label': 'FEN', onfocus: (e: Event) => (e.target as HTMLInputElement).select() });
  const plyLabel = h('span', { class: 'ply-label', 'data-test': 'review-ply' });
  const navButton = (step: Step, label: string, icon: string): HTMLElement =>
    h('button', { type: 'button', class: 'btn nav', 'data-test': `review-${step}`, 'aria-label': label, title: label, onclick: () => go(step) }, icon);
  const copyButton = h('button', { type: 'button', class: 'btn', 'data-test': 'copy-fen', onclick: () => void copyFen() }, ctx.t('copyFen'));
  const analyseButton = h('button', { type: 'button', class: 'btn primary', 'data-test': 'analyse-game', onclick: () => (running ? stop() : void analyseAll()) });
  const progress = h('progress', { class: 'review-progress', 'data-test': 'review-progress', max: 1, value: 0, hidden: true });
  const status = h('p', { class: 'muted review-status', 'data-test': 'review-status', 'aria-live': 'polite' });
  const graph = h('div', { class: 'eval-graph', 'data-test': 'eval-graph' });
  const markList = h('ul', { class: 'mark-list', 'data-test': 'marks' });
  const callout = h('div', { class: 'mark-callout', 'data-test': 'mark-callout', hidden: true });
  // Every position while stepping: its evaluation and the engine's best move (not only after the
  // moves marked as mistakes); a position not analysed yet is analysed when shown.
  const positionLine = h('p', { class: 'review-eval', 'data-test': 'review-eval', 'aria-live': 'polite' });

  parts.panel.replaceChildren(
    h('section', { class: 'review', 'data-test': 'review' },
      h('h3', {}, ctx.t('review')),
      h('div', { class: 'review-nav' }, navButton('first', ctx.t('firstPly'), '«'), navButton('prev', ctx.t('prevPly'), '‹'), plyLabel, navButton('next', ctx.t('nextPly'), '›'), navButton('last', ctx.t('lastPly'), '»')),
      h('div', { class: 'row' },
        h('button', { type: 'button', class: 'btn', 'data-test': 'flip', onclick: () => flip() }, ctx.t('flip')),
        copyButton,
        h('a', { class: 'btn', 'data-test': 'open-analysis', href: '#', onclick: (e: Event) => { e.preventDefault(); openAnalysis(); } }, ctx.t('openInAnalysis'))),
      fenField,
      positionLine,
      callout,
      h('div', { class: 'row' }, analyseButton),
      progress,
      status,
      graph,
      markList));

  const unbind = bindSteps(parts.boardHost, (s) => go(s));
  const onListClick = (e: Event): void => {
    const t = (e.target as HTMLElement).closest<HTMLElement>('[data-ply]');
    if (!t || t.dataset['ply'] === '') return;
    show(Number(t.dataset['ply']) + 1);
  };
  parts.moveList.addEventListener('click', onListClick);

  /** Turns the board and swaps the players above and below it (the game page's columns). */
  function flip(): void {
    orientation = orientation === 'white' ? 'black' : 'white';
    parts.board.setOrientation(orientation);
    parts.boardHost.closest('.board-col')?.classList.toggle('flipped', orientation !== parts.orientation);
  }

  function go(step: Step): void {
    const last = game?.moves.length ?? 0;
    show(step === 'first' ? 0 : step === 'last' ? last : step === 'prev' ? ply - 1 : ply + 1);
  }

  function show(p: number): void {
    if (!game) return;
    ply = Math.max(0, Math.min(game.moves.length, p));
    const fen = game.fens[ply] ?? game.fen;
    const last = ply > 0 ? (game.moves[ply - 1]?.path ?? null) : null;
    parts.board.setMovable(null);
    parts.board.setPosition(parseFen(fen).pieces, [], [], last);
    fenField.value = fen;
    plyLabel.textContent = ctx.t('plyOf', { n: ply, total: game.moves.length });
    parts.boardHost.dataset['ply'] = String(ply);
    renderList();
    renderGraph();
    renderCallout();
    renderPosition();
    void evaluateShown();
  }

  /** The shown position's evaluation and best move, when known. */
  function renderPosition(): void {
    const e = evals[ply];
    if (!game || !e) {
      positionLine.textContent = game ? ctx.t('evaluating') : '';
      positionLine.dataset['known'] = '0';
      return;
    }
    const score = scoreLabel(ctx, whiteView(e.score, turnAt(ply)));
    positionLine.textContent = e.best ? ctx.t('positionEval', { score, move: e.best.text }) : ctx.t('positionEvalNoMove', { score });
    positionLine.dataset['known'] = '1';
  }

  /** Analyses the shown position if nothing has yet (the whole game's analysis fills them all). */
  async function evaluateShown(): Promise<void> {
    const g = game;
    const p = ply;
    if (!g || running || stepping || evals[p]) return;
    if (evals.length !== g.fens.length) evals = new Array<PositionEval | null>(g.fens.length).fill(null);
    if (p === g.fens.length - 1 && g.result) {
      evals[p] = finalEval(g);
      renderPosition();
      return;
    }
    stepping = true;
    try {
      const r = await client.analyse({ ...specOf(state), moves: specOf(state).moves.slice(0, p) }, { nodes: REVIEW_NODES });
      if (!alive) return;
      const line = r.lines[0];
      evals[p] = line ? { score: line.score, best: line.move, pv: line.pv } : { score: 0, best: null, pv: [] };
      analysed.set(state.id, evals);
    } catch {
      return;
    } finally {
      stepping = false;
    }
    if (ply === p) renderPosition();
    else void evaluateShown();
  }

  function renderList(): void {
    if (!game) return;
    const markAt = new Map(marks.map((m) => [m.ply, m]));
    const rows = moveRows(game.moves, ctx.variant(game.variant)?.first_to_move ?? 'white');
    // a game that starts with the second side leaves its first cell '…'; a last row ends early
    const cell = (m: PlayedMove | null, gap = ''): HTMLElement => {
      if (!m) return h('span', { class: 'mv', 'data-ply': '' }, gap);
      const mark = markAt.get(m.ply);
      return h('span', {
        class: `mv clickable${m.ply + 1 === ply ? ' current' : ''}${mark ? ` mark-${mark.judgement}` : ''}`,
        'data-ply': m.ply,
        ...(mark ? { 'data-mark': mark.judgement, title: ctx.t(`judgement_${mark.judgement}`) } : {}),
      }, m.text, mark ? h('span', { class: 'symbol' }, SYMBOL[mark.judgement]) : null);
    };
    parts.moveList.replaceChildren(
      h('ol', {}, ...rows.map((r) => h('li', {}, h('span', { class: 'num' }, `${r.number}.`), cell(r.first, '…'), cell(r.second)))),
    );
    // The current move in view inside the list only: scrollIntoView scrolled the page too, and a
    // finished game opened on a phone (the list under the board) with the board off screen.
    const current = parts.moveList.querySelector<HTMLElement>('.current');
    if (current) {
      const list = parts.moveList.getBoundingClientRect();
      const box = current.getBoundingClientRect();
      if (box.top < list.top || box.bottom > list.bottom) parts.moveList.scrollTop += box.top - list.top - parts.moveList.clientHeight / 2;
    }
  }

  function turnAt(p: number): Color {
    return (game?.fens[p] ?? 'W').startsWith('B') ? 'black' : 'white';
  }

  function renderGraph(): void {
    if (!game || evals.length === 0) {
      graph.replaceChildren();
      return;
    }
    const W = 600;
    const H = 120;
    const values = game.fens.map((_, i) => {
      const e = evals[i];
      return e ? graphValue(whiteView(e.score, turnAt(i))) : null;
    });
    const g = evalGraph(values, W, H);
    const svg = svgEl('svg', { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none', role: 'img', 'aria-label': ctx.t('evalGraph'), class: 'eval-svg' });
    svg.append(
      svgEl('rect', { x: 0, y: 0, width: W, height: H, class: 'eval-bg' }),
      svgEl('path', { d: g.area, class: 'eval-area' }),
      svgEl('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'eval-mid' }),
      svgEl('path', { d: g.line, class: 'eval-line', 'data-test': 'eval-line' }),
    );
    const n = Math.max(1, game.fens.length - 1);
    for (const m of marks) {
      const p = g.points[m.ply + 1];
      if (p) svg.append(svgEl('circle', { cx: p.x, cy: p.y, r: 5, class: `eval-mark mark-${m.judgement}`, 'data-ply': m.ply + 1 }));
    }
    svg.append(svgEl('line', { x1: (ply / n) * W, y1: 0, x2: (ply / n) * W, y2: H, class: 'eval-cursor' }));
    svg.addEventListener('click', (e: MouseEvent) => {
      const box = svg.getBoundingClientRect();
      if (box.width > 0) show(plyAt((e.clientX - box.left) / box.width, game?.moves.length ?? 0));
    });
    graph.replaceChildren(svg);
  }

  function renderMarks(): void {
    if (!game) return;
    const count = (c: Color, j: MoveMark['judgement']): number => marks.filter((m) => m.judgement === j && game?.moves[m.ply]?.color === c).length;
    const sideName = (c: Color): string => ctx.t(c === 'white' ? 'white' : 'black');
    markList.replaceChildren(
      ...(evals.length === 0 ? [] : (['white', 'black'] as const).map((c) => h('li', { class: 'summary' }, ctx.t('marksOf', { side: sideName(c), inaccuracy: count(c, 'inaccuracy'), mistake: count(c, 'mistake'), blunder: count(c, 'blunder') })))),
      ...marks.map((m) => {
        const mv = game?.moves[m.ply];
        return h('li', { class: `mark mark-${m.judgement}`, 'data-test': 'mark', 'data-ply': m.ply, 'data-mark': m.judgement },
          h('a', { href: '#', onclick: (e: Event) => { e.preventDefault(); show(m.ply + 1); } }, `${mv?.text ?? ''}${SYMBOL[m.judgement]}`),
          ` ${ctx.t(`judgement_${m.judgement}`)} · `,
          h('span', { class: 'better', 'data-test': 'better' }, ctx.t('betterMove', { move: m.better.text })));
      }),
    );
  }

  /** Under the board: what was wrong with the move that led here. */
  function renderCallout(): void {
    const m = marks.find((x) => x.ply + 1 === ply);
    callout.hidden = !m;
    if (m) callout.textContent = `${ctx.t(`judgement_${m.judgement}`)}: ${ctx.t('betterMove', { move: m.better.text })}`;
  }

  function setStatus(text: string): void {
    note = text;
    status.textContent = note;
  }

  function refreshButton(): void {
    analyseButton.textContent = running ? ctx.t('stop') : ctx.t('analyseGame');
    analyseButton.dataset['running'] = running ? '1' : '0';
  }

  /** The position's evaluation when the game is over there: lost for the side to move, or drawn. */
  function finalEval(g: WasmGame): PositionEval | null {
    if (!g.result) return null;
    const lost = g.result.outcome !== 'draw';
    return { score: lost ? -MATE_SCORE : 0, best: null, pv: [] };
  }

  async function analyseAll(): Promise<void> {
    if (!game || running) return;
    const g = game;
    running = true;
    refreshButton();
    const total = g.fens.length;
    while (stepping) await new Promise((r) => setTimeout(r, 50));
    progress.hidden = false;
    progress.max = total;
    if (evals.length !== total) evals = new Array<PositionEval | null>(total).fill(null);
    const base = specOf(state);
    try {
      for (let i = 0; i < total; i++) {
        progress.value = i;
        setStatus(ctx.t('analysingGame', { done: i + 1, total }));
        if (evals[i]) continue;
        const spec = { ...base, moves: base.moves.slice(0, i) };
        const r = await client.analyse(spec, { nodes: REVIEW_NODES });
        if (!alive) return;
        const line = r.lines[0];
        evals[i] = line ? { score: line.score, best: line.move, pv: line.pv } : i === total - 1 ? finalEval(g) : { score: 0, best: null, pv: [] };
        analysed.set(state.id, evals);
        marks = markMoves(g.moves, evals);
        renderGraph();
        renderMarks();
        renderList();
        if (i === ply) renderPosition();
      }
      progress.value = total;
      setStatus(ctx.t('analysisDone', { n: total }));
    } catch (err) {
      if (!alive) return;
      setStatus(err instanceof StoppedError ? ctx.t('analysisStopped') : ctx.t('engineFailed', { message: (err as Error).message }));
    } finally {
      running = false;
      if (alive) {
        progress.hidden = true;
        refreshButton();
        renderCallout();
      }
    }
  }

  function stop(): void {
    client.stop();
  }

  async function copyFen(): Promise<void> {
    const ok = await copyToClipboard(fenField.value, fenField);
    if (ok) copyButton.textContent = ctx.t('fenCopied');
  }

  function openAnalysis(): void {
    if (!game) return;
    const fen = game.fens[ply] ?? game.fen;
    ctx.navigate(`#/analysis/${game.variant}?fen=${encodeURIComponent(fen)}`);
  }

  async function load(): Promise<void> {
    setStatus(ctx.t('engineLoading'));
    try {
      const g = await client.load(specOf(state));
      if (!alive) return;
      game = g;
      if (evals.length !== g.fens.length) evals = [];
      marks = evals.length ? markMoves(g.moves, evals) : [];
      setStatus(evals.length && evals.every((e) => e) ? ctx.t('analysisDone', { n: evals.length }) : '');
      show(g.moves.length);
      renderMarks();
    } catch (err) {
      if (alive) setStatus(ctx.t('engineFailed', { message: (err as Error).message }));
    }
  }

  refreshButton();
  void load();
  return {
    update: (s) => {
      state = s; // the result and buttons are the game page's; the moves of a finished game do not change
    },
    destroy: () => {
      alive = false;
      unbind();
      parts.moveList.removeEventListener('click', onListClick);
      client.destroy();
    },
  };
}

// The puzzle page (#/puzzles/VARIANT[/daily|/streak|/ID]): the position from the side to move, the
// solver moves with the same board as in play (mouse, touch, keyboard, screen reader), the
// replies come by themselves, a wrong move stays on the board with the opponent's answer and
// why it fails; hint, solution, next. Rated puzzles come near the solver's rating (Glicko-2 on
// the server, an account's or this browser's guest rating), the daily puzzle is the same for
// everyone, the streak mode climbs in difficulty until the first mistake (unrated).
//
// Legal moves and positions come from the WebAssembly rules worker, as on the analysis board.

import { createBoard, type BoardApi } from '../board/api';
import { piecesFromLists } from '../board/fen';
import { buildGeometry, type Color, type VariantMeta } from '../board/geometry';
import type { LegalMove } from '../board/state';
import { EngineClient } from '../engine/client';
import type { GameSpec, WasmGame } from '../engine/types';
import { squareWords } from './announce';
import type { AppCtx, View } from './context';
import { h } from './dom';
import { boardControls } from './looks';
import { browserStorage } from './prefs';
import { explainWrong, fromSquare, PuzzleMemory, solverMoves, type AttemptJson, type PuzzleJson, type PuzzleMode, type SolverJson } from './puzzlesModel';
import { pt, themeName, type PuzzleKey } from './puzzlesText';

type Phase = 'loading' | 'play' | 'reply' | 'solved' | 'failed' | 'shown' | 'empty';

const REPLY_MS = 450;
const SHOW_MS = 650;

export function puzzlesView(ctx: AppCtx, root: HTMLElement, variantKey: string | null, mode: PuzzleMode, puzzleId: string | null): View {
  const meta: VariantMeta | undefined = ctx.variant(variantKey ?? '') ?? ctx.variant('international') ?? ctx.variants[0];
  const t = (key: PuzzleKey, params?: Record<string, string | number>): string => pt(ctx.lang, key, params);
  if (!meta) {
    root.replaceChildren(h('p', { class: 'banner error' }, t('loading')));
    return { destroy: () => undefined };
  }
  const variant = meta.key;
  const memory = new PuzzleMemory(browserStorage());
  const client = new EngineClient();
  let alive = true;
  let generation = 0;
  let puzzle: PuzzleJson | null = null;
  let played: string[] = []; // the moves on the board from the puzzle's position
  let step = 0; // index in the solution of the next move
  let tries: string[] = []; // the solver's moves as played, for the attempt
  let helped = false; // hint or solution asked for
  let reported = false;
  let phase: Phase = 'loading';
  let streak = 0;
  let solver: SolverJson | null = memory.rating(variant);
  const timers = new Set<ReturnType<typeof setTimeout>>();

  const boardHost = h('div', { class: 'board-host', 'data-test': 'board' });
  const section = h('section', { class: 'game analysis puzzles', 'data-test': 'puzzle', 'data-variant': variant, 'data-mode': mode });
  const status = h('p', { class: 'status', 'data-test': 'puzzle-status', 'aria-live': 'polite' });
  const explain = h('p', { class: 'puzzle-explain', 'data-test': 'puzzle-explain', 'aria-live': 'polite' });
  const ratingLine = h('p', { class: 'puzzle-rating', 'data-test': 'puzzle-rating' });
  const changeLine = h('p', { class: 'puzzle-change', 'data-test': 'puzzle-change', 'aria-live': 'polite' });
  const info = h('p', { class: 'muted', 'data-test': 'puzzle-info' });
  const streakLine = h('p', { class: 'puzzle-streak', 'data-test': 'puzzle-streak', hidden: mode !== 'streak' });
  const buttons = h('div', { class: 'row puzzle-buttons' });

  const board: BoardApi = createBoard(boardHost, {
    geometry: buildGeometry(meta),
    label: ctx.t('boardLabel', { variant: ctx.variantName(variant) }),
    words: squareWords(ctx.t),
    onMove: (mv) => void onMove(mv),
  });
  board.setAutoPlay(ctx.prefs.autoPlay);
  board.setLook(ctx.prefs.look);
  board.setShowNumbers(ctx.prefs.showNumbers);
  board.setShowCoords(ctx.prefs.showCoords);

  const tab = (m: PuzzleMode, key: PuzzleKey): HTMLElement =>
    h('a', { href: `#/puzzles/${variant}${m === 'rated' ? '' : `/${m}`}`, class: `btn${m === mode ? ' active' : ''}`, 'aria-current': m === mode ? 'page' : 'false', 'data-test': `puzzle-mode-${m}` }, t(key));
  const variantSelect = h('select', { 'data-test': 'puzzle-variant', onchange: (e: Event) => ctx.navigate(`#/puzzles/${(e.target as HTMLSelectElement).value}${mode === 'rated' ? '' : `/${mode}`}`) },
    ...ctx.variants.map((v) => h('option', { value: v.key, selected: v.key === variant }, ctx.variantName(v.key))));

  root.replaceChildren(
    h('div', {},
      section,
    ),
  );
  section.replaceChildren(
    h('div', { class: 'board-col' }, h('div', { class: 'board-wrap' }, boardHost), boardControls(ctx, () => [board])),
    h('aside', { class: 'side' },
      h('h2', { class: 'game-title' }, mode === 'daily' ? t('daily') : mode === 'streak' ? t('streak') : t('title')),
      h('label', { class: 'field' }, h('span', {}, ctx.t('variant')), variantSelect),
      h('nav', { class: 'row puzzle-modes', 'aria-label': t('title') }, tab('rated', 'rated'), tab('daily', 'daily'), tab('streak', 'streak')),
      streakLine, status, explain, buttons, changeLine, ratingLine, info,
      ctx.prefs.token ? null : h('p', { class: 'muted', 'data-test': 'puzzle-guest-note' }, t('guestNote')),
    ),
  );

  const spec = (moves: string[]): GameSpec => ({ variant, fen: puzzle?.fen ?? '', moves, forcedCapture: true, drawRules: 0 });
  const side = (c: Color): string => t(c);
  const later = (ms: number, fn: () => void): void => {
    const id = setTimeout(() => {
      timers.delete(id);
      if (alive) fn();
    }, ms);
    timers.add(id);
  };

  /** The request headers: the account's session, else this browser's guest secret. */
  function auth(): Record<string, string> {
    if (ctx.prefs.token) return { Authorization: `Bearer ${ctx.prefs.token}` };
    if (ctx.prefs.secret) return { Authorization: `Guest ${ctx.prefs.secret}` };
    return {};
  }

  async function api<T>(path: string, body?: unknown): Promise<T> {
    const r = await fetch(path, body === undefined ? { headers: auth() } : { method: 'POST', headers: { ...auth(), 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const j = (await r.json()) as T & { error?: string; message?: string };
    if (!r.ok) throw Object.assign(new Error(j.message ?? `HTTP ${r.status}`), { code: j.error ?? '' });
    return j;
  }

  function setPhase(p: Phase): void {
    phase = p;
    section.dataset['phase'] = p;
    board.setMovable(p === 'play' && puzzle ? puzzle.color : null);
    renderButtons();
  }

  function renderRating(): void {
    ratingLine.textContent = solver ? t('yourRating', { rating: solver.rating }) : '';
    streakLine.textContent = `${t('streakCount', { n: streak })} · ${t('bestStreak', { n: Math.max(memory.bestStreak(variant), solver?.best_streak ?? 0) })}`;
  }

  function renderButtons(): void {
    const b = (test: string, key: PuzzleKey, fn: () => void, disabled = false): HTMLElement =>
      h('button', { type: 'button', class: 'btn', 'data-test': test, disabled, onclick: fn }, t(key));
    const over = phase === 'solved' || phase === 'failed' || phase === 'shown';
    const list: HTMLElement[] = [];
    if (phase === 'play' || phase === 'reply') {
      list.push(b('puzzle-hint', 'hint', hint, phase !== 'play'), b('puzzle-solution', 'solution', () => void showSolution(), phase !== 'play'));
    }
    if (phase === 'failed' && mode !== 'streak') list.push(b('puzzle-retry', 'retry', () => void retry()), b('puzzle-solution', 'solution', () => void showSolution()));
    if (over || phase === 'empty') list.push(b('puzzle-next', mode === 'streak' && phase !== 'solved' ? 'streakNew' : 'next', () => void nextPuzzle()));
    buttons.replaceChildren(...list);
  }

  function show(g: WasmGame): void {
    const last = g.moves.at(-1)?.path ?? null;
    board.setPosition(piecesFromLists(g.position), g.legal_moves, g.capturers, last);
    boardHost.dataset['fen'] = g.fen;
  }

  async function load(): Promise<void> {
    const mine = ++generation;
    setPhase('loading');
    status.textContent = t('loading');
    explain.textContent = '';
    changeLine.textContent = '';
    info.textContent = '';
    try {
      await adoptGuest();
      await waitForIdentity();
      const path = puzzleId
        ? `/api/puzzles/${encodeURIComponent(puzzleId)}`
        : mode === 'daily'
          ? `/api/puzzles/daily?variant=${variant}`
          : mode === 'streak'
            ? `/api/puzzles/next?variant=${variant}&streak=${streak}`
            : `/api/puzzles/next?variant=${variant}`;
      const r = await api<{ puzzle: PuzzleJson; player?: SolverJson; day?: string }>(path);
      if (!alive || mine !== generation) return;
      if (r.player && mode !== 'streak') {
        solver = r.player;
        memory.setRating(r.player);
      }
      await begin(r.puzzle, r.day ?? null);
    } catch (err) {
      if (!alive || mine !== generation) return;
      const code = (err as { code?: string }).code;
      status.textContent = code === 'no_puzzles' ? t('noPuzzles') : t('failed', { message: (err as Error).message });
      setPhase('empty');
    }
  }

  async function begin(p: PuzzleJson, day: string | null): Promise<void> {
    puzzle = p;
    played = [];
    step = 0;
    tries = [];
    helped = false;
    reported = false;
    section.dataset['puzzleId'] = p.id;
    board.setOrientation(p.color);
    const g = await client.load(spec([]));
    if (!alive || puzzle !== p) return;
    show(g);
    status.textContent = t('findMove', { side: side(p.color) });
    explain.textContent = day ? t('dailyOf', { day }) : '';
    info.textContent = `${t('puzzleInfo', { rating: p.rating, plays: p.plays })} · ${t('themes')}: ${p.themes.map((th) => themeName(ctx.lang, th)).join(', ')}`;
    renderRating();
    setPhase('play');
  }

  async function onMove(mv: LegalMove): Promise<void> {
    const p = puzzle;
    if (!p || phase !== 'play') return;
    const text = mv.text ?? mv.path.join('-');
    const expected = p.solution[step] as string;
    setPhase('reply');
    const [mineGame, rightGame] = await Promise.all([client.play(spec(played), text), client.play(spec(played), expected)]);
    if (!alive || puzzle !== p) return;
    tries.push(text);
    if (mineGame.fen !== rightGame.fen) {
      await wrong(p, text, mineGame);
      return;
    }
    played.push(expected);
    step += 1;
    show(rightGame);
    explain.textContent = '';
    if (step >= p.solution.length) {
      await finish(true);
      return;
    }
    status.textContent = t('correct');
    later(REPLY_MS, () => void reply(p));
  }

  async function reply(p: PuzzleJson): Promise<void> {
    const move = p.solution[step] as string;
    const g = await client.play(spec(played), move);
    if (!alive || puzzle !== p) return;
    played.push(move);
    step += 1;
    show(g);
    status.textContent = `${t('reply', { side: side(g.turn === 'white' ? 'black' : 'white'), move })} ${t('yourMove')}`;
    setPhase('play');
  }

  async function wrong(p: PuzzleJson, text: string, g: WasmGame): Promise<void> {
    show(g);
    const ex = explainWrong(ctx.lang, p, step, text);
    status.textContent = `${t('wrong')} ${t('played', { move: text })}`;
    explain.textContent = ex.text;
    setPhase('failed');
    void finish(false);
    if (ex.reply) {
      const reply = ex.reply;
      later(REPLY_MS, () => {
        void client.play(spec([...played, text]), reply).then((after) => {
          if (!alive || puzzle !== p || phase !== 'failed') return;
          show(after);
          status.textContent = `${t('wrong')} ${t('reply', { side: side(after.turn === 'white' ? 'black' : 'white'), move: reply })}`;
        }, () => undefined);
      });
    }
  }

  /** The attempt's end: reported once (rated), or the streak goes on or ends. */
  async function finish(solved: boolean): Promise<void> {
    const p = puzzle;
    if (!p) return;
    if (solved) {
      status.textContent = t('solved');
      setPhase('solved');
    }
    if (reported) return;
    reported = true;
    if (mode === 'streak') {
      if (solved && !helped) {
        streak += 1;
        renderRating();
        later(SHOW_MS, () => void load());
        return;
      }
      memory.setBestStreak(variant, streak);
      explain.textContent = `${explain.textContent ?? ''} ${t('streakOver', { n: streak })}`.trim();
      try {
        const r = await api<{ best_streak: number }>('/api/puzzles/streak', { variant, length: streak });
        if (solver) solver = { ...solver, best_streak: r.best_streak };
      } catch {
        /* the best streak stays in this browser */
      }
      streak = 0;
      renderRating();
      return;
    }
    try {
      const r = await api<AttemptJson>(`/api/puzzles/${p.id}/attempt`, { moves: tries, gave_up: helped });
      if (!alive || puzzle !== p) return;
      if (r.rated) {
        solver = { ...(solver ?? { variant, attempts: 0, solved: 0, best_streak: 0, deviation: r.deviation, rating: r.rating }), rating: r.rating, deviation: r.deviation };
        memory.setRating(solver);
        changeLine.textContent = t('ratingChange', { change: r.change >= 0 ? `+${r.change}` : String(r.change) });
      } else {
        changeLine.textContent = t('notRated');
      }
      section.dataset['rated'] = String(r.rated);
      renderRating();
    } catch (err) {
      changeLine.textContent = t('failed', { message: (err as Error).message });
    }
  }

  function hint(): void {
    const p = puzzle;
    if (!p || phase !== 'play') return;
    helped = true;
    explain.textContent = `${t('hintText', { square: fromSquare(p.solution[step] as string) })} ${t('hintCounts')}`;
  }

  async function showSolution(): Promise<void> {
    const p = puzzle;
    if (!p) return;
    helped = true;
    const wasFailed = phase === 'failed';
    setPhase('shown');
    const line = solverMoves(p).length ? p.solution.join(' ') : '';
    explain.textContent = t('solutionShown', { line });
    // From where the solver left the line (the start again after a wrong move).
    let at = wasFailed ? played.slice() : played.slice();
    let g = await client.load(spec(at));
    if (!alive || puzzle !== p) return;
    show(g);
    for (let i = at.length; i < p.solution.length; i++) {
      await new Promise<void>((res) => later(SHOW_MS, res));
      if (!alive || puzzle !== p) return;
      g = await client.play(spec(at), p.solution[i] as string);
      at = [...at, p.solution[i] as string];
      show(g);
    }
    if (!reported) await finish(false);
  }

  async function retry(): Promise<void> {
    const p = puzzle;
    if (!p) return;
    played = [];
    step = 0;
    const g = await client.load(spec([]));
    if (!alive || puzzle !== p) return;
    show(g);
    explain.textContent = '';
    status.textContent = t('findMove', { side: side(p.color) });
    setPhase('play');
  }

  function nextPuzzle(): void {
    if (puzzleId || mode === 'daily') {
      ctx.navigate(`#/puzzles/${variant}`);
      return;
    }
    void load();
  }

  /** A guest who signed in: its ratings become the account's (once per account). */
  async function adoptGuest(): Promise<void> {
    const user = ctx.prefs.username;
    if (!ctx.prefs.token || !ctx.prefs.secret || !user || memory.adopted(user)) return;
    try {
      await api('/api/puzzles/adopt', { guest: ctx.prefs.secret });
      memory.setAdopted(user);
    } catch {
      /* tried again next time */
    }
  }

  /** A first visit: the guest secret comes with the server's hello; wait a moment for it. */
  async function waitForIdentity(): Promise<void> {
    for (let i = 0; i < 20 && !ctx.prefs.token && !ctx.prefs.secret; i++) {
      await new Promise<void>((res) => later(100, res));
    }
  }

  renderRating();
  void load();

  return {
    destroy: () => {
      alive = false;
      for (const id of timers) clearTimeout(id);
      client.destroy();
      board.destroy();
    },
  };
}

// The analysis board (#/analysis/VARIANT, optional ?fen=): moves for both sides with their
// legality from the WebAssembly core, variations as a tree (a new move after stepping back opens
// a branch), the engine's lines (up to three) with an evaluation bar, FEN or PDN pasted in, the
// line exported as PDN, and the position editor (editorPanel.ts) with "play from here".
//
// Every position change stops the running search, asks the rules worker for the new position
// and starts a new search there (engine/client.ts).

import { createBoard, type BoardApi } from '../board/api';
import { parseFen, piecesFromLists } from '../board/fen';
import { buildGeometry, type Color, type VariantMeta } from '../board/geometry';
import { EngineClient, StoppedError } from '../engine/client';
import type { AnalysisLine, GameSpec, WasmGame } from '../engine/types';
import { mergeLine } from '../analysis/lines';
import { addMove, deleteFrom, endOfLine, firstChild, lineThrough, lineTree, movesTo, newTree, parentOf, pdnMovetext, promote, ROOT, tokens, withVariations, type Tree, type TreeMove } from '../analysis/tree';
import type { AppCtx, View } from './context';
import { h } from './dom';
import { editorPanel, playFrom, type EditorPanel } from './editorPanel';
import { enginePanel } from './enginePanel';
import { boardControls, lookFor } from './looks';
import { bindSteps, type Step } from './navigation';

const STEP_ICON: Record<Step, string> = { first: '«', prev: '‹', next: '›', last: '»' };
const STEP_LABEL = { first: 'firstPly', prev: 'prevPly', next: 'nextPly', last: 'lastPly' } as const satisfies Record<Step, string>;

/** How long the analysis board searches one position (it stops earlier at the depth cap). */
export const ANALYSIS_SECONDS = 60;

export function analysisView(ctx: AppCtx, root: HTMLElement, variantKey: string | null, fenParam: string | null): View {
  let meta: VariantMeta | undefined = ctx.variant(variantKey ?? '') ?? ctx.variants[0];
  if (!meta) {
    root.replaceChildren(h('p', { class: 'banner error' }, ctx.t('loading')));
    return { destroy: () => undefined };
  }
  const client = new EngineClient();
  let rootFen = fenParam ?? '';
  let tree: Tree = newTree();
  let at = ROOT;
  let game: WasmGame | null = null;
  let lines: AnalysisLine[] = [];
  let engineOn = true;
  let lineCount = 3;
  let orientation: Color = 'white';
  let editor: EditorPanel | null = null;
  let generation = 0;
  let alive = true;
  let notice = '';

  const boardHost = h('div', { class: 'board-host', 'data-test': 'board' });
  const engine = enginePanel(ctx, (l) => l.move && playMove({ path: l.move.path, captures: l.move.captures, text: l.move.text }));
  const status = h('div', { class: 'status', 'data-test': 'analysis-status', 'aria-live': 'polite' });
  const treeList = h('div', { class: 'move-tree', 'data-test': 'move-tree' });
  const tools = h('div', { class: 'analysis-tools' });
  const side = h('aside', { class: 'side' });
  const variantSelect = h('select', { 'data-test': 'analysis-variant', onchange: (e: Event) => ctx.navigate(`#/analysis/${(e.target as HTMLSelectElement).value}`) },
    ...ctx.variants.map((v) => h('option', { value: v.key, selected: v.key === meta?.key }, ctx.variantName(v.key))));

  const board: BoardApi = createBoard(boardHost, {
    geometry: buildGeometry(meta),
    label: ctx.variantName(meta.key),
    onMove: (mv) => playMove({ path: mv.path, captures: mv.captures, text: mv.text ?? mv.path.join('-') }),
    onSquare: (sq) => editor?.tap(sq),
  });
  board.setLook(lookFor(ctx.prefs, meta.key));
  board.setShowNumbers(ctx.prefs.showNumbers);
  board.setShowCoords(ctx.prefs.showCoords);

  root.replaceChildren(
    h('section', { class: 'game analysis', 'data-test': 'analysis', 'data-variant': meta.key },
      h('div', { class: 'board-col' },
        h('div', { class: 'board-wrap with-bar' }, engine.bar, boardHost),
        h('div', { class: 'review-nav' },
          ...(['first', 'prev', 'next', 'last'] as const).map((s) => h('button', { type: 'button', class: 'btn nav', 'data-test': `nav-${s}`, 'aria-label': ctx.t(STEP_LABEL[s]), title: ctx.t(STEP_LABEL[s]), onclick: () => step(s) }, STEP_ICON[s])),
          h('button', { type: 'button', class: 'btn', 'data-test': 'flip', onclick: () => { orientation = orientation === 'white' ? 'black' : 'white'; board.setOrientation(orientation); } }, ctx.t('flip'))),
        boardControls(ctx, () => [board], undefined, () => meta?.key ?? '')),
      side));

  const unbindSteps = bindSteps(boardHost, (s) => {
    if (!editor) step(s);
  });

  const spec = (moves: readonly TreeMove[] = movesTo(tree, at)): GameSpec => ({ variant: meta?.key ?? '', fen: rootFen, moves: moves.map((m) => m.text), forcedCapture: true, drawRules: 0 });
  /** 0 when the root's side to move is the variant's first side, else 1 (move numbers). */
  const rootOffset = (): number => (game && (game.fens[0] ?? '').startsWith('B') === (meta?.first_to_move === 'white') ? 1 : 0);

  function renderSide(): void {
    if (editor) {
      side.replaceChildren(h('h1', { class: 'game-title' }, ctx.t('analysisBoard')), editor.panel);
      return;
    }
    side.replaceChildren(
      h('h1', { class: 'game-title' }, ctx.t('analysisBoard')),
      h('label', { class: 'field' }, h('span', {}, ctx.t('variant')), variantSelect),
      status,
      h('div', { class: 'row engine-controls' },
        h('label', { class: 'toggle' }, h('input', { type: 'checkbox', 'data-test': 'engine-on', checked: engineOn, onchange: (e: Event) => { engineOn = (e.target as HTMLInputElement).checked; startEngine(); } }), ctx.t('engineOn')),
        h('label', { class: 'field inline' }, h('span', {}, ctx.t('lines')),
          h('select', { 'data-test': 'engine-lines-count', onchange: (e: Event) => { lineCount = Number((e.target as HTMLSelectElement).value); startEngine(); } },
            ...[1, 2, 3].map((n) => h('option', { value: n, selected: n === lineCount }, String(n)))))),
      engine.panel,
      h('h3', {}, ctx.t('moves')),
      treeList,
      tools,
    );
  }

  function renderTools(): void {
    const paste = h('textarea', { class: 'paste', rows: 3, 'data-test': 'paste', placeholder: meta?.start_fen ?? '', spellcheck: 'false', 'aria-label': ctx.t('pasteLabel') });
    tools.replaceChildren(
      h('div', { class: 'row' },
        h('button', { type: 'button', class: 'btn', 'data-test': 'delete-variation', onclick: () => { ({ tree, id: at } = deleteFrom(tree, at)); void refresh(); } }, ctx.t('deleteFromHere')),
        h('button', { type: 'button', class: 'btn', 'data-test': 'promote-variation', onclick: () => { tree = promote(tree, at); renderTree(); } }, ctx.t('makeMainLine'))),
      h('label', { class: 'field' }, h('span', {}, ctx.t('pasteLabel')), paste),
      h('div', { class: 'row' },
        h('button', { type: 'button', class: 'btn', 'data-test': 'paste-load', onclick: () => void loadText(paste.value) }, ctx.t('load')),
        h('button', { type: 'button', class: 'btn', 'data-test': 'export-pdn', onclick: () => void exportPdn() }, ctx.t('exportPdn')),
        h('button', { type: 'button', class: 'btn', 'data-test': 'edit-position', onclick: () => openEditor() }, ctx.t('editPosition'))),
      h('div', { class: 'row' },
        h('button', { type: 'button', class: 'btn', 'data-test': 'play-computer-here', onclick: () => void playHere('computer') }, ctx.t('playComputerHere')),
        h('button', { type: 'button', class: 'btn', 'data-test': 'play-friend-here', onclick: () => void playHere('friend') }, ctx.t('playFriendHere'))),
    );
  }

  function renderTree(): void {
    const toks = tokens(tree, rootOffset() as 0 | 1);
    if (toks.length === 0) {
      treeList.replaceChildren(h('p', { class: 'muted' }, ctx.t('noMoves')));
      return;
    }
    treeList.replaceChildren(...toks.map((t) => {
      if (t.kind === 'open') return h('span', { class: `var-open depth-${Math.min(t.depth, 3)}` }, '(');
      if (t.kind === 'close') return h('span', { class: 'var-close' }, ')');
      return h('span', { class: `tree-move${t.id === at ? ' current' : ''}`, 'data-node': t.id, 'data-ply': t.ply, onclick: () => { at = t.id; void refresh(); } }, t.number ? h('span', { class: 'num' }, `${t.number} `) : null, t.text);
    }));
  }

  function renderStatus(): void {
    if (!game) return;
    const text = notice || (game.result ? ctx.t('gameOverHere', { text: game.result.text }) : ctx.t('toMove', { side: ctx.t(game.turn) }));
    status.textContent = text;
    status.classList.toggle('error', notice !== '');
  }

  function showBoard(g: WasmGame): void {
    const last = movesTo(tree, at).at(-1)?.path ?? null;
    board.setPosition(piecesFromLists(g.position), g.legal_moves, g.capturers, last);
    board.setMovable(g.result ? null : g.turn);
    boardHost.dataset['fen'] = g.fen;
  }

  /** Shows the current node's position: after `played` (the move just made), else loaded whole. */
  async function refresh(played?: TreeMove): Promise<void> {
    const mine = ++generation;
    client.stop();
    try {
      const g = played ? await client.play(spec(movesTo(tree, at).slice(0, -1)), played.text) : await client.load(spec());
      if (!alive || mine !== generation) return;
      game = g;
      if (!editor) showBoard(g);
      renderTree();
      renderStatus();
      startEngine();
    } catch (err) {
      if (!alive || mine !== generation) return;
      notice = ctx.t('notLoaded', { message: (err as Error).message });
      renderStatus();
    }
  }

  function startEngine(): void {
    client.stop();
    lines = [];
    const g = game;
    const mine = generation;
    const ply = g ? g.ply + rootOffset() : 0;
    if (!g || !engineOn || g.result || editor) {
      engine.show([], g?.turn ?? 'white', ply, '');
      return;
    }
    engine.show([], g.turn, ply, ctx.t('engineLoading'));
    client
      .analyse(spec(), { seconds: ANALYSIS_SECONDS, lines: lineCount }, (l) => {
        if (mine !== generation || !alive) return;
        lines = mergeLine(lines, l);
        engine.show(lines, g.turn, ply);
      })
      .then((r) => {
        if (mine !== generation || !alive || r.lines.length === 0) return;
        for (const l of r.lines) lines = mergeLine(lines, l);
        engine.show(lines, g.turn, ply);
      })
      .catch((err: unknown) => {
        if (err instanceof StoppedError || !alive || mine !== generation) return;
        engine.show(lines, g.turn, ply, ctx.t('engineFailed', { message: (err as Error).message }));
      });
  }

  function playMove(m: TreeMove): void {
    if (editor) return;
    ({ tree, id: at } = addMove(tree, at, m));
    notice = '';
    void refresh(m);
  }

  function step(s: Step): void {
    at = s === 'first' ? ROOT : s === 'prev' ? parentOf(tree, at) : s === 'next' ? firstChild(tree, at) : endOfLine(tree, at);
    void refresh();
  }

  /** A FEN (starts with W: or B:) or a PDN game: the board starts over from it. */
  async function loadText(text: string): Promise<void> {
    const t = text.trim();
    if (!t) return;
    notice = '';
    try {
      if (/^[WBwb]\s*:/.test(t)) {
        await client.load({ variant: meta?.key ?? '', fen: t, moves: [], forcedCapture: true, drawRules: 0 });
        start(meta?.key ?? '', t, []);
        return;
      }
      const [first] = await client.readPdn(t, meta?.key ?? 'international');
      if (!first) return;
      const g = await client.load({ variant: first.variant, fen: first.start_fen, moves: first.moves, forcedCapture: true, drawRules: 0 });
      start(first.variant, first.start_fen, g.moves.map((m) => ({ path: m.path, captures: m.captures, text: m.text })));
    } catch (err) {
      notice = ctx.t('notLoaded', { message: (err as Error).message });
      renderStatus();
    }
  }

  /** A new tree from `fen` with one line of moves; the board shows its end. */
  function start(variant: string, fen: string, moves: TreeMove[]): void {
    if (variant !== meta?.key) {
      meta = ctx.variant(variant) ?? meta;
      if (!meta) return;
      board.setGeometry(buildGeometry(meta));
      board.setOrientation(orientation);
      root.querySelector('[data-test="analysis"]')?.setAttribute('data-variant', meta.key);
      variantSelect.value = meta.key;
      renderTools();
    }
    rootFen = fen;
    const t = lineTree(moves);
    tree = t.tree;
    at = t.last;
    history.replaceState(null, '', `#/analysis/${meta.key}${fen ? `?fen=${encodeURIComponent(fen)}` : ''}`);
    void refresh();
  }

  async function exportPdn(): Promise<void> {
    try {
      const d = new Date();
      const date = `${d.getFullYear()}.${String(d.getMonth() + 1).padStart(2, '0')}.${String(d.getDate()).padStart(2, '0')}`;
      // The core writes the tags and the main line; the movetext is the whole tree's, its
      // variations in brackets (they were dropped before).
      const main = await client.writePdn(spec(lineThrough(tree, ROOT)), [['Event', 'Papan analysis'], ['Site', location.host || 'Papan'], ['Date', date]]);
      const text = withVariations(main, pdnMovetext(tree, rootOffset() as 0 | 1));
      const url = URL.createObjectURL(new Blob([text], { type: 'application/x-pdn' }));
      const a = h('a', { href: url, download: `papan-${meta?.key ?? 'analysis'}.pdn`, hidden: true });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (err) {
      notice = ctx.t('error', { message: (err as Error).message });
      renderStatus();
    }
  }

  async function playHere(mode: 'computer' | 'friend'): Promise<void> {
    if (!game || !meta) return;
    try {
      const id = await playFrom(ctx, meta.key, game.fen, mode, game.turn, 'normal');
      ctx.navigate(`#/game/${id}`);
    } catch (err) {
      notice = ctx.t('error', { message: (err as Error).message });
      renderStatus();
    }
  }

  function openEditor(): void {
    if (!meta) return;
    client.stop();
    const startAt = game ? { pieces: piecesFromLists(game.position), turn: game.turn } : { ...parseFen(meta.start_fen) };
    editor = editorPanel(ctx, board, meta, client, startAt, {
      analyse: (fen) => {
        editor = null;
        renderSide();
        start(meta?.key ?? '', fen, []);
      },
      cancel: () => {
        editor = null;
        renderSide();
        if (game) showBoard(game);
        startEngine();
      },
    });
    engine.show([], game?.turn ?? 'white', 0, '');
    renderSide();
  }

  renderSide();
  renderTools();
  if (rootFen) history.replaceState(null, '', `#/analysis/${meta.key}?fen=${encodeURIComponent(rootFen)}`);
  void refresh();

  return {
    destroy: () => {
      alive = false;
      unbindSteps();
      client.destroy();
      board.destroy();
    },
  };
}

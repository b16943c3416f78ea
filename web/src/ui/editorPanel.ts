// The position editor of the analysis board: a piece palette (men and kings of both colours,
// remove), the side to move, clear / start position, and what to do with the position: analyse
// it, or start a game from it against the computer or a friend. The rules core checks the
// position (checkSetup) and its message is shown as it is.

import type { BoardApi } from '../board/api';
import { parseFen, type Pieces } from '../board/fen';
import type { Color, VariantMeta } from '../board/geometry';
import { applyTool, toFen, TOOLS, type Tool } from '../analysis/editor';
import type { EngineClient } from '../engine/client';
import type { Level } from '../net/protocol';
import type { AppCtx } from './context';
import { h } from './dom';

export interface EditorPanel {
  panel: HTMLElement;
  /** a tapped square of the board */
  tap(sq: number | null): void;
}

export interface EditorHooks {
  /** "Analyse this position" with the checked, normalised FEN */
  analyse(fen: string): void;
  cancel(): void;
}

/** Starts a game from a FEN on the server; resolves with the game id, or throws the server's message. */
export async function playFrom(ctx: AppCtx, variant: string, fen: string, mode: 'computer' | 'friend', color: Color, level: Level): Promise<string> {
  const reply = await ctx.conn.request({
    type: 'create',
    mode,
    variant,
    fen,
    color,
    ...(mode === 'computer' ? { level } : { clock: { kind: 'byoyomi', main: 300, periods: 3, period: 30 } }),
  });
  if (reply.type === 'created') {
    if (reply.link) ctx.prefs.setLink(reply.game, new URL(reply.link, location.href).href);
    return reply.game;
  }
  throw new Error(reply.type === 'error' ? reply.message : `unexpected reply ${reply.type}`);
}

export function editorPanel(ctx: AppCtx, board: BoardApi, meta: VariantMeta, client: EngineClient, start: { pieces: Pieces; turn: Color }, hooks: EditorHooks): EditorPanel {
  let pieces: Pieces = new Map(start.pieces);
  let turn: Color = start.turn;
  let tool: Tool = 'white-man';
  let level: Level = 'normal';
  const message = h('p', { class: 'banner error', 'data-test': 'editor-error', hidden: true });
  const fenLine = h('code', { class: 'fen-line', 'data-test': 'editor-fen' });
  const tools = h('div', { class: 'editor-tools', role: 'radiogroup', 'aria-label': ctx.t('editPosition') });
  const sides = h('div', { class: 'row' });

  const draw = (): void => {
    board.setMovable(null);
    board.setPosition(pieces, [], [], null);
    fenLine.textContent = toFen(pieces, turn);
    tools.replaceChildren(...TOOLS.map((t) =>
      h('button', { type: 'button', class: `btn tool tool-${t}${t === tool ? ' active' : ''}`, 'data-test': `tool-${t}`, 'aria-pressed': String(t === tool), onclick: () => { tool = t; draw(); } }, ctx.t(`tool_${t}`))));
    sides.replaceChildren(
      h('span', {}, `${ctx.t('sideToMove')}: `),
      ...(['white', 'black'] as const).map((c) =>
        h('label', { class: `choice${c === turn ? ' active' : ''}` }, h('input', { type: 'radio', name: 'editor-turn', 'data-test': `turn-${c}`, checked: c === turn, onchange: () => { turn = c; draw(); } }), h('span', {}, ctx.t(c)))),
    );
  };

  const fail = (text: string): void => {
    message.textContent = text;
    message.hidden = false;
  };

  /** The FEN when a game can start from it; else shows why not. */
  const checked = async (): Promise<string | null> => {
    message.hidden = true;
    const r = await client.checkSetup(meta.key, toFen(pieces, turn));
    if ('error' in r) {
      fail(ctx.t('impossible', { message: r.error }));
      return null;
    }
    return r.fen;
  };

  const play = async (mode: 'computer' | 'friend'): Promise<void> => {
    const fen = await checked();
    if (!fen) return;
    try {
      const id = await playFrom(ctx, meta.key, fen, mode, turn, level);
      ctx.navigate(`#/game/${id}`);
    } catch (err) {
      fail(ctx.t('error', { message: (err as Error).message }));
    }
  };

  const panel = h('section', { class: 'editor', 'data-test': 'editor' },
    h('h3', {}, ctx.t('editPosition')),
    tools,
    sides,
    h('div', { class: 'row' },
      h('button', { type: 'button', class: 'btn', 'data-test': 'editor-clear', onclick: () => { pieces = new Map(); draw(); } }, ctx.t('clearBoard')),
      h('button', { type: 'button', class: 'btn', 'data-test': 'editor-start', onclick: () => { const f = parseFen(meta.start_fen); pieces = f.pieces; turn = f.turn; draw(); } }, ctx.t('startPosition'))),
    fenLine,
    message,
    h('div', { class: 'row' },
      h('button', { type: 'button', class: 'btn primary', 'data-test': 'editor-analyse', onclick: () => void checked().then((fen) => fen && hooks.analyse(fen)) }, ctx.t('analyseThis')),
      h('button', { type: 'button', class: 'btn', 'data-test': 'editor-cancel', onclick: () => hooks.cancel() }, ctx.t('cancel'))),
    h('div', { class: 'row' },
      h('select', { 'data-test': 'editor-level', 'aria-label': ctx.t('level'), onchange: (e: Event) => (level = (e.target as HTMLSelectElement).value as Level) },
        ...(['easy', 'normal', 'hard'] as const).map((l) => h('option', { value: l, selected: l === level }, ctx.t(`level_${l}`)))),
      h('button', { type: 'button', class: 'btn', 'data-test': 'play-computer', onclick: () => void play('computer') }, ctx.t('playComputerHere'))),
    h('div', { class: 'row' },
      h('button', { type: 'button', class: 'btn', 'data-test': 'play-friend', onclick: () => void play('friend') }, ctx.t('playFriendHere'))),
  );
  draw();
  return {
    panel,
    tap: (sq) => {
      if (sq === null) return;
      pieces = applyTool(pieces, sq, tool);
      draw();
    },
  };
}

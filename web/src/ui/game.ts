// The game page: board, players and clocks, status and result banner, buttons, move list.
// Everything shown comes from the server's state (model.ts derives what to show); the board
// sends the move the player completed and shows it at once until the server answers.

import { createBoard, type BoardApi } from '../board/api';
import { piecesFromLists } from '../board/fen';
import { buildGeometry, type Color } from '../board/geometry';
import { maybeKey } from '../i18n';
import type { GameState, ServerMessage } from '../net/protocol';
import type { AppCtx, View } from './context';
import { h } from './dom';
import { boardControls } from './looks';
import type { Review } from './review';
import { buttonsOf, clocksAt, formatMs, movableOf, moveRows, nearLimit, orientationOf, seatOf, type Seat } from './model';

export function gameView(ctx: AppCtx, root: HTMLElement, gameId: string): View {
  let state: GameState | null = ctx.games.get(gameId) ?? null;
  let receivedAt = performance.now();
  let board: BoardApi | null = null;
  let boardVariant = '';
  let pendingMove: number | null = null;
  let confirmResign = false;
  let notice = '';
  let lastRematch: string | null = state?.rematch.game ?? null;
  // Once the game is over the review (loaded then) drives the board and the move list.
  let review: Review | null = null;
  let reviewStarting = false;
  let destroyed = false;
  const reviewPanel = h('div', { class: 'review-panel' });

  const boardHost = h('div', { class: 'board-host', 'data-test': 'board' });
  const topPlayer = h('div', { class: 'player top', 'data-test': 'player-top' });
  const bottomPlayer = h('div', { class: 'player bottom', 'data-test': 'player-bottom' });
  const limit = h('div', { class: 'move-limit', 'data-test': 'move-limit' });
  // phones: the turn or the result also above the board, where the player looks
  const mobileStatus = h('div', { class: 'mobile-status', 'aria-hidden': 'true' });
  const status = h('div', { class: 'status', 'data-test': 'status', 'aria-live': 'polite' });
  const banner = h('div', { class: 'banner-area' });
  const buttons = h('div', { class: 'buttons' });
  const moveList = h('div', { class: 'move-list', 'data-test': 'move-list' });
  const heading = h('h2', { class: 'game-title' });

  root.replaceChildren(
    h(
      'section',
      { class: 'game', 'data-test': 'game', 'data-game': gameId },
      h(
        'div',
        { class: 'board-col' },
        mobileStatus,
        topPlayer,
        h('div', { class: 'board-wrap' }, boardHost),
        bottomPlayer,
        limit,
        boardControls(ctx, () => (board ? [board] : [])),
      ),
      h('aside', { class: 'side' }, heading, status, banner, buttons, reviewPanel, h('h3', {}, ctx.t('moves')), moveList),
    ),
  );

  const seat = (): Seat => (state ? seatOf(state, ctx.conn.playerId) : { mine: null });
  const sideName = (c: Color): string => ctx.t(c === 'white' ? 'white' : 'black');

  function ensureBoard(s: GameState): BoardApi | null {
    if (board && boardVariant === s.variant) return board;
    const meta = ctx.variant(s.variant);
    if (!meta) return null;
    const g = buildGeometry(meta);
    if (board) {
      board.setGeometry(g);
    } else {
      board = createBoard(boardHost, {
        geometry: g,
        label: ctx.variantName(s.variant),
        onMove: (mv) => {
          if (!state) return;
          pendingMove = ctx.conn.send({ type: 'move', game: gameId, ply: state.ply, path: mv.path });
        },
      });
      board.setLook(ctx.prefs.look);
      board.setShowNumbers(ctx.prefs.showNumbers);
      board.setShowCoords(ctx.prefs.showCoords);
    }
    boardVariant = s.variant;
    return board;
  }

  function playerLine(el: HTMLElement, s: GameState, c: Color): void {
    const p = s.players[c];
    const name = p ? (p.computer ? `${ctx.t('computer')} (${ctx.t(`level_${s.level}` as 'level_easy') || s.level})` : p.name) : ctx.t('waiting');
    const profile = p && p.account && !p.computer ? `#/player/${encodeURIComponent(p.name)}` : null;
    const turn = s.status === 'playing' && !s.result && s.turn === c;
    el.classList.toggle('to-move', turn);
    el.dataset['color'] = c;
    el.replaceChildren(
      h('span', { class: `dot ${c}`, 'aria-hidden': 'true' }),
      profile ? h('a', { class: 'name', href: profile, 'data-test': `player-link-${c}` }, name) : h('span', { class: 'name' }, name),
      h('span', { class: 'side-label' }, sideName(c)),
      h('span', { class: 'clock', 'data-test': `clock-${c}` }),
    );
  }

  function tickClocks(): void {
    if (!state?.clock) return;
    const shows = clocksAt(state.clock, performance.now() - receivedAt);
    for (const c of ['white', 'black'] as const) {
      const el = root.querySelector<HTMLElement>(`[data-test="clock-${c}"]`);
      if (!el) continue;
      const v = shows[c];
      const tc = state.clock.time_control;
      el.classList.toggle('running', state.clock.running === c);
      el.classList.toggle('low', v.overtime || v.main_ms < 20_000);
      el.textContent = v.overtime
        ? `${formatMs(v.period_ms)} (${v.periods}×)`
        : tc.kind === 'byoyomi' && (tc.periods ?? 0) > 0
          ? `${formatMs(v.main_ms)} +${v.periods}×${tc.period ?? 0}s`
          : formatMs(v.main_ms);
    }
  }

  function resultText(s: GameState): string {
    if (!s.result) return '';
    const mine = seat().mine;
    let head = ctx.t((maybeKey(`result_${s.result.outcome}`) ?? 'result_draw'));
    if ((mine === 'white' || mine === 'black') && s.result.outcome !== 'draw') {
      head = ctx.t(s.result.outcome.startsWith(mine) ? 'youWon' : 'youLost') + ` — ${head}`;
    }
    const reasonKey = maybeKey(`reason_${s.result.reason}`);
    return `${head} (${reasonKey ? ctx.t(reasonKey) : s.result.text})`;
  }

  function render(): void {
    const s = state;
    if (!s) {
      status.textContent = ctx.t('loading');
      return;
    }
    const st = seat();
    heading.textContent = ctx.variantName(s.variant) + (s.options.forced_capture ? '' : ` · ${ctx.t('noForcedCapture')}`);
    const b = ensureBoard(s);
    const orientation = orientationOf(st);
    if (b && !review) {
      const last = s.moves.length ? (s.moves[s.moves.length - 1]?.path ?? null) : null;
      b.setOrientation(orientation);
      b.setPosition(
        piecesFromLists(s.position),
        s.legal_moves.map((m) => ({ path: m.path, captures: m.captures, text: m.text })),
        s.capturers,
        last,
      );
      b.setMovable(movableOf(s, st));
    }
    const other: Color = orientation === 'white' ? 'black' : 'white';
    playerLine(topPlayer, s, other);
    playerLine(bottomPlayer, s, orientation);
    tickClocks();

    // status and result
    status.classList.toggle('over', !!s.result);
    if (s.result) {
      status.replaceChildren(h('div', { class: 'result', 'data-test': 'result', 'data-outcome': s.result.outcome, 'data-reason': s.result.reason }, resultText(s)));
    } else if (s.status === 'waiting') {
      status.textContent = ctx.t('waiting');
    } else {
      const mine = st.mine;
      const text = mine === 'white' || mine === 'black' ? (s.turn === mine ? ctx.t('yourTurn') : ctx.t('theirTurn')) : ctx.t('toMove', { side: sideName(s.turn) });
      status.replaceChildren(h('div', { 'data-test': 'turn', 'data-turn': s.turn }, text));
    }
    mobileStatus.textContent = status.textContent;
    mobileStatus.classList.toggle('over', !!s.result);
    const lim = nearLimit(s);
    const limitKey = lim ? maybeKey(`limit_${lim.rule}`) : null;
    limit.textContent = lim ? ctx.t('movesLeft', { n: lim.moves_left, rule: limitKey ? ctx.t(limitKey) : lim.text }) : '';
    limit.hidden = !lim;

    // banners
    const items: HTMLElement[] = [];
    const link = ctx.prefs.linkOf(gameId);
    if (s.status === 'waiting' && link) {
      items.push(h('div', { class: 'banner info' }, h('p', {}, ctx.t('waitingFriend')), h('input', { class: 'link', readonly: true, value: link, 'data-test': 'friend-link', onfocus: (e: Event) => (e.target as HTMLInputElement).select() })));
    }
    const actor = st.mine === 'both' ? s.turn : st.mine;
    if (s.draw_offer && !s.result) {
      items.push(h('div', { class: 'banner info', 'data-test': 'draw-banner' }, s.draw_offer === actor ? ctx.t('drawOfferSent') : ctx.t('drawOffered')));
    }
    if (s.rematch.white !== s.rematch.black && !s.rematch.game) {
      const asked: Color = s.rematch.white ? 'white' : 'black';
      items.push(h('div', { class: 'banner info' }, asked === actor ? ctx.t('rematchSent') : ctx.t('rematchOffered')));
    }
    if (notice) items.push(h('div', { class: 'banner error', 'data-test': 'notice' }, notice));
    banner.replaceChildren(...items);

    // buttons
    const bt = buttonsOf(s, st, !!link);
    const send = (type: 'resign' | 'draw_offer' | 'draw_accept' | 'draw_decline' | 'draw_claim' | 'undo' | 'rematch') => () => {
      notice = '';
      ctx.conn.send({ type, game: gameId });
    };
    const btn = (show: boolean, label: string, test: string, onclick: () => void, cls = ''): HTMLElement | null =>
      show ? h('button', { type: 'button', class: `btn ${cls}`, 'data-test': test, onclick }, label) : null;
    buttons.replaceChildren(
      ...[
        btn(bt.answerDraw, ctx.t('acceptDraw'), 'draw-accept', send('draw_accept'), 'primary'),
        btn(bt.answerDraw, ctx.t('declineDraw'), 'draw-decline', send('draw_decline')),
        btn(bt.undo, ctx.t('undo'), 'undo', send('undo')),
        btn(bt.offerDraw, ctx.t('offerDraw'), 'draw-offer', send('draw_offer')),
        btn(bt.claimDraw, ctx.t('claimDraw'), 'draw-claim', send('draw_claim')),
        btn(bt.resign, confirmResign ? ctx.t('confirmResign') : ctx.t('resign'), 'resign', () => {
          if (!confirmResign) {
            confirmResign = true;
            render();
            return;
          }
          confirmResign = false;
          send('resign')();
        }, confirmResign ? 'danger' : ''),
        btn(bt.copyLink, ctx.t('copyLink'), 'copy-link', () => {
          if (link) copyText(link, root.querySelector<HTMLInputElement>('[data-test="friend-link"]'));
          notice = '';
          const el = buttons.querySelector('[data-test="copy-link"]');
          if (el) el.textContent = ctx.t('copied');
        }),
        btn(bt.rematch, ctx.t('rematch'), 'rematch', send('rematch'), 'primary'),
        bt.pdn ? h('a', { class: 'btn', href: `/api/games/${encodeURIComponent(gameId)}/pdn`, download: `papan-${gameId}.pdn`, 'data-test': 'pdn' }, ctx.t('downloadPdn')) : null,
        h('a', { class: 'btn', href: '#/', 'data-test': 'new-game' }, ctx.t('newGame')),
      ].filter((x): x is HTMLElement => x !== null),
    );

    if (s.status === 'over') startReview(s, b, orientation);
    review?.update(s);
    root.dataset['version'] = String(s.version);
    if (review) return;

    // move list
    const rows = moveRows(s.moves, ctx.variant(s.variant)?.first_to_move ?? 'white');
    moveList.replaceChildren(
      rows.length === 0
        ? h('p', { class: 'muted' }, ctx.t('noMoves'))
        : h(
            'ol',
            {},
            ...rows.map((r) =>
              h('li', {}, h('span', { class: 'num' }, `${r.number}.`), h('span', { class: 'mv', 'data-ply': r.first?.ply ?? '' }, r.first?.text ?? '…'), h('span', { class: 'mv', 'data-ply': r.second?.ply ?? '' }, r.second?.text ?? '')),
            ),
          ),
    );
    moveList.scrollTop = moveList.scrollHeight;
    root.dataset['version'] = String(s.version);
  }

  function startReview(s: GameState, b: BoardApi | null, orientation: Color): void {
    if (review || reviewStarting || !b) return;
    reviewStarting = true;
    void import('./review').then(({ createReview }) => {
      if (destroyed) return;
      review = createReview(ctx, { board: b, boardHost, moveList, panel: reviewPanel, orientation }, s);
    });
  }

  const onMessage = (m: ServerMessage): void => {
    if ((m.type === 'state' || m.type === 'event') && m.game === gameId) {
      state = m.state;
      ctx.games.set(gameId, m.state);
      receivedAt = performance.now();
      pendingMove = null;
      confirmResign = false;
      if (m.type === 'event' && m.event.kind === 'move') notice = '';
      const next = m.state.rematch.game;
      render();
      if (next && next !== lastRematch) {
        lastRematch = next;
        ctx.navigate(`#/game/${next}`);
      }
      return;
    }
    if (m.type === 'error') {
      if (m.code === 'unknown_game' && m.message.includes(gameId)) {
        notice = ctx.t('unknownGame');
        render();
        status.textContent = ctx.t('unknownGame');
        return;
      }
      if (pendingMove !== null && (m.ref === undefined || m.ref === pendingMove)) {
        pendingMove = null;
        board?.cancelPending();
      }
      notice = ctx.t('error', { message: m.message });
      render();
    }
  };
  const off = ctx.conn.onMessage(onMessage);
  ctx.conn.follow(gameId, state?.version);
  render();
  const timer = setInterval(tickClocks, 100);
  return {
    destroy: () => {
      destroyed = true;
      review?.destroy();
      off();
      clearInterval(timer);
      ctx.conn.unfollow(gameId);
      board?.destroy();
    },
  };
}

/** Copy to the clipboard; without the async clipboard (plain http), select and copy the input. */
function copyText(text: string, input: HTMLInputElement | null): void {
  const fallback = (): void => {
    if (!input) return;
    input.focus();
    input.select();
    try {
      document.execCommand('copy');
    } catch {
      /* the link stays selected for the player to copy */
    }
  };
  if (navigator.clipboard && window.isSecureContext) void navigator.clipboard.writeText(text).catch(fallback);
  else fallback();
}

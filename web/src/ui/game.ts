// The game page: board, players and clocks, status and result banner, buttons, move list.
// Everything shown comes from the server's state (model.ts derives what to show); the board
// sends the move the player completed and shows it at once until the server answers.

import { createBoard, type BoardApi } from '../board/api';
import { premoveMatch } from '../board/board';
import { piecesFromLists } from '../board/fen';
import { buildGeometry, type Color } from '../board/geometry';
import { squareName } from '../board/keyboard';
import { maybeKey } from '../i18n';
import type { GameState, ServerMessage } from '../net/protocol';
import { moveAnnouncement, squareWords } from './announce';
import { Attention } from './attention';
import type { AppCtx, View } from './context';
import { h } from './dom';
import { explainRefusal, explanationText } from './explain';
import { boardControls, lookFor, markLook, playControls } from './looks';
import { buttonsOf, clocksAt, clockStartsWithFirstMove, formatMs, limitRuleName, movableOf, moveRows, nearLimit, pairedComputerLevel, premoveSideOf, resultWords, seatOf, shownOrientation, type ClockShow, type Seat } from './model';
import { displayName } from './names';
import { ReplyPacer } from './pacer';
import { chatPanel } from './chat';
import { newOffers, offersToAnswer, ratingLines, signed, takebackButtons, undoAllowed, type OfferKind } from './social';
import { appSounds, lowTimeCrossed, soundsFor } from './sound';
import type { Review } from './review';

export function gameView(ctx: AppCtx, root: HTMLElement, gameId: string): View {
  let state: GameState | null = ctx.games.get(gameId) ?? null;
  let receivedAt = performance.now();
  let board: BoardApi | null = null;
  let boardVariant = '';
  let pendingMove: number | null = null;
  let confirmResign = false;
  let notice = '';
  /** who declined the player's draw offer, said until the next move (the computer says no at once) */
  let drawDeclined: 'computer' | 'opponent' | null = null;
  /** the sides whose player has no connection to the game (the server's `presence`) */
  let away: Record<Color, boolean> = { white: false, black: false };
  let lastRematch: string | null = state?.rematch.game ?? null;
  let flipped = false;
  /** the premove chosen on the opponent's turn ([from, to]), sent when the turn comes */
  let premove: number[] | null = null;
  /** one line under the board: why a click was refused, the premove */
  let hint = '';
  /** the computer's reply waits for MIN_REPLY_MS after the player's move; later messages behind it */
  const pacer = new ReplyPacer<Extract<ServerMessage, { type: 'state' | 'event' }>>((m) => apply(m));
  let lastClock: Partial<Record<Color, ClockShow>> = {};
  const sounds = appSounds(() => ctx.prefs.muted);
  const attention = new Attention();
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
  // random pairing gave the computer (no one was waiting): said above the board, on phones too
  const pairingNote = h('p', { class: 'banner info pairing-note', role: 'status', 'data-test': 'pairing-note', hidden: true });
  // a timed game before the player's first move: that move is not timed (docs/protocol.md, "Clocks")
  const clockNote = h('p', { class: 'clock-note', 'data-test': 'clock-start-note', hidden: true });
  const status = h('div', { class: 'status', 'data-test': 'status' });
  const hintLine = h('p', { class: 'hint', 'data-test': 'hint', hidden: true });
  // moves, captures, results and hints, said by screen readers
  const announcer = h('div', { class: 'sr-only', 'aria-live': 'polite', 'data-test': 'announce' });
  const rated = h('span', { class: 'badge', 'data-test': 'rated-badge' });
  const chat = chatPanel(ctx, gameId);
  const banner = h('div', { class: 'banner-area' });
  // the opponent's draw offer or takeback request with its answer buttons; a phone keeps it in
  // sight over the bottom of the page (the side column is below the board there)
  const offerPrompt = h('div', { class: 'offer-prompt', role: 'group', 'data-test': 'offer-prompt', hidden: true });
  // flip, sounds, fewer clicks, hot-seat turn: for play; the review brings its own flip
  const playCtl = playControls(ctx, {
    flip: () => {
      flipped = !flipped;
      render();
    },
    boards: () => (board ? [board] : []),
    changed: () => render(),
  });
  const buttons = h('div', { class: 'buttons' });
  const moveList = h('div', { class: 'move-list', 'data-test': 'move-list' });
  const heading = h('h1', { class: 'game-title' });

  root.replaceChildren(
    h(
      'section',
      { class: 'game', 'data-test': 'game', 'data-game': gameId },
      h(
        'div',
        { class: 'board-col' },
        pairingNote,
        mobileStatus,
        topPlayer,
        h('div', { class: 'board-wrap' }, boardHost),
        bottomPlayer,
        clockNote,
        limit,
        hintLine,
        playCtl,
        boardControls(ctx, () => (board ? [board] : []), undefined, () => state?.variant ?? ''),
      ),
      h('aside', { class: 'side' }, h('div', { class: 'title-row' }, heading, rated), status, offerPrompt, banner, buttons, reviewPanel, h('h3', {}, ctx.t('moves')), moveList, chat.el, announcer),
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
        label: ctx.t('boardLabel', { variant: ctx.variantName(s.variant) }),
        words: squareWords(ctx.t),
        onMove: (mv) => sendMove(mv.path),
        onRefused: (sq) => explain(sq),
        onPremove: (pm) => {
          premove = pm && pm.length === 2 ? pm : null;
          const b = board;
          setHint(premove && b ? ctx.t('premoveSet', { from: squareName(b.state(), premove[0] as number), to: squareName(b.state(), premove[1] as number) }) : '');
        },
      });
      board.setAutoPlay(ctx.prefs.autoPlay);
      board.setLook(lookFor(ctx.prefs, s.variant));
      markLook(root, lookFor(ctx.prefs, s.variant));
      board.setShowNumbers(ctx.prefs.showNumbers);
      board.setShowCoords(ctx.prefs.showCoords);
    }
    boardVariant = s.variant;
    return board;
  }

  function sendMove(path: number[]): void {
    if (!state) return;
    pacer.sent();
    setHint('');
    pendingMove = ctx.conn.send({ type: 'move', game: gameId, ply: state.ply, path });
  }

  function setHint(text: string): void {
    hint = text;
    hintLine.textContent = text;
    hintLine.hidden = text === '';
    if (text) say(text);
  }

  function say(text: string): void {
    // a new node each time, so the same words said twice are said again
    announcer.replaceChildren(h('p', {}, text));
  }

  /** A click that did nothing: say why in one line. */
  function explain(sq: number): void {
    const s = state;
    const b = board;
    if (!s || !b || s.status !== 'playing' || s.result) return;
    const st = seat();
    const mine: Color | null = st.mine === 'both' ? s.turn : st.mine;
    if (!mine) return;
    const view = b.state();
    const e = explainRefusal(
      {
        geometry: view.geometry,
        pieces: view.pieces,
        legalMoves: view.legalMoves,
        capturers: view.capturers,
        mine,
        turn: s.turn,
        premoves: premoveSideOf(s, st) !== null,
        rules: ctx.variant(s.variant)?.rules,
        variantName: ctx.variantName(s.variant),
      },
      sq,
    );
    setHint(e ? explanationText(e, ctx.t) : '');
  }

  function playerLine(el: HTMLElement, s: GameState, c: Color): void {
    const p = s.players[c];
    const name = p ? displayName(ctx.t, p, s.players[c]?.level || s.level) : ctx.t('waiting');
    const profile = p && p.account && !p.computer ? `#/player/${encodeURIComponent(p.name)}` : null;
    const turn = s.status === 'playing' && !s.result && s.turn === c;
    el.classList.toggle('to-move', turn);
    el.dataset['color'] = c;
    el.replaceChildren(
      ...[
      h('span', { class: `dot ${c}`, 'aria-hidden': 'true' }),
      profile ? h('a', { class: 'name', href: profile, 'data-test': `player-link-${c}` }, name) : h('span', { class: 'name' }, name),
      p?.computer ? h('span', { class: 'badge computer', 'data-test': `computer-badge-${c}` }, computerBadge(s, c)) : null,
      h('span', { class: 'side-label' }, sideName(c)),
      h('span', { class: 'clock', 'data-test': `clock-${c}` }),
      ].filter((x): x is HTMLElement => x !== null),
    );
  }

  const displayLevel = (level: string): string => {
    const k = maybeKey(`levelWord_${level}`);
    return k ? ctx.t(k) : level;
  };

  /** "computer · easy" (the level of that player, else of the game), or just "computer" */
  function computerBadge(s: GameState, c: Color): string {
    const level = s.players[c]?.level || s.level;
    return level ? ctx.t('computerBadge', { level: displayLevel(level) }) : ctx.t('computer');
  }

  function tickClocks(): void {
    if (!state?.clock) return;
    const shows = clocksAt(state.clock, performance.now() - receivedAt);
    const mine = seat().mine;
    if ((mine === 'white' || mine === 'black') && state.clock.running === mine && !state.result) {
      const before = lastClock[mine];
      if (before && lowTimeCrossed(before, shows[mine])) sounds.play('lowTime');
    }
    lastClock = shows;
    for (const c of ['white', 'black'] as const) {
      const el = root.querySelector<HTMLElement>(`[data-test="clock-${c}"]`);
      if (!el) continue;
      const v = shows[c];
      const tc = state.clock.time_control;
      el.classList.toggle('running', state.clock.running === c);
      el.classList.toggle('low', v.overtime || v.main_ms < 20_000);
      // the time left, then what follows it (the byo-yomi periods), which a phone puts under it
      const [left, then] = v.overtime
        ? [formatMs(v.period_ms), `(${v.periods}×)`]
        : tc.kind === 'byoyomi' && (tc.periods ?? 0) > 0
          ? [formatMs(v.main_ms), ctx.t('periodsShort', { n: v.periods, s: tc.period ?? 0 })]
          : [formatMs(v.main_ms), ''];
      if (el.textContent !== (then ? `${left} ${then}` : left)) el.replaceChildren(left, ...(then ? [' ', h('span', { class: 'clock-then' }, then)] : []));
    }
  }

  function resultText(s: GameState): string {
    return s.result ? resultWords(ctx.t, s.result, seat().mine) : '';
  }

  function render(): void {
    const s = state;
    if (!s) {
      status.textContent = ctx.t('loading');
      return;
    }
    const st = seat();
    heading.textContent = ctx.variantName(s.variant) + (s.options.forced_capture ? '' : ` · ${ctx.t('noForcedCapture')}`);
    const autoTurn = root.querySelector<HTMLElement>('label.auto-turn');
    if (autoTurn) autoTurn.hidden = s.mode !== 'hotseat';
    rated.textContent = s.rated ? ctx.t('ratedGame') : ctx.t('casualGame');
    rated.dataset['rated'] = s.rated ? '1' : '0';
    const b = ensureBoard(s);
    const orientation = shownOrientation(st, s.turn, ctx.prefs.autoTurn, flipped);
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
      b.setPremovable(premoveSideOf(s, st));
      if (premove && movableOf(s, st)) {
        const mv = premoveMatch(b.state().legalMoves, premove);
        premove = null;
        if (mv) {
          b.play(mv);
          sendMove(mv.path);
        } else {
          b.clearPremove();
          setHint(ctx.t('premoveCancelled'));
        }
      } else if (premove && !premoveSideOf(s, st)) {
        premove = null;
        b.clearPremove();
      }
    }
    const other: Color = orientation === 'white' ? 'black' : 'white';
    playerLine(topPlayer, s, other);
    playerLine(bottomPlayer, s, orientation);
    tickClocks();

    // status and result
    status.classList.toggle('over', !!s.result);
    if (s.result) {
      const ratings = ratingLines(s);
      status.replaceChildren(
        h('div', { class: 'result', 'data-test': 'result', 'data-outcome': s.result.outcome, 'data-reason': s.result.reason }, resultText(s)),
        ...(ratings.length ? [h('p', { class: 'ratings', 'data-test': 'rating-change' }, ratings.map((r) => ctx.t('ratingAfter', { name: r.name, rating: r.after, delta: signed(r.delta) })).join(' · '))] : []),
      );
    } else if (s.status === 'waiting') {
      status.textContent = ctx.t('waiting');
    } else {
      const mine = st.mine;
      const text = mine === 'white' || mine === 'black' ? (s.turn === mine ? ctx.t('yourTurn') : ctx.t('theirTurn')) : ctx.t('toMove', { side: sideName(s.turn) });
      // The computer's turn: a sign that it thinks (level hard takes a second and a half).
      const thinking = s.status === 'playing' && !!s.players[s.turn]?.computer;
      status.replaceChildren(
        ...[
          h('div', { 'data-test': 'turn', 'data-turn': s.turn }, text),
          thinking ? h('div', { class: 'thinking', 'data-test': 'thinking', role: 'status' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), ctx.t('computerThinking')) : null,
        ].filter((x): x is HTMLDivElement => x !== null),
      );
    }
    // the result and the rating changes stay two lines, as in the status
    const statusLines = status.children.length ? [...status.children].map((c) => c.textContent ?? '') : [status.textContent ?? ''];
    mobileStatus.replaceChildren(...statusLines.filter((t) => t !== '').map((t) => h('div', {}, t)));
    const paired = pairedComputerLevel(s, st);
    const pairingText = paired === null ? '' : ctx.t('pairedComputer', { level: paired ? displayLevel(paired) : '?' });
    if (pairingNote.textContent !== pairingText) pairingNote.textContent = pairingText;
    pairingNote.hidden = paired === null;
    const clockText = clockStartsWithFirstMove(s, st) ? ctx.t('clockStartsWithFirstMove') : '';
    if (clockNote.textContent !== clockText) clockNote.textContent = clockText;
    clockNote.hidden = clockText === '';
    mobileStatus.classList.toggle('over', !!s.result);
    const lim = nearLimit(s);
    limit.textContent = lim ? ctx.t('movesLeft', { n: lim.moves_left, rule: limitRuleName(ctx.t, lim) }) : '';
    limit.hidden = !lim;
    limit.dataset['rule'] = lim?.rule ?? '';

    // banners
    const items: HTMLElement[] = [];
    const link = ctx.prefs.linkOf(gameId);
    if (s.status === 'waiting' && link) {
      const tg = ctx.telegram;
      const invite = /#join=([\w-]+)/.exec(link)?.[1] ?? null;
      items.push(
        h('div', { class: 'banner info' },
          h('p', {}, ctx.t('waitingFriend')),
          h('input', { class: 'link', readonly: true, value: link, 'data-test': 'friend-link', onfocus: (e: Event) => (e.target as HTMLInputElement).select() }),
          // In Telegram: into a chat of the player's choice, to open in Telegram or a browser.
          tg && invite ? h('button', { type: 'button', class: 'btn primary', 'data-test': 'share-telegram', onclick: () => void tg.shareInvite(invite, link, ctx.prefs.token, ctx.lang) }, ctx.t('shareTelegram')) : null),
      );
    }
    const actor = st.mine === 'both' ? s.turn : st.mine;
    if (s.draw_offer && !s.result && s.draw_offer === actor) {
      items.push(h('div', { class: 'banner info', 'data-test': 'draw-sent' }, ctx.t('drawOfferSent')));
    }
    // The opponent left while the game goes on (their clock keeps running).
    const opponent: Color | null = st.mine === 'white' ? 'black' : st.mine === 'black' ? 'white' : null;
    if (opponent && away[opponent] && s.status === 'playing' && !s.result) {
      items.push(h('div', { class: 'banner warn', role: 'status', 'data-test': 'opponent-away' }, ctx.t('opponentAway')));
    }
    if (drawDeclined && !s.result) {
      items.push(h('div', { class: 'banner info', role: 'status', 'data-test': 'draw-declined' }, ctx.t(drawDeclined === 'computer' ? 'drawDeclinedComputer' : 'drawDeclinedOpponent')));
    }
    if (s.rematch.white !== s.rematch.black && !s.rematch.game) {
      const asked: Color = s.rematch.white ? 'white' : 'black';
      items.push(h('div', { class: 'banner info' }, asked === actor ? ctx.t('rematchSent') : ctx.t('rematchOffered')));
    }
    const tb = takebackButtons(s, st);
    if (tb.waiting) items.push(h('div', { class: 'banner info' }, ctx.t('takebackSent')));
    if (notice) items.push(h('div', { class: 'banner error', 'data-test': 'notice' }, notice));
    banner.replaceChildren(...items);

    // buttons
    const bt = buttonsOf(s, st, !!link);
    type GameCommand = 'resign' | 'draw_offer' | 'draw_accept' | 'draw_decline' | 'draw_claim' | 'undo' | 'rematch' | 'takeback_offer' | 'takeback_accept' | 'takeback_decline';
    const send = (type: GameCommand) => () => {
      notice = '';
      ctx.conn.send({ type, game: gameId });
    };
    const btn = (show: boolean, label: string, test: string, onclick: () => void, cls = ''): HTMLElement | null =>
      show ? h('button', { type: 'button', class: `btn ${cls}`, 'data-test': test, onclick }, label) : null;
    const offers = offersToAnswer(s, st);
    // One row per offer kind: its prompt, and accept / decline with their commands and labels.
    const offerParts = {
      draw: { said: 'drawOffered', accept: 'acceptDraw', decline: 'declineDraw' },
      takeback: { said: 'takebackOffered', accept: 'takebackAccept', decline: 'takebackDecline' },
    } as const;
    const offerRow = (k: OfferKind): HTMLElement => {
      const p = offerParts[k];
      return h('div', { class: 'offer', 'data-test': `${k}-banner` }, h('p', {}, ctx.t(p.said)), h('div', { class: 'offer-buttons' }, btn(true, ctx.t(p.accept), `${k}-accept`, send(`${k}_accept`), 'primary'), btn(true, ctx.t(p.decline), `${k}-decline`, send(`${k}_decline`))));
    };
    offerPrompt.replaceChildren(...offers.map(offerRow));
    offerPrompt.hidden = offers.length === 0;
    offerPrompt.setAttribute('aria-label', ctx.t('offerPromptLabel'));
    root.querySelector('.game')?.toggleAttribute('data-offer', offers.length > 0);
    buttons.replaceChildren(
      ...[
        btn(bt.undo || undoAllowed(s, st), ctx.t('undo'), 'undo', send('undo')),
        btn(tb.ask, ctx.t('takebackAsk'), 'takeback-offer', send('takeback_offer')),
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
    chat.update(s, st);
    root.dataset['version'] = String(s.version);
  }

  /** Show a new state of this game: the page, and the sounds, words and tab title it calls for. */
  function apply(m: Extract<ServerMessage, { type: 'state' | 'event' }>): void {
    const prev = state;
    state = m.state;
    ctx.games.set(gameId, m.state);
    receivedAt = performance.now();
    pendingMove = null;
    confirmResign = false;
    if (m.type === 'event' && m.event.kind === 'move') {
      notice = '';
      drawDeclined = null;
    }
    if (m.type === 'event' && m.event.kind === 'draw_decline' && m.event.by) {
      const mine = seatOf(m.state, ctx.conn.playerId).mine;
      if (mine !== m.event.by) drawDeclined = m.state.players[m.event.by]?.computer ? 'computer' : 'opponent';
    }
    if (prev && m.state.moves.length !== prev.moves.length) setHint('');
    const next = m.state.rematch.game;
    render();
    for (const name of soundsFor(prev, m.state)) sounds.play(name);
    const offerWords = newOffers(prev, m.state, seat()).map((k) => ctx.t(k === 'draw' ? 'drawOffered' : 'takebackOffered'));
    const declinedWords = m.type === 'event' && m.event.kind === 'draw_decline' && drawDeclined ? ctx.t(drawDeclined === 'computer' ? 'drawDeclinedComputer' : 'drawDeclinedOpponent') : null;
    const words = [moveAnnouncement(prev, m.state, ctx.t), prev && !prev.result && m.state.result ? resultText(m.state) : null, ...offerWords, declinedWords].filter((x): x is string => !!x);
    if (words.length) say(words.join('. '));
    const mine = seat().mine;
    if (m.type === 'event' && m.event.kind === 'start') attention.call(ctx.t('titleArrived'));
    else if ((mine === 'white' || mine === 'black') && prev && prev.turn !== mine && m.state.turn === mine && movableOf(m.state, seat())) attention.call(ctx.t('titleYourTurn'));
    if (next && next !== lastRematch) {
      lastRematch = next;
      ctx.navigate(`#/game/${next}`);
    }
  }

  function startReview(s: GameState, b: BoardApi | null, orientation: Color): void {
    if (review || reviewStarting || !b) return;
    reviewStarting = true;
    playCtl.remove();
    void import('./review').then(({ createReview }) => {
      if (destroyed) return;
      review = createReview(ctx, { board: b, boardHost, moveList, panel: reviewPanel, orientation }, s);
    });
  }

  const onMessage = (m: ServerMessage): void => {
    if (m.type === 'presence' && m.game === gameId) {
      away = { white: !m.present.white, black: !m.present.black };
      render();
      return;
    }
    if ((m.type === 'state' || m.type === 'event') && m.game === gameId) {
      pacer.push(m, m.type === 'event' && m.event.kind === 'move' && !!m.event.computer);
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
  ctx.conn.follow(gameId, state ?? undefined);
  render();
  const timer = setInterval(tickClocks, 100);
  return {
    destroy: () => {
      destroyed = true;
      review?.destroy();
      off();
      pacer.destroy();
      attention.destroy();
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

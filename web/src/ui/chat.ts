// The chat of a friend or random game (docs/protocol.md, "Chat"): the lines, a field of at
// most CHAT_MAX characters, and a mute for the opponent remembered in this browser. Hidden until
// the server sends the game's chat.

import { CHAT_MAX, type GameState } from '../net/protocol';
import type { AppCtx } from './context';
import { h } from './dom';
import type { Seat } from './model';
import { displayName } from './names';
import { chatShown, chatText, chatWritable, visibleChat } from './social';

export function chatPanel(ctx: AppCtx, gameId: string): { el: HTMLElement; update(s: GameState, seat: Seat): void } {
  const lines = h('ol', { class: 'chat-lines', 'data-test': 'chat-lines', 'aria-live': 'polite' });
  const input = h('input', { id: `chat-${gameId}`, type: 'text', maxlength: CHAT_MAX, 'data-test': 'chat-input', autocomplete: 'off' });
  const form = h('form', { class: 'chat-form' }, h('label', { class: 'sr-only', for: `chat-${gameId}` }, ctx.t('chatMessage')), input, h('button', { type: 'submit', class: 'btn small', 'data-test': 'chat-send' }, ctx.t('chatSend')));
  const mute = h('button', { type: 'button', class: 'btn small', 'data-test': 'chat-mute' });
  const el = h('section', { class: 'chat', 'data-test': 'chat', hidden: true, 'aria-label': ctx.t('chat') }, h('h3', {}, ctx.t('chat')), lines, form, mute);
  let last: { s: GameState; seat: Seat } | null = null;
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = chatText(input.value);
    if (!text) return;
    ctx.conn.send({ type: 'chat', game: gameId, text });
    input.value = '';
  });
  const opponentOf = (s: GameState, seat: Seat) => (seat.mine === 'white' ? s.players.black : seat.mine === 'black' ? s.players.white : null);
  mute.addEventListener('click', () => {
    if (!last) return;
    const o = opponentOf(last.s, last.seat);
    if (!o) return;
    ctx.prefs.setMuted(o.id, !ctx.prefs.isMuted(o.id));
    update(last.s, last.seat);
  });
  function update(s: GameState, seat: Seat): void {
    last = { s, seat };
    el.hidden = !chatShown(s);
    if (el.hidden) return;
    form.hidden = !chatWritable(s, seat);
    lines.replaceChildren(
      ...visibleChat(s, (id) => ctx.prefs.isMuted(id)).map((l) => {
        const p = s.players[l.by];
        return h('li', {}, h('b', {}, p ? displayName(ctx.t, p) : l.by), ': ', l.text);
      }),
    );
    const o = opponentOf(s, seat);
    mute.hidden = !o;
    if (o) mute.textContent = ctx.t(ctx.prefs.isMuted(o.id) ? 'unmutePlayer' : 'mutePlayer', { name: displayName(ctx.t, o) });
  }
  return { el, update };
}

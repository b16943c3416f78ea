// What the live region says (moves, captures, crownings; the result is said by the page) and
// the words of the board's square labels, in the player's language. Pure.

import type { SquareWords } from '../board/keyboard';
import type { UiKey } from '../i18n';
import type { GameState } from '../net/protocol';
import { crowned } from './sound';

type T = (key: UiKey, params?: Record<string, string | number>) => string;

/** "White: 32-28", "Black: 19x28, takes 1", ... for the move that `next` adds to `prev`, else null. */
export function moveAnnouncement(prev: GameState | null, next: GameState, t: T): string | null {
  if (!prev || prev.id !== next.id || next.moves.length !== prev.moves.length + 1) return null;
  const m = next.moves[next.moves.length - 1];
  if (!m) return null;
  const side = t(m.color === 'white' ? 'white' : 'black');
  const n = m.captures.length;
  const crown = crowned(prev, next);
  const key: UiKey = n > 0 ? (crown ? 'say_captureCrowned' : 'say_capture') : crown ? 'say_crowned' : 'say_move';
  return t(key, { side, move: m.text, n });
}

export function squareWords(t: T): SquareWords {
  return {
    white: t('sq_white'),
    black: t('sq_black'),
    man: t('sq_man'),
    king: t('sq_king'),
    empty: t('sq_empty'),
    selected: t('sq_selected'),
    canMove: t('sq_canMove'),
    mustCapture: t('sq_mustCapture'),
    target: t('sq_target'),
    captureTarget: t('sq_captureTarget'),
    lastMove: t('sq_lastMove'),
    premove: t('sq_premove'),
  };
}

// How players are named on every page: a computer by its level in the player's language
// ("Computer (easy)", lower-case level inside a name, as the server's PDN and game lists write
// it), an unnamed guest as "Guest" translated, everyone else by the name they chose.

import type { UiKey } from '../i18n';
import { maybeKey } from '../i18n';

type T = (key: UiKey, params?: Record<string, string | number>) => string;

export interface NamedPlayer {
  name: string;
  computer?: boolean;
  account?: boolean;
}

/** The level word ("easy") in the player's language, or the level as given. */
export function levelWord(t: T, level: string): string {
  const k = maybeKey(`levelWord_${level}`);
  return k ? t(k) : level;
}

/** The level of a computer named by the server "Computer (easy)", if the name says it. */
export function levelOfName(name: string): string | null {
  return /^Computer \((\w+)\)$/.exec(name)?.[1] ?? null;
}

/** A player's name as shown. `level` is the game's computer level where known. */
export function displayName(t: T, p: NamedPlayer, level = ''): string {
  if (p.computer) {
    const fromName = levelOfName(p.name);
    // a computer with a name of its own (random pairing) keeps it; its badge says what it is
    if (fromName === null && p.name && !/^Computer$/.test(p.name)) return p.name;
    const lv = level || fromName || '';
    return lv ? t('computerName', { level: levelWord(t, lv) }) : t('computer');
  }
  if (!p.account && (p.name === '' || p.name === 'Guest')) return t('guest');
  return p.name;
}

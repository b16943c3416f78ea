// Language choice and lookup. The language is the one remembered in localStorage, else the
// first of the browser's languages we have (Indonesian for id/in, English otherwise).

import { en, type Messages } from './en';
import { id } from './id';

export type Lang = 'en' | 'id';
export const LANGS: Lang[] = ['en', 'id'];
const TABLES: Record<Lang, Messages> = { en, id };

export function pickLanguage(stored: string | null, browser: readonly string[]): Lang {
  if (stored === 'en' || stored === 'id') return stored;
  for (const tag of browser) {
    const base = tag.toLowerCase().split('-')[0];
    if (base === 'id' || base === 'in' || base === 'ms') return 'id';
    if (base === 'en') return 'en';
  }
  return 'en';
}

export type UiKey = keyof Messages['ui'];

export function messages(lang: Lang): Messages {
  return TABLES[lang];
}

/** The text of `key` with {name} placeholders filled. */
export function format(lang: Lang, key: UiKey, params: Record<string, string | number> = {}): string {
  const text = TABLES[lang].ui[key] ?? en.ui[key] ?? String(key);
  return text.replace(/\{(\w+)\}/g, (_, k: string) => (k in params ? String(params[k]) : `{${k}}`));
}

/** A ui key built at run time (e.g. `reason_${r}`), if it exists. */
export function maybeKey(key: string): UiKey | null {
  return key in en.ui ? (key as UiKey) : null;
}

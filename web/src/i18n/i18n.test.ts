import { describe, expect, it } from 'vitest';
import { en, type Messages } from './en';
import { id } from './id';
import { format, pickLanguage } from './index';

/**
 * Texts that are the same in Indonesian on purpose: proper names and words Indonesian uses
 * unchanged. Anything else equal to the English text is an untranslated string.
 */
export const SAME_IN_BOTH: Record<string, string> = {
  appTitle: 'the name of the site',
  byoyomi: 'the Japanese name of the clock system, used as is',
  rating: 'the Elo "rating" is the word Indonesian players use',
  why_withRule: 'only placeholders and punctuation',
  say_move: 'only placeholders and punctuation',
  ratingAfter: 'only placeholders and punctuation',
};

/** Every key of a message table, with its text ("ui.start", "rules.variants.thai.2", ...). */
export function flatten(table: Messages): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (v: unknown, path: string): void => {
    if (typeof v === 'string') out.set(path, v);
    else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}.${i}`));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, path ? `${path}.${k}` : k);
  };
  walk(table, '');
  return out;
}

/** The problems of a translation against English: keys missing, left in English, or empty. */
export function translationProblems(english: Messages, other: Messages, same: Record<string, string> = SAME_IN_BOTH): string[] {
  const a = flatten(english);
  const b = flatten(other);
  const problems: string[] = [];
  for (const [k, text] of a) {
    const short = k.replace(/^ui\./, '');
    const t = b.get(k);
    if (t === undefined) problems.push(`${k}: missing`);
    else if (t.trim() === '') problems.push(`${k}: empty`);
    else if (t === text && !(short in same)) problems.push(`${k}: the same as English ("${text}")`);
  }
  for (const k of b.keys()) if (!a.has(k)) problems.push(`${k}: not in English`);
  return problems;
}

describe('i18n', () => {
  it('picks the stored language, else the browser language', () => {
    expect(pickLanguage('id', ['en-US'])).toBe('id');
    expect(pickLanguage(null, ['id-ID', 'en'])).toBe('id');
    expect(pickLanguage(null, ['fr-FR', 'en-GB'])).toBe('en');
    expect(pickLanguage(null, ['fr'])).toBe('en');
    expect(pickLanguage('xx', [])).toBe('en');
  });

  it('has every English text translated into Indonesian (none missing, none left in English)', () => {
    expect(translationProblems(en, id)).toEqual([]);
  });

  it('catches a missing key and a text left in English', () => {
    const broken = structuredClone(id) as Messages & { ui: Record<string, string> };
    delete (broken.ui as Record<string, string>)['start'];
    broken.ui['resign'] = en.ui.resign;
    (broken.variantNames as Record<string, string>)['pool'] = en.variantNames['pool'] as string;
    expect(translationProblems(en, broken)).toEqual([
      'ui.start: missing',
      'ui.resign: the same as English ("Resign")',
      'variantNames.pool: the same as English ("Pool checkers")',
    ]);
  });

  it('keeps the placeholders of every text', () => {
    const names = (t: string): string[] => [...t.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string).sort();
    const a = flatten(en);
    const b = flatten(id);
    for (const [k, t] of a) expect([k, names(b.get(k) ?? '')]).toEqual([k, names(t)]);
  });

  it('fills placeholders', () => {
    expect(format('en', 'movesLeft', { n: 5, rule: 'x' })).toBe('5 moves left before a draw (x)');
    expect(format('id', 'toMove', { side: 'Putih' })).toBe('Giliran Putih');
  });
});

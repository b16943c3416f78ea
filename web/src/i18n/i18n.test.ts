import { describe, expect, it } from 'vitest';
import { en } from './en';
import { id } from './id';
import { format, pickLanguage } from './index';

describe('i18n', () => {
  it('picks the stored language, else the browser language', () => {
    expect(pickLanguage('id', ['en-US'])).toBe('id');
    expect(pickLanguage(null, ['id-ID', 'en'])).toBe('id');
    expect(pickLanguage(null, ['fr-FR', 'en-GB'])).toBe('en');
    expect(pickLanguage(null, ['fr'])).toBe('en');
    expect(pickLanguage('xx', [])).toBe('en');
  });

  it('has every key in both languages, none empty', () => {
    expect(Object.keys(id.ui).sort()).toEqual(Object.keys(en.ui).sort());
    expect(Object.keys(id.rules.variants).sort()).toEqual(Object.keys(en.rules.variants).sort());
    for (const v of Object.values(id.ui)) expect(v.length).toBeGreaterThan(0);
    for (const k of Object.keys(en.rules.variants)) {
      const a = en.rules.variants[k];
      const b = id.rules.variants[k];
      if (Array.isArray(a)) expect((b as string[]).length).toBe(a.length);
    }
  });

  it('fills placeholders', () => {
    expect(format('en', 'movesLeft', { n: 5, rule: 'x' })).toBe('5 moves left before a draw (x)');
    expect(format('id', 'toMove', { side: 'Putih' })).toBe('Giliran Putih');
  });
});

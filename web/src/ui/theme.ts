// Light and dark theme: the system's choice (prefers-color-scheme) unless the player chose one
// with the header's toggle (remembered). The theme is `data-theme` on <html>; style.css does
// the rest.

import type { Prefs } from './prefs';

export type Theme = 'light' | 'dark';

export function resolveTheme(chosen: Theme | null, systemDark: boolean): Theme {
  return chosen ?? (systemDark ? 'dark' : 'light');
}

const systemQuery = (): MediaQueryList | null => (typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null);

/** Apply the theme now and whenever the system's choice changes (while none is chosen). */
export function applyTheme(prefs: Prefs): Theme {
  const q = systemQuery();
  const t = resolveTheme(prefs.theme, q?.matches ?? false);
  document.documentElement.dataset['theme'] = t;
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', t === 'dark' ? '#1d1712' : '#6b4226');
  return t;
}

export function watchSystemTheme(prefs: Prefs, onChange: () => void): void {
  systemQuery()?.addEventListener('change', () => {
    if (prefs.theme === null) {
      applyTheme(prefs);
      onChange();
    }
  });
}

/** The toggle: switch to the other theme and remember it. */
export function toggleTheme(prefs: Prefs): Theme {
  const now = (document.documentElement.dataset['theme'] as Theme | undefined) ?? 'light';
  prefs.theme = now === 'dark' ? 'light' : 'dark';
  return applyTheme(prefs);
}

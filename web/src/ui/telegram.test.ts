import { describe, expect, it } from 'vitest';
import { inviteOf, launchFromHash, themeVariables } from './telegram';

const data = 'query_id=AA&user=%7B%22id%22%3A1%7D&auth_date=1&hash=ab';

describe('Telegram launch data', () => {
  it('is read from the fragment, alone or after a route', () => {
    const plain = launchFromHash(`#tgWebAppData=${encodeURIComponent(data)}&tgWebAppVersion=8.0&tgWebAppThemeParams=${encodeURIComponent('{"bg_color":"#17212b"}')}`);
    expect(plain?.initData).toBe(data);
    expect(plain?.theme['bg_color']).toBe('#17212b');
    const routed = launchFromHash(`#/game/abc?tgWebAppData=${encodeURIComponent(data)}&tgWebAppStartParam=join_x-1`);
    expect(routed?.initData).toBe(data);
    expect(routed?.startParam).toBe('join_x-1');
  });

  it("gives the Telegram user's language for the page's words", () => {
    const withUser = `user=${encodeURIComponent(JSON.stringify({ id: 1, language_code: 'id' }))}&auth_date=1&hash=ab`;
    expect(launchFromHash(`#tgWebAppData=${encodeURIComponent(withUser)}`)?.language).toBe('id');
    expect(launchFromHash(`#tgWebAppData=${encodeURIComponent(data)}`)?.language).toBe('');
  });

  it('is absent in an ordinary browser', () => {
    expect(launchFromHash('')).toBeNull();
    expect(launchFromHash('#/game/abc')).toBeNull();
    expect(launchFromHash('#join=abc-def')).toBeNull();
  });

  it('carries a friend invite in the query or the start parameter', () => {
    expect(inviteOf('?join=abc-0123', '')).toBe('abc-0123');
    expect(inviteOf('', 'join_abc-0123')).toBe('abc-0123');
    expect(inviteOf('?join=bad%20value', '')).toBeNull();
    expect(inviteOf('', 'other')).toBeNull();
  });

  it("turns Telegram's theme colours into the page's colour variables", () => {
    const vars = themeVariables({ bg_color: '#17212b', text_color: '#f5f5f5', button_color: '#5288c1', link_color: 'javascript:x' });
    expect(vars['--bg']).toBe('#17212b');
    expect(vars['--ink']).toBe('#f5f5f5');
    expect(vars['--accent']).toBe('#5288c1');
    expect(vars['--link']).toBeUndefined();
  });
});

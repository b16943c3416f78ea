// Inside Telegram: the site as a Mini App. Telegram opens it with its launch data in the fragment
// (#tgWebAppData=...&tgWebAppThemeParams=..., after a route when there was one:
// #/path?tgWebAppData=...) and offers its script (telegram-web-app.js) for the rest: the theme,
// the back button, the main button, sharing a message into a chat. The launch data signs the
// player in (POST /api/auth/telegram: the server checks Telegram's signature); the theme follows
// Telegram's colours. In an ordinary browser none of this runs and no Telegram script is loaded.

import { h } from './dom';

export interface TelegramLaunch {
  initData: string;
  startParam: string;
  theme: Record<string, string>;
  /** the Telegram user's language (IETF tag), for the page's language until one is chosen */
  language: string;
}

/** The user's language_code in launch data (read for the page's words only; the server checks the data). */
export function languageOf(initData: string): string {
  try {
    const user = JSON.parse(new URLSearchParams(initData).get('user') ?? '{}') as { language_code?: unknown };
    return typeof user.language_code === 'string' ? user.language_code : '';
  } catch {
    return '';
  }
}

interface TgButton {
  setText(text: string): TgButton;
  show(): TgButton;
  hide(): TgButton;
  onClick(cb: () => void): TgButton;
  offClick(cb: () => void): TgButton;
}

interface TgWebApp {
  initData: string;
  initDataUnsafe?: { start_param?: string };
  themeParams?: Record<string, string>;
  colorScheme?: 'light' | 'dark';
  ready?(): void;
  expand?(): void;
  BackButton?: { show(): void; hide(): void; onClick(cb: () => void): void; offClick(cb: () => void): void };
  MainButton?: TgButton;
  onEvent?(name: string, cb: () => void): void;
  shareMessage?(id: string, cb?: (sent: boolean) => void): void;
  openTelegramLink?(url: string): void;
}

declare global {
  interface Window {
    Telegram?: { WebApp?: TgWebApp };
  }
}

const SCRIPT = 'https://telegram.org/js/telegram-web-app.js';

/** The launch parameters in a fragment, or null when it has none (an ordinary browser). */
export function launchFromHash(hash: string): TelegramLaunch | null {
  let params = hash.replace(/^#/, '');
  const q = params.indexOf('?');
  if (q >= 0 && !params.slice(0, q).includes('=')) params = params.slice(q + 1);
  const p = new URLSearchParams(params);
  const initData = p.get('tgWebAppData');
  if (!initData) return null;
  let theme: Record<string, string> = {};
  try {
    const t = JSON.parse(p.get('tgWebAppThemeParams') ?? '{}') as unknown;
    if (t && typeof t === 'object') theme = t as Record<string, string>;
  } catch {
    theme = {};
  }
  return { initData, startParam: p.get('tgWebAppStartParam') ?? '', theme, language: languageOf(initData) };
}

/** The friend invite a launch opens: ?join=INVITE (the bot's button) or start_param join_INVITE. */
export function inviteOf(search: string, startParam: string): string | null {
  const q = new URLSearchParams(search).get('join');
  if (q && /^[\w-]+$/.test(q)) return q;
  const m = /^join_([\w-]+)$/.exec(startParam);
  return m ? (m[1] as string) : null;
}

/** Telegram's theme colours (ThemeParams) as the page's colour variables. */
export function themeVariables(theme: Record<string, string>): Record<string, string> {
  const pairs: [string, string][] = [
    ['bg_color', '--bg'],
    ['text_color', '--ink'],
    ['hint_color', '--muted'],
    ['secondary_bg_color', '--card'],
    ['section_bg_color', '--card'],
    ['link_color', '--link'],
    ['button_color', '--accent'],
    ['button_text_color', '--accent-ink'],
    ['header_bg_color', '--header-bg'],
    ['destructive_text_color', '--danger'],
  ];
  const out: Record<string, string> = {};
  for (const [key, variable] of pairs) {
    const v = theme[key];
    if (v && /^#[0-9a-fA-F]{6}$/.test(v)) out[variable] = v;
  }
  return out;
}

function loadScript(src: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const s = h('script', { src });
    const done = (): void => resolve();
    s.addEventListener('load', done);
    s.addEventListener('error', done);
    setTimeout(done, timeoutMs);
    document.head.appendChild(s);
  });
}

export class TelegramApp {
  private main: (() => void) | null = null;
  private back: (() => void) | null = null;

  constructor(
    readonly launch: TelegramLaunch,
    private readonly app: TgWebApp | null,
  ) {}

  /** Telegram's colours on the page, now and when the player changes them. */
  applyTheme(): void {
    const apply = (): void => {
      const theme = this.app?.themeParams ?? this.launch.theme;
      for (const [k, v] of Object.entries(themeVariables(theme))) document.documentElement.style.setProperty(k, v);
      const scheme = this.app?.colorScheme;
      if (scheme) document.documentElement.dataset['theme'] = scheme;
      document.body.dataset['telegram'] = '1';
    };
    apply();
    this.app?.onEvent?.('themeChanged', apply);
  }

  /** The back button in Telegram's header: shown off the lobby; it goes back. */
  showBack(visible: boolean, onBack: () => void): void {
    const b = this.app?.BackButton;
    if (!b) return;
    if (this.back) b.offClick(this.back);
    this.back = visible ? onBack : null;
    if (this.back) {
      b.onClick(this.back);
      b.show();
    } else {
      b.hide();
    }
  }

  /** Telegram's main button at the bottom: one action of the page (null hides it). */
  setMain(text: string | null, onClick: () => void = () => undefined): void {
    const m = this.app?.MainButton;
    if (!m) return;
    if (this.main) m.offClick(this.main);
    this.main = text === null ? null : onClick;
    if (text === null || !this.main) {
      m.hide();
      return;
    }
    m.setText(text).onClick(this.main).show();
  }

  /** A friend invite into a chat of the player's choice (the server prepares the message). */
  async shareInvite(invite: string, link: string, token: string | null, language: string): Promise<void> {
    const r = await fetch('/api/telegram/share', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ invite, language }),
    });
    const body = (await r.json().catch(() => ({}))) as { prepared_message_id?: string };
    if (r.ok && body.prepared_message_id && this.app?.shareMessage) {
      this.app.shareMessage(body.prepared_message_id);
      return;
    }
    // An older Telegram: its own share sheet with the link.
    this.app?.openTelegramLink?.(`https://t.me/share/url?url=${encodeURIComponent(link)}`);
  }
}

/**
 * Starts the Mini App when the page was opened by Telegram: its script loaded (a few seconds at
 * most; the launch data in the fragment is enough without it), told the page is ready, the
 * fragment cleaned of the launch data. Null in an ordinary browser.
 */
export async function startTelegram(): Promise<TelegramApp | null> {
  const launch = launchFromHash(location.hash);
  if (!launch) return null;
  await loadScript(SCRIPT, 4000);
  const app = window.Telegram?.WebApp ?? null;
  app?.ready?.();
  app?.expand?.();
  const fromScript = app?.initData
    ? { ...launch, initData: app.initData, startParam: app.initDataUnsafe?.start_param ?? launch.startParam, language: languageOf(app.initData) || launch.language }
    : launch;
  // The fragment is the router's: the launch data leaves it (the route before it stays).
  const hash = location.hash.replace(/^#/, '');
  const route = hash.includes('?') && !hash.slice(0, hash.indexOf('?')).includes('=') ? hash.slice(0, hash.indexOf('?')) : '/';
  history.replaceState(null, '', `${location.pathname}${location.search}#${route}`);
  return new TelegramApp(fromScript, app);
}

/** Signs in with the launch data; the session token and name, or null when refused. */
export async function telegramSession(launch: TelegramLaunch): Promise<{ token: string; username: string } | null> {
  try {
    const r = await fetch('/api/auth/telegram', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ init_data: launch.initData }) });
    const body = (await r.json()) as { token?: string; user?: { username: string } };
    return r.ok && body.token && body.user ? { token: body.token, username: body.user.username } : null;
  } catch {
    return null;
  }
}

// What every page gets: the language, the remembered preferences, the server connection and
// the variant table from GET /api/variants.

import type { VariantMeta } from '../board/geometry';
import type { Lang, UiKey } from '../i18n';
import type { Messages } from '../i18n/en';
import type { GameState } from '../net/protocol';
import type { Connection } from '../net/socket';
import type { Prefs } from './prefs';
import type { AuthConfig } from './signin';
import type { TelegramApp } from './telegram';

export interface AppCtx {
  readonly lang: Lang;
  t(key: UiKey, params?: Record<string, string | number>): string;
  msgs(): Messages;
  readonly prefs: Prefs;
  readonly conn: Connection;
  readonly variants: VariantMeta[];
  variant(key: string): VariantMeta | undefined;
  /** the latest state of each game seen, so a page shows a game at once when re-opened */
  readonly games: Map<string, GameState>;
  navigate(hash: string): void;
  /** variant name in the current language */
  variantName(key: string): string;
  /** the sign-ins the site offers (GET /api/auth/config) */
  readonly auth: AuthConfig;
  /** the Mini App's bridge when Telegram opened the page, else null */
  readonly telegram: TelegramApp | null;
}

export interface View {
  destroy(): void;
}

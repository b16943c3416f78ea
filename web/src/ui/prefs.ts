// What the browser remembers (localStorage): language, board look, labels, nickname, the guest
// secret and an account session. A missing or blocked storage falls back to memory.

import type { Look } from '../board/state';
import type { Lang } from '../i18n';

export interface StorageLike {
  getItem(k: string): string | null;
  setItem(k: string, v: string): void;
  removeItem(k: string): void;
}

function memoryStorage(): StorageLike {
  const m = new Map<string, string>();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v), removeItem: (k) => void m.delete(k) };
}

export function browserStorage(): StorageLike {
  try {
    const s = globalThis.localStorage;
    s.setItem('papan.probe', '1');
    s.removeItem('papan.probe');
    return s;
  } catch {
    return memoryStorage();
  }
}

export class Prefs {
  constructor(private readonly store: StorageLike) {}
  private get(k: string): string | null {
    return this.store.getItem(`papan.${k}`);
  }
  private set(k: string, v: string | null): void {
    if (v === null) this.store.removeItem(`papan.${k}`);
    else this.store.setItem(`papan.${k}`, v);
  }
  get storedLang(): string | null {
    return this.get('lang');
  }
  set lang(v: Lang) {
    this.set('lang', v);
  }
  get look(): Look {
    return this.get('look') === 'candy' ? 'candy' : 'classic';
  }
  /** The look the player chose under a board, or null while they never did. */
  get chosenLook(): Look | null {
    const v = this.get('look');
    return v === 'candy' || v === 'classic' ? v : null;
  }
  set look(v: Look) {
    this.set('look', v);
  }
  get showNumbers(): boolean {
    return this.get('numbers') === '1';
  }
  set showNumbers(v: boolean) {
    this.set('numbers', v ? '1' : '0');
  }
  get showCoords(): boolean {
    return this.get('coords') === '1';
  }
  set showCoords(v: boolean) {
    this.set('coords', v ? '1' : '0');
  }
  /** sounds off (remembered mute) */
  get muted(): boolean {
    return this.get('muted') === '1';
  }
  set muted(v: boolean) {
    this.set('muted', v ? '1' : '0');
  }
  /** fewer clicks: play a single legal move at once (on unless turned off) */
  get autoPlay(): boolean {
    return this.get('autoplay') !== '0';
  }
  set autoPlay(v: boolean) {
    this.set('autoplay', v ? '1' : '0');
  }
  /** hot-seat: turn the board toward the side to move (off unless turned on) */
  get autoTurn(): boolean {
    return this.get('autoturn') === '1';
  }
  set autoTurn(v: boolean) {
    this.set('autoturn', v ? '1' : '0');
  }
  /** the theme chosen with the toggle, or null to follow the system */
  get theme(): 'light' | 'dark' | null {
    const t = this.get('theme');
    return t === 'light' || t === 'dark' ? t : null;
  }
  set theme(v: 'light' | 'dark' | null) {
    this.set('theme', v);
  }
  get nickname(): string {
    return this.get('nickname') ?? '';
  }
  set nickname(v: string) {
    this.set('nickname', v);
  }
  get secret(): string | null {
    return this.get('secret');
  }
  set secret(v: string | null) {
    this.set('secret', v);
  }
  get token(): string | null {
    return this.get('token');
  }
  set token(v: string | null) {
    this.set('token', v);
  }
  get username(): string | null {
    return this.get('username');
  }
  set username(v: string | null) {
    this.set('username', v);
  }
  /** the last lobby choices, as JSON */
  get lobby(): Record<string, unknown> {
    try {
      return JSON.parse(this.get('lobby') ?? '{}') as Record<string, unknown>;
    } catch {
      return {};
    }
  }
  set lobby(v: Record<string, unknown>) {
    this.set('lobby', JSON.stringify(v));
  }
  /** chat: whether the player with this id is muted here */
  isMuted(playerId: string): boolean {
    return this.get(`mute.${playerId}`) === '1';
  }
  setMuted(playerId: string, on: boolean): void {
    this.set(`mute.${playerId}`, on ? '1' : null);
  }
  /** the friend link of a game this browser created */
  linkOf(game: string): string | null {
    return this.get(`link.${game}`);
  }
  setLink(game: string, link: string): void {
    this.set(`link.${game}`, link);
  }
}

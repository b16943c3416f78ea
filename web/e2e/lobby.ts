// Lobby steps shared by the end-to-end tests: open the lobby, start a game (random pairing
// included), sign up.
import type { Page } from 'playwright-core';

export async function openLobby(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/#/`);
  await page.waitForSelector('[data-test="lobby"] [data-test="start"]');
  await page.waitForSelector('body[data-conn="open"]');
}

export interface StartOpts {
  variant: string;
  /** random: seek, and wait through the pairing (the computer when nobody else seeks) */
  mode: 'computer' | 'friend' | 'hotseat' | 'random';
  level?: 'easy' | 'normal' | 'hard';
  color?: 'white' | 'black';
  fen?: string;
  tc?: string;
  rated?: boolean;
}

/** Choose in the lobby and start; returns the game id once the board shows pieces. */
export async function startGame(page: Page, o: StartOpts): Promise<string> {
  await page.selectOption('[data-test="variant"]', o.variant);
  await page.check(`[data-test="mode-${o.mode}"]`);
  if (o.level) await page.check(`[data-test="level-${o.level}"]`);
  if (o.color) await page.check(`[data-test="color-${o.color}"]`);
  if (o.tc) await page.selectOption('[data-test="time-control"]', o.tc);
  if (o.rated) await page.check('[data-test="rated"]');
  if (o.fen) {
    await page.click('details.fen summary');
    await page.fill('[data-test="fen"]', o.fen);
    await page.dispatchEvent('[data-test="fen"]', 'change');
  }
  await page.click('[data-test="start"]');
  if (o.mode === 'random') await page.waitForSelector('[data-test="seeking"]');
  await page.waitForSelector('[data-test="game"] [data-test="board"] g.piece', { timeout: o.mode === 'random' ? 20_000 : 30_000 });
  return page.$eval('[data-test="game"]', (e) => (e as HTMLElement).dataset['game'] ?? '');
}

/** Pretend the tab is hidden (or shown again), as a switch to another tab does. */
export async function setHidden(page: Page, hidden: boolean): Promise<void> {
  await page.evaluate((h) => {
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => h });
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (h ? 'hidden' : 'visible') });
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);
}

/** Sign up in the lobby's account form. */
export async function signUp(page: Page, username: string, password = 'correct horse'): Promise<void> {
  await page.fill('[data-test="username"]', username);
  await page.fill('[data-test="password"]', password);
  await page.click('[data-test="sign-up"]');
  await page.waitForSelector('[data-test="signed-in"]');
  await page.waitForSelector('body[data-conn="open"]');
}

// End-to-end: a player's profile (#/player/NAME) after two rated games between two
// accounts in two browsers: the rating of the variant has moved, the rating chart has a point per
// rated game, and the games list links to each game's review. Real server, Debian's chromium;
// screenshots at 375 and 1280 px in build/e2e/ (profile-*).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { geometryOf, joinByLink, launch, newPage, playAnyMove, removeData, rng, shot, startServer, waitTurn, type Server } from './harness';
import { openLobby, signUp, startGame } from './lobby';

let server: Server;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = (await launch()).browser;
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (server) removeData(server.data);
});

const VARIANT = 'russian';
const START_RATING = 1200; // docs/protocol.md, "Ratings and rewards"

/** Screenshots of the page as it is at 375 x 667 and at 1280 x 800, then back to `back`. */
async function shots(page: Page, name: string, back: { width: number; height: number }): Promise<void> {
  for (const [w, h] of [
    [375, 667],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
    if (w === 375) {
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(1);
      // the tables and the chart stay inside the profile's card on a phone
      const over = await page.$eval('[data-test="profile"]', (card) => {
        const right = card.getBoundingClientRect().right;
        return [...card.querySelectorAll('table, svg')].map((e) => e.getBoundingClientRect().right - right);
      });
      expect(Math.max(...over)).toBeLessThanOrEqual(0);
    }
    await shot(page, `profile-${name}-${w}`);
  }
  await page.setViewportSize(back);
}

const cells = (page: Page, sel: string): Promise<string[]> => page.$$eval(`${sel} td`, (tds) => tds.map((td) => (td.textContent ?? '').trim()));

/**
 * One rated friend game: `white` creates it (rated, default clock) and `black` joins by the link;
 * White makes a move, Black replies when White is to lose, and `loser` resigns. Returns the game id.
 */
async function ratedGame(white: Page, black: Page, loser: 'white' | 'black', seed: number): Promise<string> {
  await openLobby(white, server.url);
  const id = await startGame(white, { variant: VARIANT, mode: 'friend', color: 'white', tc: 'default', rated: true });
  await white.waitForSelector('[data-test="friend-link"]');
  const link = await white.$eval('[data-test="friend-link"]', (e) => (e as HTMLInputElement).value);
  await joinByLink(black, link);
  await black.waitForSelector(`[data-test="game"][data-game="${id}"] [data-test="board"][data-orientation="black"] g.piece`);
  for (const p of [white, black]) await p.waitForSelector('[data-test="rated-badge"][data-rated="1"]');
  const g = await geometryOf(server, VARIANT);
  expect(await waitTurn(white, 'white')).toBe(true);
  await playAnyMove(white, g, rng(seed));
  expect(await waitTurn(black, 'black')).toBe(true);
  if (loser === 'white') {
    await playAnyMove(black, g, rng(seed + 1));
    expect(await waitTurn(white, 'white')).toBe(true);
  }
  const page = loser === 'white' ? white : black;
  await page.click('[data-test="resign"]');
  await page.click('[data-test="resign"]'); // the second click confirms
  const outcome = loser === 'white' ? 'black_wins' : 'white_wins';
  for (const p of [white, black]) await p.waitForSelector(`[data-test="result"][data-outcome="${outcome}"][data-reason="resignation"]`);
  return id;
}

describe('player profile', () => {
  it('shows the moved rating, a chart point per rated game and the games with their reviews after two rated games', async () => {
    // fresh, unique names (the data folder is fresh too; the names say which run made them)
    const stamp = Date.now().toString(36).slice(-6);
    const ana = `pf_ana_${stamp}`;
    const budi = `pf_budi_${stamp}`;
    const a = await newPage(browser);
    const b = await newPage(browser, 375, 667);
    await openLobby(a.page, server.url);
    await signUp(a.page, ana);
    await openLobby(b.page, server.url);
    await signUp(b.page, budi);

    // Ana wins the first game (Budi resigns), loses the second (she resigns)
    const won = await ratedGame(a.page, b.page, 'black', 1);
    const lost = await ratedGame(a.page, b.page, 'white', 2);
    expect(won).not.toBe(lost);

    // Budi opens Ana's profile from the name in the game's header
    await b.page.click('[data-test="player-link-white"]');
    await b.page.waitForSelector(`[data-test="profile"][data-player="${ana}"]`);
    const page = b.page;

    // the rating of the variant: moved from the start, two games, one won and one lost
    const [, rating, games, wld] = await cells(page, `[data-test="rating-${VARIANT}"]`);
    expect(Number(rating)).not.toBe(START_RATING);
    expect(Number.isInteger(Number(rating))).toBe(true);
    expect(games).toBe('2');
    expect(wld).toBe('1 / 1 / 0');
    const api = (await (await fetch(`${server.url}/api/players/${ana}`)).json()) as { history: { game: string; rating: number }[] };
    expect(api.history.map((h) => h.game)).toEqual([won, lost]);
    expect(Number(rating)).toBe(api.history[1]?.rating);

    // the chart: the starting point, then one point per rated game in order; up after the win,
    // down after the loss (SVG y grows downwards)
    await page.waitForSelector('[data-test="rating-chart"] svg [data-test="rating-line"]');
    const dots = await page.$$eval('[data-test="rating-chart"] svg [data-test="rating-dot"]', (els) =>
      els.map((e) => ({ game: e.getAttribute('data-game'), y: Number(e.getAttribute('cy')) })));
    expect(dots.filter((d) => d.game !== null).map((d) => d.game)).toEqual([won, lost]);
    expect(dots).toHaveLength(3);
    const [start, afterWin, afterLoss] = dots.map((d) => d.y);
    expect(afterWin).toBeLessThan(start ?? NaN);
    expect(afterLoss).toBeGreaterThan(afterWin ?? NaN);
    expect(await page.$eval('[data-test="rating-line"]', (e) => e.getAttribute('d'))).toMatch(/^M[\d.]+[ ,][\d.]+( ?L[\d.]+[ ,][\d.]+){2}$/);

    // the games: both, from Ana's side, the opponent's name linking to his profile, and a review link
    const rows = await page.$$eval('[data-test="profile-game"]', (trs) =>
      trs.map((tr) => ({
        game: (tr as HTMLElement).dataset['game'],
        result: (tr as HTMLElement).dataset['result'],
        opponent: tr.querySelector('[data-test="opponent-link"]')?.getAttribute('href'),
        review: tr.querySelector('[data-test="review-link"]')?.getAttribute('href'),
        change: tr.querySelector('[data-test="rating-change"]')?.textContent ?? null,
      })));
    expect(rows).toHaveLength(2);
    const row = (id: string): (typeof rows)[number] | undefined => rows.find((r) => r.game === id);
    // each row says what the game did to the rating (GET /api/games rows' rating_change)
    expect(row(won)).toEqual({ game: won, result: 'win', opponent: `#/player/${budi}`, review: `#/game/${won}`, change: expect.stringMatching(/^ \(\+\d+\)$/) });
    expect(row(lost)).toEqual({ game: lost, result: 'loss', opponent: `#/player/${budi}`, review: `#/game/${lost}`, change: expect.stringMatching(/^ \(−\d+\)$/) });
    await shots(page, 'after-two-rated-games', { width: 375, height: 667 });

    // a review link opens that game's review
    await page.click(`[data-test="profile-game"][data-game="${won}"] [data-test="review-link"]`);
    await page.waitForSelector(`[data-test="game"][data-game="${won}"] [data-test="review"]`);
    await page.waitForSelector('[data-test="result"][data-outcome="white_wins"]');

    // Ana sees the same profile on her computer
    await a.page.goto(`${server.url}/#/player/${ana}`);
    await a.page.waitForSelector(`[data-test="profile"][data-player="${ana}"] [data-test="rating-chart"] svg`);
    expect(await a.page.$$eval('[data-test="rating-dot"][data-game]', (els) => els.length)).toBe(2);
    expect((await cells(a.page, `[data-test="rating-${VARIANT}"]`))[1]).toBe(rating);
    await a.context.close();
    await b.context.close();
  });
});

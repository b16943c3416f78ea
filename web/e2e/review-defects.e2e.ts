// End-to-end: the defects a new player met in the browser review of 2026-12-07, each checked as
// the player met it. Imported games are found again (profile, "Your games"); a finished game on
// a phone opens with the board in sight; the computer's refusal of a draw is said; the
// computer's thinking shows; the review gives the evaluation and best move at every position;
// the analysis board exports its variations and reads a pasted game without a GameType; the dark
// theme's current move is readable; every page has one <h1>.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { geometryOf, joinByLink, launch, newPage, playAnyMove, removeData, REPO, rng, shot, startServer, waitTurn, type Server } from './harness';
import { openLobby, signUp, startGame } from './lobby';

let server: Server;
let browser: Browser;
let token = '';
let player = '';
let imported = '';

beforeAll(async () => {
  server = await startServer();
  browser = (await launch()).browser;
  // A player with a long imported game (a real International game from the test data).
  player = `rev${Math.floor(Math.random() * 1e6)}`;
  const reg = await fetch(`${server.url}/api/register`, { method: 'POST', body: JSON.stringify({ username: player, password: 'correct horse' }) });
  token = ((await reg.json()) as { token: string }).token;
  const pdn = readFileSync(join(REPO, 'tests/data/pdn/international.pdn'));
  const r = await fetch(`${server.url}/api/import`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: pdn });
  const body = (await r.json()) as { stored: { id: string; moves: number }[] };
  imported = (body.stored.find((g) => g.moves > 40) ?? body.stored[0])?.id ?? '';
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (server) removeData(server.data);
});

async function signIn(page: Page): Promise<void> {
  await page.goto(`${server.url}/#/`);
  await page.evaluate(([t, n]) => {
    localStorage.setItem('papan.token', t as string);
    localStorage.setItem('papan.username', n as string);
  }, [token, player]);
  await page.reload(); // the socket says hello with the token
  await page.waitForSelector('body[data-conn="open"]');
}

async function openReview(page: Page, id: string): Promise<void> {
  await page.goto(`${server.url}/#/game/${id}`);
  await page.waitForSelector('[data-test="review"]');
  await page.waitForFunction(() => /\d/.test(document.querySelector('[data-test="review-ply"]')?.textContent ?? ''));
}

describe('the defects of the browser review', () => {
  it('lists an imported game on the importer\'s profile and under "Your games"', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page);
    await page.goto(`${server.url}/#/player/${player}`);
    await page.waitForSelector(`[data-test="profile-game"][data-game="${imported}"]`);
    expect(await page.getAttribute(`[data-test="profile-game"][data-game="${imported}"]`, 'data-result')).toBe('imported');
    await openLobby(page, server.url);
    await page.waitForSelector(`[data-test="my-game"][href="#/game/${imported}"]`);
    await context.close();
  });

  it('opens a finished game on a phone with the board in sight', async () => {
    const { context, page } = await newPage(browser, 390, 844);
    await openReview(page, imported);
    await page.evaluate(() => new Promise<void>((r) => setTimeout(r, 300)));
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    const top = await page.$eval('[data-test="board"]', (e) => e.getBoundingClientRect().top);
    expect(top).toBeLessThan(844 / 2);
    await shot(page, 'review-phone-390');
    await context.close();
  });

  it('gives the evaluation and the best move at every position while stepping', async () => {
    const { context, page } = await newPage(browser);
    await openReview(page, imported);
    for (const step of ['first', 'next', 'next']) {
      await page.click(`[data-test="review-${step}"]`);
      await page.waitForSelector('[data-test="review-eval"][data-known="1"]', { timeout: 60_000 });
      expect(await page.textContent('[data-test="review-eval"]')).toMatch(/best move \S+/);
    }
    await context.close();
  });

  it('shows the current move readably in the dark theme', async () => {
    const { context, page } = await newPage(browser);
    await page.emulateMedia({ colorScheme: 'dark' });
    await openReview(page, imported);
    await page.click('[data-test="review-prev"]');
    await page.waitForSelector('[data-test="move-list"] .mv.current');
    expect(await page.evaluate(() => document.documentElement.dataset['theme'])).toBe('dark');
    const ratio = await page.$eval('[data-test="move-list"] .mv.current', (e) => {
      const rgb = (c: string): number[] => (c.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
      const lum = (c: number[]): number => {
        const [r, g, b] = c.map((v) => {
          const s = v / 255;
          return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
        }) as [number, number, number];
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      const st = getComputedStyle(e);
      const [a, b] = [lum(rgb(st.color)), lum(rgb(st.backgroundColor))];
      return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    });
    expect(ratio).toBeGreaterThanOrEqual(4.5);
    await context.close();
  });

  it('says that the computer declined a draw, and shows it thinking', async () => {
    const { context, page } = await newPage(browser);
    await openLobby(page, server.url);
    await startGame(page, { variant: 'russian', mode: 'computer', level: 'hard' });
    const g = await geometryOf(server, 'russian');
    expect(await waitTurn(page, 'white')).toBe(true);
    await playAnyMove(page, g, rng(5));
    await page.waitForSelector('[data-test="thinking"]');
    expect(await waitTurn(page, 'white')).toBe(true);
    expect(await page.$('[data-test="thinking"]')).toBeNull();
    await page.click('[data-test="draw-offer"]');
    await page.waitForSelector('[data-test="draw-declined"]');
    expect(await page.textContent('[data-test="draw-declined"]')).toContain('computer declined');
    await context.close();
  });

  it('exports the analysis board\'s variations and reads a pasted game without a GameType', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/#/analysis/international`);
    await page.waitForSelector('[data-test="analysis"] [data-test="board"] g.piece');
    // An American checkers game with no GameType (only American accepts its moves), pasted on
    // the International board.
    const american =
      '[Black "Ward, C."]\n[White "Ames, B."]\n\n1. 10-15 22-18 2. 15x22 25x18 3. 9-14 18x9 4. 6x13 30-25 5. 11-15 25-22\n' +
      '6. 13-17 21x14 7. 15-19 23x16 8. 12x19 24x15 9. 5-9 14x5 10. 7-10 15x6 *\n';
    await page.fill('[data-test="paste"]', american);
    await page.click('[data-test="paste-load"]');
    await page.waitForSelector('[data-test="analysis"][data-variant="american"]');
    // A variation: back at the start, another first move than 10-15.
    const g = await geometryOf(server, 'american');
    const rand = rng(11);
    for (let i = 0; i < 8 && !(await page.textContent('[data-test="move-tree"]'))?.includes('('); i++) {
      await page.click('[data-test="nav-first"]');
      await playAnyMove(page, g, rand);
      await page.waitForTimeout(200);
    }
    expect(await page.textContent('[data-test="move-tree"]')).toContain('(');
    const download = page.waitForEvent('download');
    await page.click('[data-test="export-pdn"]');
    const file = await download;
    const text = readFileSync((await file.path()) as string, 'utf8');
    expect(text).toMatch(/1\. 10-15 \(1\. \d+-\d+\) 1\.\.\. 22-18/);
    await context.close();
  });

  it('says that the opponent has left while their clock runs, and when they are back', async () => {
    const a = await newPage(browser);
    const b = await newPage(browser);
    await openLobby(a.page, server.url);
    await startGame(a.page, { variant: 'russian', mode: 'friend', color: 'white', tc: 'default' });
    const link = await a.page.$eval('[data-test="friend-link"]', (e) => (e as HTMLInputElement).value);
    await joinByLink(b.page, link, 'Bobby');
    const g = await geometryOf(server, 'russian');
    expect(await waitTurn(a.page, 'white')).toBe(true);
    await playAnyMove(a.page, g, rng(3));
    await b.page.close(); // Black's tab closes on Black's turn
    await a.page.waitForSelector('[data-test="opponent-away"]', { timeout: 20_000 });
    expect(await a.page.textContent('[data-test="opponent-away"]')).toContain('clock keeps running');
    await shot(a.page, 'opponent-away-1280');
    const back = await b.context.newPage();
    await joinByLink(back, link, 'Bobby'); // the same guest (its secret kept) sits down again
    await a.page.waitForSelector('[data-test="opponent-away"]', { state: 'detached', timeout: 20_000 });
    await a.context.close();
    await b.context.close();
  });

  it('has one <h1> on every page', async () => {
    const { context, page } = await newPage(browser);
    for (const route of ['#/', '#/rules', '#/rules/turkish', '#/leaderboard', '#/analysis', `#/game/${imported}`, `#/player/${player}`]) {
      await page.goto(`${server.url}/${route}`);
      await page.waitForSelector('main h1');
      expect(await page.$$eval('h1', (hs) => hs.length), route).toBe(1);
    }
    await context.close();
  });
});

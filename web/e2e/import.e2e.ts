// End-to-end: "Import PDN" on one's own profile. A signed-in player pastes a
// file of three games whose second is illegal, then picks a Latin-1 file; the page lists the
// stored games with links and the rejected one with game, move and reason, and a link opens the
// imported game's review. Real server, Debian's chromium; screenshots in build/e2e/ (import-*).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launch, newPage, removeData, shot, startServer, type Server } from './harness';
import { openLobby, signUp } from './lobby';

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

const game = (round: number, white: string, black: string, result: string, moves: string): string =>
  `[Event "Round ${round}"]\n[White "${white}"]\n[Black "${black}"]\n[Result "${result}"]\n[GameType "20"]\n\n${moves} ${result}\n\n`;

// the second game's third black move (23x14) is illegal
const THREE_GAMES =
  game(1, 'Ann', 'Budi', '2-0', '1. 32-28 19-23 2. 28x19 14x23 3. 33-28 23x32 4. 37x28') +
  game(2, 'Cici', 'Dedi', '0-2', '1. 32-27 18-22 2. 27x18 13x22 3. 33-28 23x14') +
  game(3, 'Eko', 'Fajar', '1-1', '1. 31-26 17-21 2. 26x17 12x21');

describe('import PDN', () => {
  it('stores the good games of a pasted file and of a Latin-1 file, lists the bad one, and opens a review', async () => {
    const { context, page } = await newPage(browser);
    await openLobby(page, server.url);
    const name = `imp${Math.floor(Math.random() * 1e6)}`;
    await signUp(page, name);
    await page.click('[data-test="my-profile"]');
    await page.waitForSelector('[data-test="profile"] [data-test="import-form"]');

    await page.fill('[data-test="import-text"]', THREE_GAMES);
    await page.click('[data-test="import-send"]');
    await page.waitForSelector('[data-test="import-summary"]');
    expect(await page.textContent('[data-test="import-summary"]')).toBe('2 game(s) imported:');
    const links = await page.$$eval('[data-test="import-link"]', (as) => as.map((a) => [a.textContent, a.getAttribute('href')]));
    expect(links.map((l) => l[0])).toEqual(['Ann – Budi', 'Eko – Fajar']);
    for (const l of links) expect(l[1]).toMatch(/^#\/game\/[0-9a-f]{16}$/);
    const rejected = await page.$$eval('[data-test="import-rejected"] li', (li) => li.map((e) => [e.getAttribute('data-game'), e.textContent]));
    expect(rejected).toHaveLength(1);
    expect(rejected[0]?.[0]).toBe('2');
    expect(rejected[0]?.[1]).toMatch(/^Game 2: move 3 \(black\): illegal move '23x14'/);
    await shot(page, 'import-result-1280');

    // a file in Latin-1, as older programs write it: the names come back right
    const latin1 = Buffer.from(game(1, 'M\u00fcller, J\u00f6rg', 'G\u00e9rard, No\u00ebl', '1-1', '1. 32-28 19-23'), 'latin1');
    await page.fill('[data-test="import-text"]', '');
    await page.setInputFiles('[data-test="import-file"]', { name: 'latin1.pdn', mimeType: 'application/x-pdn', buffer: latin1 });
    await page.click('[data-test="import-send"]');
    await page.waitForFunction(() => document.querySelector('[data-test="import-link"]')?.textContent?.startsWith('M\u00fcller'));
    expect(await page.textContent('[data-test="import-link"]')).toBe('M\u00fcller, J\u00f6rg – G\u00e9rard, No\u00ebl');
    expect(await page.$('[data-test="import-rejected"]')).toBeNull();

    // the imported game opens as a finished game's review, with the file's names and result
    await page.click('[data-test="import-link"]');
    await page.waitForSelector('[data-test="review"]');
    await page.waitForSelector('[data-test="result"][data-reason="imported"][data-outcome="draw"]');
    const players = await page.$$eval('[data-test^="player-"] .name', (e) => e.map((x) => x.textContent));
    expect(players).toContain('M\u00fcller, J\u00f6rg');
    expect(await page.textContent('[data-test="result"]')).toContain('Draw (imported)');
    await shot(page, 'import-review-1280');
    await context.close();
  }, 120_000);

  it('is not offered on another player\'s profile or to a guest', async () => {
    const { context, page } = await newPage(browser);
    await openLobby(page, server.url);
    const name = `own${Math.floor(Math.random() * 1e6)}`;
    await signUp(page, name);
    await page.goto(`${server.url}/#/player/${name}`);
    await page.waitForSelector('[data-test="import-form"]');
    const guest = await newPage(browser);
    await guest.page.goto(`${server.url}/#/player/${name}`);
    await guest.page.waitForSelector('[data-test="profile"]');
    expect(await guest.page.$('[data-test="import-form"]')).toBeNull();
    await guest.context.close();
    await context.close();
  }, 60_000);
});

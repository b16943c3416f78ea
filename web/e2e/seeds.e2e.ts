// End-to-end: what the product pages Papan is built from promise a new player. Against the
// computer with no colour chosen the player takes the side that moves first and sits at the
// bottom: Black in American, White in International; the choice of colour is still there.
// Turkish dama opens on the classic wooden board drawn with lines where players know plain dama,
// on candy pieces and a pistachio board elsewhere, the look chosen under the board.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { geometryOf, launch, newPage, playAnyMove, removeData, rng, shot, startServer, waitTurn, type Server } from './harness';
import { openLobby } from './lobby';

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

/** Start against the computer touching nothing but the variant; the game id. */
async function startAgainstComputer(page: Page, variant: string): Promise<string> {
  await openLobby(page, server.url);
  await page.selectOption('[data-test="variant"]', variant);
  await page.check('[data-test="mode-computer"]');
  await page.click('[data-test="start"]');
  await page.waitForSelector('[data-test="game"] [data-test="board"] g.piece');
  return page.$eval('[data-test="game"]', (e) => (e as HTMLElement).dataset['game'] ?? '');
}

const orientation = (page: Page): Promise<string> => page.$eval('[data-test="board"]', (e) => (e as HTMLElement).dataset['orientation'] ?? '');

describe('the first move is the player\'s', () => {
  it('American: Black, at the bottom, and the player moves first', async () => {
    const { context, page } = await newPage(browser, 390, 844);
    const id = await startAgainstComputer(page, 'american');
    expect(await orientation(page)).toBe('black');
    expect(await page.textContent('[data-test="player-bottom"]')).toContain('Black');
    expect(await waitTurn(page, 'black')).toBe(true);
    // nothing was played before the player's first move
    const before = (await (await fetch(`${server.url}/api/games/${id}`)).json()) as { moves: string[] };
    expect(before.moves).toEqual([]);
    await shot(page, 'seeds-american-first-move-390');
    await playAnyMove(page, await geometryOf(server, 'american'), rng(4));
    expect(await waitTurn(page, 'black')).toBe(true); // the computer answered
    const after = (await (await fetch(`${server.url}/api/games/${id}`)).json()) as { moves: string[]; black: { computer: boolean } };
    expect(after.moves.length).toBe(2);
    expect(after.black.computer).toBe(false);
    await context.close();
  });

  it('International: White, at the bottom, and the player moves first', async () => {
    const { context, page } = await newPage(browser);
    await startAgainstComputer(page, 'international');
    expect(await orientation(page)).toBe('white');
    expect(await waitTurn(page, 'white')).toBe(true);
    await context.close();
  });

  it('keeps the choice of colour, named for the variant', async () => {
    const { context, page } = await newPage(browser);
    await openLobby(page, server.url);
    await page.selectOption('[data-test="variant"]', 'american');
    await page.check('[data-test="mode-computer"]');
    expect(await page.isChecked('[data-test="color-black"]')).toBe(true);
    expect(await page.textContent('label:has([data-test="color-black"])')).toContain('moves first');
    await page.check('[data-test="color-white"]');
    await page.click('[data-test="start"]');
    await page.waitForSelector('[data-test="game"] [data-test="board"] g.piece');
    expect(await orientation(page)).toBe('white');
    await context.close();
  });
});

describe('the Turkish board', () => {
  const cellKinds = (page: Page): Promise<{ lined: number; dark: number }> =>
    page.$$eval('[data-test="board"] rect.cell', (cells) => ({
      lined: cells.filter((c) => c.classList.contains('lined')).length,
      dark: cells.filter((c) => c.classList.contains('dark')).length,
    }));

  it('opens on the lined wooden board for players of plain dama, and candy stays selectable', async () => {
    const { context, page } = await newPage(browser, 1280, 800, 'tr-TR');
    await startAgainstComputer(page, 'turkish');
    expect(await cellKinds(page)).toEqual({ lined: 64, dark: 0 });
    expect(await page.$eval('[data-test="board"]', (e) => e.classList.contains('look-classic'))).toBe(true);
    await shot(page, 'seeds-turkish-classic-1280');
    await page.click('[data-test="look-candy"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-test="board"] rect.cell.dark').length === 32);
    await context.close();
  });

  it('opens on candy pieces and a pistachio board elsewhere', async () => {
    const { context, page } = await newPage(browser, 1280, 800, 'id-ID');
    await startAgainstComputer(page, 'turkish');
    expect(await page.$eval('[data-test="board"]', (e) => e.classList.contains('look-candy'))).toBe(true);
    expect((await cellKinds(page)).dark).toBe(32);
    await page.click('[data-test="look-classic"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-test="board"] rect.cell.lined').length === 64);
    await shot(page, 'seeds-turkish-candy-choice-1280');
    await context.close();
  });
});

// End-to-end: reviewing a finished game in Debian's chromium: stepping through it with the keys,
// a swipe and clicks, flip, copy FEN, and the in-browser engine's analysis with its graph and
// the marked blunder.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { clickSquare, geometryOf, launch, newPage, playAnyMove, removeData, rng, shot, startServer, waitTurn, type Server } from './harness';

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

// International, White to move, level (the engine: about -0.1). 42-38 loses two men to Black's
// reply (the engine: about -5): the deliberate blunder.
const FEN = 'W:W21,29,42:B15,26,36';

const plyOf = (page: Page): Promise<number> => page.$eval('[data-test="board"]', (e) => Number((e as HTMLElement).dataset['ply']));

async function finishedGame(page: Page): Promise<string> {
  await page.goto(`${server.url}/#/`);
  await page.waitForSelector('[data-test="lobby"] [data-test="start"]');
  await page.waitForSelector('body[data-conn="open"]');
  await page.selectOption('[data-test="variant"]', 'international');
  await page.check('[data-test="mode-hotseat"]');
  await page.click('details.fen summary');
  await page.fill('[data-test="fen"]', FEN);
  await page.dispatchEvent('[data-test="fen"]', 'change');
  await page.click('[data-test="start"]');
  await page.waitForSelector('[data-test="game"] [data-test="board"] g.piece');
  const g = await geometryOf(server, 'international');
  expect(await waitTurn(page, 'white')).toBe(true);
  await clickSquare(page, g, 42);
  await clickSquare(page, g, 38);
  expect(await waitTurn(page, 'black')).toBe(true);
  await playAnyMove(page, g, rng(1));
  expect(await waitTurn(page, 'white')).toBe(true);
  await playAnyMove(page, g, rng(2));
  expect(await waitTurn(page, 'black')).toBe(true);
  await page.click('[data-test="resign"]');
  await page.click('[data-test="resign"]');
  await page.waitForSelector('[data-test="result"][data-reason="resignation"]');
  return page.$eval('[data-test="game"]', (e) => (e as HTMLElement).dataset['game'] ?? '');
}

describe('game review', () => {
  it('steps through a finished game, analyses it and marks the blunder', async () => {
    const { context, page } = await newPage(browser);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const id = await finishedGame(page);
    // the game page turns into the review at once: the last position, every move clickable
    await page.waitForSelector('[data-test="review"]');
    await page.waitForFunction(() => (document.querySelector('[data-test="board"]') as HTMLElement).dataset['ply'] === '3');
    expect(await page.$$eval('[data-test="move-list"] .mv.clickable', (els) => els.length)).toBe(3);
    await page.keyboard.press('Home');
    expect(await plyOf(page)).toBe(0);
    expect(await page.$eval('[data-test="review-fen"]', (e) => (e as HTMLInputElement).value)).toBe(FEN);
    await page.keyboard.press('ArrowRight');
    expect(await plyOf(page)).toBe(1);
    // the board draws on the next animation frame, after data-ply is set: wait for the drawing
    expect(await page.waitForSelector('[data-test="board"] g.piece[data-square="38"][data-color="white"]', { timeout: 5_000 })).not.toBeNull();
    await page.keyboard.press('End');
    expect(await plyOf(page)).toBe(3);
    await page.keyboard.press('ArrowLeft');
    expect(await plyOf(page)).toBe(2);
    await page.click('[data-test="move-list"] .mv[data-ply="0"]');
    expect(await plyOf(page)).toBe(1);
    // flip and copy the FEN of the shown position
    await page.click('[data-test="flip"]');
    await page.waitForSelector('[data-test="board"][data-orientation="black"]');
    await page.click('[data-test="copy-fen"]');
    const shown = await page.$eval('[data-test="review-fen"]', (e) => (e as HTMLInputElement).value);
    expect(shown).toMatch(/^B:W/);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown);
    // analyse: a progress bar driven to the last position (the positions already stepped through
    // were analysed while stepping, so the run may end before a wait could see the bar), then the
    // graph and the marked blunder with the better move
    await page.click('[data-test="analyse-game"]');
    await page.waitForSelector('[data-test="analyse-game"][data-running="0"]', { timeout: 120_000 });
    expect(await page.$eval('[data-test="review-progress"]', (e) => [(e as HTMLProgressElement).value, (e as HTMLProgressElement).max])).toEqual([4, 4]);
    expect(await page.textContent('[data-test="review-status"]')).toMatch(/Analysis done: 4 positions/);
    expect(await page.$eval('[data-test="eval-line"]', (e) => e.getAttribute('d') ?? '')).toMatch(/^M0,[\d.]+( L[\d.]+,[\d.]+){3}$/);
    const blunder = await page.$('[data-test="mark"][data-ply="0"][data-mark="blunder"]');
    expect(blunder).not.toBeNull();
    expect(await blunder?.textContent()).toMatch(/Better was \d+-\d+/);
    expect(await page.$('[data-test="move-list"] .mv[data-ply="0"][data-mark="blunder"]')).not.toBeNull();
    // the graph jumps where it is clicked
    const box = await page.$eval('[data-test="eval-graph"] svg', (s) => { const r = s.getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width, h: r.height }; });
    await page.mouse.click(box.x + 2, box.y + box.h / 2);
    expect(await plyOf(page)).toBe(0);
    await page.mouse.click(box.x + box.w / 3, box.y + box.h / 2);
    expect(await plyOf(page)).toBe(1);
    await page.waitForSelector('[data-test="mark-callout"]:not([hidden])');
    await shot(page, 'review-analysed-1280');
    // reopening the game shows the review with its analysis
    await page.goto(`${server.url}/#/game/${id}`);
    await page.waitForSelector('[data-test="review"] [data-test="mark"][data-mark="blunder"]');
    await context.close();
  });

  it('is usable on a phone: swipe through the moves, cancel an analysis', async () => {
    const { context, page } = await newPage(browser, 375, 800);
    await finishedGame(page);
    await page.waitForFunction(() => (document.querySelector('[data-test="board"]') as HTMLElement).dataset['ply'] === '3');
    const swipe = async (dx: number): Promise<void> => {
      await page.$eval('[data-test="board"]', (el, d) => {
        const r = el.getBoundingClientRect();
        const at = (x: number) => ({ clientX: x, clientY: r.y + r.height / 2, pointerId: 7, pointerType: 'touch', bubbles: true, isPrimary: true });
        el.dispatchEvent(new PointerEvent('pointerdown', at(r.x + r.width / 2)));
        el.dispatchEvent(new PointerEvent('pointerup', at(r.x + r.width / 2 + d)));
      }, dx);
    };
    await swipe(120); // to the right: back
    expect(await plyOf(page)).toBe(2);
    await swipe(-120); // to the left: forward
    expect(await plyOf(page)).toBe(3);
    await page.click('[data-test="analyse-game"]');
    await page.waitForSelector('[data-test="analyse-game"][data-running="1"]');
    await page.click('[data-test="analyse-game"]'); // "Stop"
    await page.waitForSelector('[data-test="analyse-game"][data-running="0"]');
    expect(await page.textContent('[data-test="review-status"]')).toMatch(/stopped|done/i);
    const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(over).toBeLessThanOrEqual(1);
    await shot(page, 'review-375');
    await context.close();
  });
});

// End-to-end: the analysis board with the WebAssembly engine in Debian's chromium, against the
// real server (which serves the client and starts the games played "from here").
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { clickSquare, geometryOf, launch, movablePieces, newPage, partial, playAnyMove, removeData, rng, SERVER_BIN, shot, startServer, targets, type Server } from './harness';

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

const fenOf = (page: Page): Promise<string> => page.$eval('[data-test="board"]', (e) => (e as HTMLElement).dataset['fen'] ?? '');

/**
 * Waits until the engine shows `n` lines (multi-PV 1..n; 0: as many as there are, at least one)
 * of at least `depth`.
 */
async function waitLines(page: Page, n: number, depth = 3): Promise<string[]> {
  // the texts are read in the same moment the condition holds (lines keep streaming in)
  const handle = await page.waitForFunction(
    ({ n, depth }) => {
      const ls = [...document.querySelectorAll<HTMLElement>('[data-test="engine-line"]')];
      const ok = (n === 0 ? ls.length > 0 : ls.length === n) && ls.every((l, i) => l.dataset['multipv'] === String(i + 1) && Number(l.dataset['depth']) >= depth);
      return ok ? ls.map((l) => l.querySelector('.pv')?.textContent ?? '') : null;
    },
    { n, depth },
    { timeout: 60_000 },
  );
  return (await handle.jsonValue()) as string[];
}

async function openAnalysis(page: Page, variant: string, fen?: string): Promise<void> {
  await page.goto(`${server.url}/#/analysis/${variant}${fen ? `?fen=${encodeURIComponent(fen)}` : ''}`);
  await page.waitForSelector(`[data-test="analysis"][data-variant="${variant}"] [data-test="board"][data-fen]`);
}

describe('analysis board', () => {
  for (const [variant, width] of [
    ['international', 1280],
    ['american', 375],
    ['turkish', 1280],
  ] as const) {
    it(`shows three engine lines in ${variant}, plays both sides and opens a variation (${width} px)`, async () => {
      const { context, page } = await newPage(browser, width, width < 500 ? 800 : 900);
      await openAnalysis(page, variant);
      const first = await waitLines(page, 3);
      // three different first moves
      expect(new Set(first.map((l) => l.split(' ')[1])).size).toBe(3);
      const bar = Number(await page.$eval('[data-test="eval-bar"]', (e) => (e as HTMLElement).dataset['share']));
      expect(bar).toBeGreaterThan(0);
      expect(bar).toBeLessThan(1);
      const g = await geometryOf(server, variant);
      const start = await fenOf(page);
      // a move for each side, chosen by clicks; each shows in the tree and gets new lines
      await playAnyMove(page, g, rng(1));
      await page.waitForFunction((f) => (document.querySelector('[data-test="board"]') as HTMLElement).dataset['fen'] !== f, start);
      await playAnyMove(page, g, rng(2));
      await page.waitForSelector('[data-test="move-tree"] .tree-move[data-ply="2"]');
      await waitLines(page, 0); // fewer than three when fewer moves are legal (a forced capture)
      await shot(page, `analysis-${variant}-${width}`);
      // back one ply with the key, then another move: a variation in brackets
      await page.keyboard.press('ArrowLeft');
      await page.waitForSelector('[data-test="move-tree"] .tree-move.current[data-ply="1"]');
      const before = await page.$$eval('[data-test="move-tree"] .tree-move', (els) => els.length);
      // another piece than the one the main line moved
      const played = (await page.$eval('[data-test="move-tree"] .tree-move[data-ply="2"]', (e) => e.textContent ?? '')).trim().split(' ').at(-1) ?? '';
      const playedFrom = played.split(/[-x:]/)[0];
      const from = (await movablePieces(page)).find((sq) => (g.byNumber.get(sq)?.name ?? '?') !== playedFrom) as number;
      await clickSquare(page, g, from);
      for (let i = 0; i < 20 && (await partial(page)) !== ''; i++) await clickSquare(page, g, (await targets(page))[0] as number);
      await page.waitForSelector('[data-test="move-tree"] .tree-move.current[data-ply="2"]');
      expect(await page.$('[data-test="move-tree"] .var-open')).not.toBeNull();
      expect(await page.$$eval('[data-test="move-tree"] .tree-move', (els) => els.length)).toBe(before + 1);
      // Home goes to the start position
      await page.keyboard.press('Home');
      await page.waitForFunction((f) => (document.querySelector('[data-test="board"]') as HTMLElement).dataset['fen'] === f, start);
      await context.close();
    });
  }

  it('deepens every line when fewer moves are legal than lines are shown', async () => {
    const { context, page } = await newPage(browser);
    // Turkish with two legal moves, International with three (tests/data/analysis/few_moves.txt)
    for (const [variant, fen, n] of [
      ['turkish', 'B:W11,14,17:B49', 2],
      ['international', 'W:W15,30:B6,11,K18,21', 3],
    ] as const) {
      await openAnalysis(page, variant, fen);
      const lines = await waitLines(page, n, 8);
      expect(new Set(lines.map((l) => l.split(' ')[1])).size).toBe(n);
    }
    await context.close();
  });

  it('loads the engine only on the analysis pages, served as application/wasm', async () => {
    const { context, page } = await newPage(browser);
    const fetched: string[] = [];
    page.on('request', (r) => fetched.push(r.url()));
    for (const route of ['#/', '#/rules/russian', '#/leaderboard']) {
      await page.goto(`${server.url}/${route}`);
      await page.waitForSelector('main[data-route]');
      await page.waitForLoadState('networkidle');
    }
    expect(fetched.filter((u) => /\.wasm$|worker|analysis|review/.test(u))).toEqual([]);
    const wasm = new Promise<string>((res) => page.on('response', (r) => r.url().endsWith('.wasm') && res(r.headers()['content-type'] ?? '')));
    await openAnalysis(page, 'russian');
    expect(await wasm).toBe('application/wasm');
    await context.close();
  });

  it('loads a pasted PDN game (of another variant) and a pasted FEN, and exports the line as PDN', async () => {
    const { context, page } = await newPage(browser);
    await openAnalysis(page, 'international');
    // a Russian game (GameType 25): the board switches variant and shows the final position
    const pdn = '[Event "e2e"]\n[White "A"]\n[Black "B"]\n[GameType "25"]\n\n1. c3-d4 f6-g5 2. g3-h4 g7-f6 3. b2-c3 *\n';
    const dir = mkdtempSync(join(tmpdir(), 'papan-pdn-'));
    const file = join(dir, 'game.pdn');
    writeFileSync(file, pdn);
    const fens = execFileSync(SERVER_BIN, ['pdn', 'convert', file, '--to', 'fen'], { encoding: 'utf8' }).trim().split('\n');
    const finalFen = fens.at(-1) as string;
    await page.fill('[data-test="paste"]', pdn);
    await page.click('[data-test="paste-load"]');
    await page.waitForSelector('[data-test="analysis"][data-variant="russian"]');
    await page.waitForFunction((f) => (document.querySelector('[data-test="board"]') as HTMLElement).dataset['fen'] === f, finalFen);
    expect(await page.$$eval('[data-test="move-tree"] .tree-move', (els) => els.map((e) => e.textContent))).toEqual(['1. c3-d4', 'f6-g5', '2. g3-h4', 'g7-f6', '3. b2-c3']);
    expect(page.url()).toContain('#/analysis/russian');
    await shot(page, 'analysis-pasted-pdn-1280');
    // export: the same moves back as PDN
    const download = page.waitForEvent('download');
    await page.click('[data-test="export-pdn"]');
    const saved = await (await download).path();
    const text = readFileSync(saved as string, 'utf8');
    expect(text).toMatch(/\[GameType "25/);
    expect(text).toMatch(/1\. c3-d4 f6-g5 2\. g3-h4 g7-f6 3\. b2-c3 \*/);
    // a bad PDN says why and keeps the board
    await page.fill('[data-test="paste"]', '[GameType "25"]\n\n1. c3-d4 c3-d4 *');
    await page.click('[data-test="paste-load"]');
    await page.waitForSelector('[data-test="analysis-status"].error');
    expect(await page.textContent('[data-test="analysis-status"]')).toMatch(/illegal|move/i);
    expect(await fenOf(page)).toBe(finalFen);
    // a FEN: a new start
    await page.fill('[data-test="paste"]', 'W:WK32:B5,6');
    await page.click('[data-test="paste-load"]');
    await page.waitForFunction(() => (document.querySelector('[data-test="board"]') as HTMLElement).dataset['fen'] === 'W:WK32:B5,6');
    expect(await page.$('[data-test="move-tree"] .tree-move')).toBeNull();
    await context.close();
    removeData(dir);
  });
});

describe('position editor', () => {
  it('sets up a position, refuses an impossible one, and starts a computer game from it', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/#/`);
    await page.waitForSelector('body[data-conn="open"]');
    await openAnalysis(page, 'international');
    const g = await geometryOf(server, 'international');
    await page.click('[data-test="edit-position"]');
    await page.waitForSelector('[data-test="editor"]');
    await page.click('[data-test="editor-clear"]');
    // a white man on 3 (its crowning row) is impossible
    await page.click('[data-test="tool-white-man"]');
    await clickSquare(page, g, 3);
    await page.click('[data-test="tool-black-man"]');
    await clickSquare(page, g, 20);
    await page.click('[data-test="editor-analyse"]');
    await page.waitForSelector('[data-test="editor-error"]:not([hidden])');
    expect(await page.textContent('[data-test="editor-error"]')).toMatch(/cannot be played: .*white man on 3/i);
    // take it away (tap again), put men and kings of both colours
    await page.click('[data-test="tool-white-man"]');
    await clickSquare(page, g, 3);
    await clickSquare(page, g, 33);
    await clickSquare(page, g, 38);
    await page.click('[data-test="tool-white-king"]');
    await clickSquare(page, g, 46);
    await page.click('[data-test="tool-black-king"]');
    await clickSquare(page, g, 5);
    await page.click('[data-test="turn-black"]');
    expect(await page.textContent('[data-test="editor-fen"]')).toBe('B:W33,38,K46:BK5,20');
    await shot(page, 'analysis-editor-1280');
    // "analyse this position": the board and the engine start from it
    await page.click('[data-test="editor-analyse"]');
    await page.waitForFunction(() => (document.querySelector('[data-test="board"]') as HTMLElement).dataset['fen'] === 'B:W33,38,K46:BK5,20');
    await waitLines(page, 3, 2);
    // and a game against the computer from it: we play Black, the side to move
    await page.click('[data-test="edit-position"]');
    await page.selectOption('[data-test="editor-level"]', 'easy');
    await page.click('[data-test="play-computer"]');
    await page.waitForSelector('[data-test="game"] [data-test="board"] g.piece');
    const id = await page.$eval('[data-test="game"]', (e) => (e as HTMLElement).dataset['game'] ?? '');
    await page.waitForSelector('[data-test="board"][data-orientation="black"][data-movable="black"]');
    const r = await fetch(`${server.url}/api/games/${id}`);
    const game = (await r.json()) as { start_fen: string; mode: string };
    expect(game.mode).toBe('computer');
    expect(game.start_fen).toBe('B:W33,38,K46:BK5,20');
    await shot(page, 'game-from-editor-1280');
    await context.close();
  });
});

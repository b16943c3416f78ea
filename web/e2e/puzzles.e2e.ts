// End-to-end: the puzzle page in Debian's chromium against the real server, which loads the
// shipped set (puzzles/*.jsonl, copied next to the binary). A guest solves a puzzle in three
// variants (International by mouse, Russian on a phone by touch, Turkish served near the rating),
// gets one wrong and reads why, sees the puzzle rating change; the daily puzzle is the same for
// two players; an account takes over the guest's rating when it signs in.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { clickSquare, geometryOf, launch, newPage, partial, REPO, removeData, SERVER_BIN, seriousViolations, shot, startServer, type Server } from './harness';
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

interface Wrong {
  step: number;
  move: string;
  reply: string;
  captured: number;
  crowns: boolean;
  value: number;
}
interface Puzzle {
  id: string;
  variant: string;
  fen: string;
  solution: string[];
  wrong: Wrong[];
}

/** The shipped set of a variant, as the server loaded it. */
function shipped(variant: string): Puzzle[] {
  return readFileSync(join(REPO, 'puzzles', `${variant}.jsonl`), 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Puzzle);
}

const PUZZLE = '[data-test="puzzle"]';

async function puzzleOf(page: Page): Promise<Puzzle> {
  const id = await page.$eval(PUZZLE, (e) => (e as HTMLElement).dataset['puzzleId'] ?? '');
  const r = await fetch(`${server.url}/api/puzzles/${id}`);
  expect(r.status).toBe(200);
  return ((await r.json()) as { puzzle: Puzzle }).puzzle;
}

async function waitPhase(page: Page, phase: string): Promise<void> {
  await page.waitForSelector(`${PUZZLE}[data-phase="${phase}"]`, { timeout: 30_000 });
}

/** The landing path (square numbers) of the legal move `text` in the board's position (`papan moves`). */
async function pathOf(page: Page, variant: string, text: string): Promise<number[]> {
  const fen = await page.$eval('[data-test="board"]', (e) => (e as HTMLElement).dataset['fen'] ?? '');
  const out = JSON.parse(execFileSync(SERVER_BIN, ['moves', '--variant', variant, '--fen', fen, '--json'], { encoding: 'utf8' })) as { moves: { path: number[]; text: string }[] };
  const m = out.moves.find((x) => x.text === text);
  if (!m) throw new Error(`${text} is not a legal move in ${fen}: ${out.moves.map((x) => x.text).join(' ')}`);
  return m.path;
}

/** Plays a move by tapping its squares, as a player would, until the board sends it. */
async function play(page: Page, variant: string, text: string): Promise<void> {
  const g = await geometryOf(server, variant);
  const path = await pathOf(page, variant, text);
  await clickSquare(page, g, path[0] as number);
  for (const sq of path.slice(1)) {
    if ((await partial(page)) === '') break;
    await clickSquare(page, g, sq);
  }
}

/** Plays the whole solution: the solver's moves; the replies come by themselves. */
async function solve(page: Page, p: Puzzle): Promise<void> {
  for (let i = 0; i < p.solution.length; i += 2) {
    await waitPhase(page, 'play');
    await play(page, p.variant, p.solution[i] as string);
  }
  await waitPhase(page, 'solved');
}

const textOf = (page: Page, test: string): Promise<string> => page.$eval(`[data-test="${test}"]`, (e) => e.textContent ?? '');

describe('puzzles', () => {
  it('a guest solves an International puzzle by mouse and its rating moves; a wrong move is shown and explained', async () => {
    const { context, page } = await newPage(browser, 1280, 900);
    await openLobby(page, server.url);
    await page.waitForFunction(() => !!localStorage.getItem('papan.secret'));
    const set = shipped('international');
    const target = set[0] as Puzzle;
    await page.goto(`${server.url}/#/puzzles/international/${target.id}`);
    await waitPhase(page, 'play');
    expect(await textOf(page, 'puzzle-rating')).toBe('Your puzzle rating: 1500');
    expect(await textOf(page, 'puzzle-status')).toMatch(/^Find the best move for (White|Black)\.$/);
    await solve(page, await puzzleOf(page));
    expect(await textOf(page, 'puzzle-status')).toBe('Solved!');
    await page.waitForSelector('[data-test="puzzle-change"]:has-text("Rating +")');
    const after = await textOf(page, 'puzzle-rating');
    expect(after).toMatch(/^Your puzzle rating: \d+$/);
    expect(Number(after.split(': ')[1])).toBeGreaterThan(1500);
    expect(await page.$eval(PUZZLE, (e) => (e as HTMLElement).dataset['rated'])).toBe('true');
    await shot(page, 'puzzle-international-solved');

    // A wrong move: one that lets the opponent capture, from the puzzle's list.
    const bad = set.find((p) => p.id !== target.id && p.wrong.some((w) => w.step === 0 && w.captured >= 2)) as Puzzle;
    const w = bad.wrong.find((x) => x.step === 0 && x.captured >= 2) as Wrong;
    await page.goto(`${server.url}/#/puzzles/international/${bad.id}`);
    await waitPhase(page, 'play');
    const before = Number((await textOf(page, 'puzzle-rating')).split(': ')[1]);
    await play(page, 'international', w.move);
    await waitPhase(page, 'failed');
    const words = ['', 'one', 'two', 'three', 'four', 'five'][w.captured] ?? String(w.captured);
    expect(await textOf(page, 'puzzle-explain')).toContain(`capture ${words}`);
    expect(await textOf(page, 'puzzle-status')).toContain(`Not the move. You played ${w.move}.`);
    // the opponent's answer comes on the board
    await page.waitForFunction((reply) => document.querySelector('[data-test="puzzle-status"]')?.textContent?.includes(`replies ${reply}`), w.reply);
    await page.waitForSelector('[data-test="puzzle-change"]:has-text("Rating -")');
    expect(Number((await textOf(page, 'puzzle-rating')).split(': ')[1])).toBeLessThan(before);
    await shot(page, 'puzzle-international-wrong');
    // Again: not rated a second time.
    await page.click('[data-test="puzzle-retry"]');
    await waitPhase(page, 'play');
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('solves a Russian puzzle by touch on a phone, in Indonesian', async () => {
    const { context, page } = await newPage(browser, 375, 740, 'id-ID');
    const p = shipped('russian')[1] as Puzzle;
    await page.goto(`${server.url}/#/puzzles/russian/${p.id}`);
    await waitPhase(page, 'play');
    expect(await textOf(page, 'puzzle-status')).toMatch(/^Temukan langkah terbaik untuk (Putih|Hitam)\.$/);
    await solve(page, await puzzleOf(page));
    expect(await textOf(page, 'puzzle-status')).toBe('Terpecahkan!');
    await shot(page, 'puzzle-russian-phone');
    await context.close();
  });

  it('serves a Turkish puzzle near the solver’s rating and solves it', async () => {
    const { context, page } = await newPage(browser, 1280, 900);
    await page.goto(`${server.url}/#/puzzles/turkish`);
    await waitPhase(page, 'play');
    const p = await puzzleOf(page);
    expect(p.variant).toBe('turkish');
    const served = (await (await fetch(`${server.url}/api/puzzles/${p.id}`)).json()) as { puzzle: { rating: number } };
    expect(Math.abs(served.puzzle.rating - 1500)).toBeLessThanOrEqual(800);
    await solve(page, p);
    await page.waitForSelector('[data-test="puzzle-change"]:has-text("Rating")');
    await shot(page, 'puzzle-turkish-solved');
    await page.click('[data-test="puzzle-next"]');
    await waitPhase(page, 'play');
    expect((await puzzleOf(page)).id).not.toBe(p.id);
    await context.close();
  });

  it('shows the same daily puzzle to two players', async () => {
    const a = await newPage(browser, 1280, 900);
    const b = await newPage(browser, 375, 740);
    for (const { page } of [a, b]) {
      await page.goto(`${server.url}/#/puzzles/brazilian/daily`);
      await waitPhase(page, 'play');
    }
    const ida = await a.page.$eval(PUZZLE, (e) => (e as HTMLElement).dataset['puzzleId']);
    const idb = await b.page.$eval(PUZZLE, (e) => (e as HTMLElement).dataset['puzzleId']);
    expect(ida).toBeTruthy();
    expect(idb).toBe(ida);
    expect(await textOf(a.page, 'puzzle-explain')).toMatch(/^Puzzle of \d{4}-\d\d-\d\d$/);
    await a.context.close();
    await b.context.close();
  });

  it('hands a guest’s rating to the account it signs up with', async () => {
    const { context, page } = await newPage(browser, 1280, 900);
    await openLobby(page, server.url);
    await page.waitForFunction(() => !!localStorage.getItem('papan.secret'));
    const p = shipped('czech')[0] as Puzzle;
    await page.goto(`${server.url}/#/puzzles/czech/${p.id}`);
    await waitPhase(page, 'play');
    await solve(page, await puzzleOf(page));
    await page.waitForSelector('[data-test="puzzle-change"]:has-text("Rating +")');
    const guestRating = await textOf(page, 'puzzle-rating');
    await openLobby(page, server.url);
    await signUp(page, 'solver1');
    await page.goto(`${server.url}/#/puzzles/czech`);
    await waitPhase(page, 'play');
    expect(await textOf(page, 'puzzle-rating')).toBe(guestRating);
    const token = await page.evaluate(() => localStorage.getItem('papan.token'));
    const h = (await (await fetch(`${server.url}/api/puzzles/history`, { headers: { Authorization: `Bearer ${token ?? ''}` } })).json()) as { attempts: { puzzle: string }[] };
    expect(h.attempts.map((x) => x.puzzle)).toContain(p.id);
    await context.close();
  });
});

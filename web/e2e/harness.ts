// End-to-end harness: starts the real server binary on a free port with a fresh data folder,
// launches Debian's chromium through playwright-core, and offers helpers that act like a player
// (click squares, wait for the turn) and take screenshots into build/e2e/.

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { buildGeometry, squareCell, type Color, type Geometry, type VariantMeta } from '../src/board/geometry';

const here = dirname(fileURLToPath(import.meta.url));
export const REPO = resolve(here, '../..');
export const SERVER_BIN = process.env['PAPAN_BIN'] ?? join(REPO, 'build/release/papan');
export const CHROMIUM = process.env['CHROMIUM'] ?? '/usr/bin/chromium';
export const SHOTS = join(REPO, 'build/e2e');
const WEB_DIST = join(REPO, 'web/dist');

export interface Server {
  url: string;
  port: number;
  data: string;
  proc: ChildProcess;
  stop(): Promise<void>;
}

let serveOptions: string | null = null;
/** Options of `papan serve` this binary knows (test-only ones are used when present). */
function serveHas(option: string): boolean {
  if (serveOptions === null) {
    try {
      serveOptions = execFileSync(SERVER_BIN, ['serve', '--help'], { encoding: 'utf8' });
    } catch {
      serveOptions = '';
    }
  }
  return serveOptions.includes(option);
}

/** Start `papan serve --port PORT --data DATA [extra...]` (port 0: a free one) and wait for its banner. */
export async function startServer(port = 0, data?: string, aiNodes = 20_000, extra: string[] = []): Promise<Server> {
  const dir = data ?? mkdtempSync(join(tmpdir(), 'papan-e2e-'));
  const args = ['serve', '--port', String(port), '--data', dir, '--web', WEB_DIST, '--pairing-wait', '1', ...extra];
  // a small search keeps the computer quick and the run short on a loaded machine
  if (serveHas('--ai-nodes')) args.push('--ai-nodes', String(aiNodes));
  const proc = spawn(SERVER_BIN, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  proc.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  const url = await new Promise<string>((res, rej) => {
    let out = '';
    const timer = setTimeout(() => rej(new Error(`server did not start in 20 s:\n${out}\n${log}`)), 20_000);
    proc.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        res(m[1] as string);
      }
    });
    proc.on('exit', (code) => {
      clearTimeout(timer);
      rej(new Error(`server exited with ${String(code)}:\n${out}\n${log}`));
    });
  });
  const stop = async (): Promise<void> => {
    if (proc.exitCode !== null) return;
    await new Promise<void>((res) => {
      const t = setTimeout(() => {
        proc.kill('SIGKILL');
        res();
      }, 5000);
      proc.once('exit', () => {
        clearTimeout(t);
        res();
      });
      proc.kill('SIGTERM');
    });
  };
  return { url, port: Number(new URL(url).port), data: dir, proc, stop };
}

export function removeData(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Chromium with a fresh profile (playwright makes a new temporary user-data dir per launch). */
export async function launch(): Promise<{ browser: Browser }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return { browser };
}

const touchPages = new WeakSet<Page>();

/** A page in a new context (own storage: a different player). Narrow pages use touch taps. */
export async function newPage(browser: Browser, width = 1280, height = 800, locale = 'en-US'): Promise<{ context: BrowserContext; page: Page }> {
  const touch = width < 500;
  const context = await browser.newContext({ viewport: { width, height }, locale, deviceScaleFactor: 1, hasTouch: touch, isMobile: false });
  const page = await context.newPage();
  if (touch) touchPages.add(page);
  page.on('pageerror', (e) => console.error(`[page error] ${e.message}`));
  return { context, page };
}

export async function shot(page: Page, name: string): Promise<string> {
  mkdirSync(SHOTS, { recursive: true });
  const path = join(SHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

const variantCache = new Map<string, Geometry>();
export async function geometryOf(server: Server, key: string): Promise<Geometry> {
  const k = `${server.url}|${key}`;
  const cached = variantCache.get(k);
  if (cached) return cached;
  const r = await fetch(`${server.url}/api/variants`);
  const body = (await r.json()) as { variants: VariantMeta[] };
  for (const v of body.variants) variantCache.set(`${server.url}|${v.key}`, buildGeometry(v));
  const g = variantCache.get(k);
  if (!g) throw new Error(`no variant ${key}`);
  return g;
}

const BOARD = '[data-test="board"]';

/** Tap square n of the game board, where the player sees it (orientation included). */
export async function clickSquare(page: Page, g: Geometry, n: number): Promise<void> {
  const box = await page.$eval(`${BOARD} svg`, (svg) => {
    const r = svg.getBoundingClientRect();
    const host = svg.parentElement as HTMLElement;
    return { x: r.x, y: r.y, w: r.width, h: r.height, orientation: host.dataset['orientation'] ?? 'white' };
  });
  const { col, row } = squareCell(g, n, box.orientation as Color);
  const x = box.x + ((col + 0.5) * box.w) / g.size;
  const y = box.y + ((row + 0.5) * box.h) / g.size;
  if (touchPages.has(page)) await page.touchscreen.tap(x, y);
  else await page.mouse.click(x, y);
}

/** The page point at the centre of square n. */
export async function squarePoint(page: Page, g: Geometry, n: number): Promise<{ x: number; y: number }> {
  const box = await page.$eval(`${BOARD} svg`, (svg) => {
    const r = svg.getBoundingClientRect();
    const host = svg.parentElement as HTMLElement;
    return { x: r.x, y: r.y, w: r.width, h: r.height, orientation: host.dataset['orientation'] ?? 'white' };
  });
  const { col, row } = squareCell(g, n, box.orientation as Color);
  return { x: box.x + ((col + 0.5) * box.w) / g.size, y: box.y + ((row + 0.5) * box.h) / g.size };
}

/** Drag a piece from one square and drop it on another (mouse). */
export async function dragPiece(page: Page, g: Geometry, from: number, pickTarget: (targets: number[]) => number): Promise<number> {
  const a = await squarePoint(page, g, from);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  const to = pickTarget(await targets(page));
  const b = await squarePoint(page, g, to);
  await page.mouse.move(b.x, b.y, { steps: 8 });
  await page.mouse.up();
  return to;
}

/** Wait until `side` may move (and nothing is pending), or the game is over. true: may move. */
export async function waitTurn(page: Page, side: Color, timeout = 60_000): Promise<boolean> {
  await page.waitForSelector(`${BOARD}[data-movable="${side}"][data-pending="0"], [data-test="result"]`, { timeout });
  return (await page.$('[data-test="result"]')) === null;
}

export async function movablePieces(page: Page): Promise<number[]> {
  await page.waitForSelector(`${BOARD} g.piece.movable`, { timeout: 10_000 });
  return page.$$eval(`${BOARD} g.piece.movable`, (els) => els.map((e) => Number((e as SVGElement).dataset['square'])));
}

export async function targets(page: Page): Promise<number[]> {
  // The board renders in requestAnimationFrame batches: let the pending frame run first, or the
  // targets of the previous step may still be on screen.
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
  await page.waitForSelector(`${BOARD} circle.target`, { timeout: 10_000 });
  return page.$$eval(`${BOARD} circle.target`, (els) => els.map((e) => Number(e.getAttribute('data-target'))).sort((a, b) => a - b));
}

export async function partial(page: Page): Promise<string> {
  return page.$eval(BOARD, (e) => (e as HTMLElement).dataset['partial'] ?? '');
}

/** A small deterministic random source, so a failing e2e run can be replayed. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * Play one move by clicks: a piece that can move, then a marked square at each stop, until the
 * board sends the move. Returns the squares clicked.
 */
export async function playAnyMove(page: Page, g: Geometry, rand: () => number): Promise<number[]> {
  const pieces = await movablePieces(page);
  const from = pieces[Math.floor(rand() * pieces.length)] as number;
  const clicked = [from];
  await clickSquare(page, g, from);
  // fewer clicks (on by default): a piece with one legal move plays it at once
  if ((await partial(page)) === '') return clicked;
  for (let i = 0; i < 20; i++) {
    const ts = await targets(page);
    const to = ts[Math.floor(rand() * ts.length)] as number;
    clicked.push(to);
    await clickSquare(page, g, to);
    if ((await partial(page)) === '') return clicked;
  }
  throw new Error(`the move from ${from} never completed: ${clicked.join('-')}`);
}

export async function moveCount(page: Page): Promise<number> {
  return page.$$eval('[data-test="move-list"] .mv', (els) => els.filter((e) => (e.textContent ?? '').trim() !== '' && e.textContent !== '…').length);
}

export function haveServerAndBrowser(): boolean {
  return existsSync(SERVER_BIN) && existsSync(CHROMIUM);
}

/** axe-core's violations of `impact` serious or critical on the page as it is now. */
export async function seriousViolations(page: Page): Promise<{ id: string; impact: string; help: string; nodes: string[] }[]> {
  const axePath = join(REPO, 'web/node_modules/axe-core/axe.min.js');
  // Evaluated through the DevTools protocol, not added as a <script> tag: the server's
  // Content-Security-Policy (script-src 'self') rightly blocks an inline script
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(readFileSync(axePath, 'utf8'));
  const result = (await page.evaluate(async () => {
    const w = window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[] }> } };
    return w.axe.run(document, { resultTypes: ['violations'] });
  })) as { violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[] };
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact ?? '', help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
}

/** Open a friend link; a guest picks the nickname (the saved one unless `name`) and joins. */
export async function joinByLink(page: Page, link: string, name?: string): Promise<void> {
  await page.goto(link);
  await page.waitForSelector('[data-test="join-form"], [data-test="game"] [data-test="board"] g.piece');
  if (await page.$('[data-test="join-form"]')) {
    if (name !== undefined) await page.fill('[data-test="join-nickname"]', name);
    await page.click('[data-test="join"]');
  }
  await page.waitForSelector('[data-test="game"] [data-test="board"] g.piece');
}

// End-to-end: a real server, Debian's chromium, and a player who only clicks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  clickSquare,
  dragPiece,
  joinByLink,
  geometryOf,
  launch,
  moveCount,
  newPage,
  partial,
  playAnyMove,
  removeData,
  rng,
  shot,
  startServer,
  targets,
  waitTurn,
  type Server,
} from './harness';
import { openLobby, startGame } from './lobby';

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

describe('against the computer', () => {
  it('plays a whole game by clicking', async () => {
    const { context, page } = await newPage(browser);
    await openLobby(page, server.url);
    await page.fill('[data-test="nickname"]', 'Clicker');
    await startGame(page, { variant: 'russian', mode: 'computer', level: 'easy', color: 'white' });
    const g = await geometryOf(server, 'russian');
    const rand = rng(7);
    let moves = 0;
    for (; moves < 400; moves++) {
      if (!(await waitTurn(page, 'white'))) break;
      await playAnyMove(page, g, rand);
      if (moves === 3) await shot(page, 'computer-game-1280-midgame');
    }
    await page.waitForSelector('[data-test="result"]', { timeout: 30_000 });
    const outcome = await page.$eval('[data-test="result"]', (e) => (e as HTMLElement).dataset['outcome']);
    expect(['white_wins', 'black_wins', 'draw']).toContain(outcome);
    expect(moves).toBeGreaterThan(3);
    expect(await page.$('[data-test="rematch"]')).not.toBeNull();
    expect(await page.$('[data-test="pdn"]')).not.toBeNull();
    const pdn = await page.$eval('[data-test="pdn"]', (a) => (a as HTMLAnchorElement).href);
    const r = await fetch(pdn);
    expect(r.status).toBe(200);
    expect(await r.text()).toMatch(/\[Result "/);
    await shot(page, 'computer-game-1280-result');
    // rematch: a new game at once, colours swapped
    const first = await page.$eval('[data-test="game"]', (e) => (e as HTMLElement).dataset['game']);
    await page.click('[data-test="rematch"]');
    await page.waitForFunction((id) => {
      const el = document.querySelector('[data-test="game"]') as HTMLElement | null;
      return !!el && el.dataset['game'] !== id && !!el.querySelector('g.piece');
    }, first);
    await page.waitForSelector('[data-test="board"][data-orientation="black"]');
    expect(await moveCount(page)).toBeLessThanOrEqual(1);
    await context.close();
  });
});

describe('with a friend by link', () => {
  it('two browsers play, including a multi-capture chosen square by square', async () => {
    // Russian, White to move: 32 captures 27 landing on 23, then 18 (landing 14) or 19 (landing 16),
    // then from 14 either 9 (landing 5) or 10 (landing 7).
    const fen = 'W:W32:B27,28,18,19,9,10';
    const a = await newPage(browser);
    await openLobby(a.page, server.url);
    await a.page.fill('[data-test="nickname"]', 'Ana');
    await startGame(a.page, { variant: 'russian', mode: 'friend', color: 'white', fen, tc: 'default' });
    await a.page.waitForSelector('[data-test="friend-link"]');
    const link = await a.page.$eval('[data-test="friend-link"]', (e) => (e as HTMLInputElement).value);
    expect(link).toContain('#join=');
    await shot(a.page, 'friend-waiting-1280');

    const b = await newPage(browser, 375, 740);
    await b.page.goto(server.url + '/#/');
    await b.page.waitForSelector('[data-test="lobby"]');
    await b.page.fill('[data-test="nickname"]', 'Budi');
    await b.page.dispatchEvent('[data-test="nickname"]', 'change');
    await joinByLink(b.page, link);
    // Budi plays Black: his board is flipped
    await b.page.waitForSelector('[data-test="board"][data-orientation="black"]');

    const g = await geometryOf(server, 'russian');
    expect(await waitTurn(a.page, 'white')).toBe(true);
    // each side's first move is not timed: no clock runs yet, and the page says so
    await a.page.waitForSelector('[data-test="clock-white"]:not(:empty)');
    expect(await a.page.$('[data-test="game"] .clock.running')).toBeNull();
    expect(await a.page.textContent('[data-test="clock-start-note"]')).toBe('Your clock starts with your first move.');
    // the capturing piece is ringed
    expect(await a.page.$$eval('[data-test="board"] g.piece.must', (els) => els.map((e) => (e as SVGElement).dataset['square']))).toEqual(['32']);
    await clickSquare(a.page, g, 32);
    expect(await targets(a.page)).toEqual([23]);
    await clickSquare(a.page, g, 23);
    expect(await partial(a.page)).toBe('32-23');
    expect(await targets(a.page)).toEqual([14, 16]);
    await shot(a.page, 'friend-multicapture-step1-1280');
    await clickSquare(a.page, g, 14);
    expect(await partial(a.page)).toBe('32-23-14');
    expect(await targets(a.page)).toEqual([5, 7]);
    await shot(a.page, 'friend-multicapture-step2-1280');
    await clickSquare(a.page, g, 7);
    expect(await partial(a.page)).toBe('');

    // Budi sees the capture: the white man on 7, 27, 18 and 10 gone
    await b.page.waitForSelector('[data-test="board"] g.piece[data-square="7"][data-color="white"]');
    for (const sq of [27, 18, 10, 32]) {
      expect(await b.page.$(`[data-test="board"] g.piece[data-square="${sq}"]`)).toBeNull();
    }
    expect(await waitTurn(b.page, 'black')).toBe(true);
    await shot(b.page, 'friend-black-375');
    await playAnyMove(b.page, g, rng(3));
    expect(await waitTurn(a.page, 'white')).toBe(true);
    expect(await moveCount(a.page)).toBe(2);
    // both have moved: White's clock runs, and the note is gone
    await a.page.waitForSelector('[data-test="clock-white"].running');
    expect(await a.page.isVisible('[data-test="clock-start-note"]')).toBe(false);
    // a draw offer reaches the other side, who declines it
    await a.page.click('[data-test="draw-offer"]');
    await b.page.waitForSelector('[data-test="draw-accept"]');
    await b.page.click('[data-test="draw-decline"]');
    await a.page.waitForSelector('[data-test="draw-offer"]');
    // Ana resigns: both see the result
    await a.page.click('[data-test="resign"]');
    await a.page.click('[data-test="resign"]');
    await b.page.waitForSelector('[data-test="result"][data-outcome="black_wins"][data-reason="resignation"]');
    await a.page.waitForSelector('[data-test="result"][data-outcome="black_wins"]');
    await shot(b.page, 'friend-result-375');
    await a.context.close();
    await b.context.close();
  });
});

describe('random opponent and accounts', () => {
  it('pairs a random opponent (the computer when nobody waits) with a clock', async () => {
    const { context, page } = await newPage(browser);
    await openLobby(page, server.url);
    await startGame(page, { variant: 'brazilian', mode: 'random' });
    await page.waitForSelector('[data-test="clock-white"]:not(:empty)');
    const names = await page.$$eval('.player .name', (els) => els.map((e) => e.textContent ?? ''));
    expect(names.every((n) => n !== '' && !n.startsWith('Computer'))).toBe(true);
    // nobody else waits here: the opponent is the computer, keeps its name and says what it is
    expect(await page.textContent('[data-test^="computer-badge-"]')).toContain('normal');
    await shot(page, 'random-opponent-1280');
    await context.close();
  });

  it('signs up, shows the account and the leaderboard', async () => {
    const { context, page } = await newPage(browser, 375, 740);
    await openLobby(page, server.url);
    await page.fill('[data-test="username"]', 'e2e_ann');
    await page.fill('[data-test="password"]', 'correct horse');
    await page.click('[data-test="sign-up"]');
    await page.waitForSelector('[data-test="signed-in"]');
    expect(await page.textContent('[data-test="signed-in"]')).toContain('e2e_ann');
    await page.waitForSelector('body[data-conn="open"]');
    await page.goto(`${server.url}/#/leaderboard/international`);
    await page.waitForSelector('[data-test="leaderboard"] table, [data-test="leaderboard"] p.muted');
    await shot(page, 'leaderboard-375');
    await context.close();
  });
});

describe('two players on one device', () => {
  it('plays both sides from White\'s side', async () => {
    const { context, page } = await newPage(browser);
    await openLobby(page, server.url);
    await startGame(page, { variant: 'international', mode: 'hotseat' });
    const g = await geometryOf(server, 'international');
    const rand = rng(11);
    // the first move by drag and drop: 32 onto 28
    expect(await waitTurn(page, 'white')).toBe(true);
    expect(await dragPiece(page, g, 32, (ts) => (ts.includes(28) ? 28 : (ts[0] as number)))).toBe(28);
    await page.waitForSelector('[data-test="board"] g.piece[data-square="28"][data-color="white"]');
    for (let i = 1; i < 6; i++) {
      const side = i % 2 === 0 ? 'white' : 'black';
      expect(await waitTurn(page, side)).toBe(true);
      expect(await page.$eval('[data-test="board"]', (e) => (e as HTMLElement).dataset['orientation'])).toBe('white');
      await playAnyMove(page, g, rand);
    }
    await waitTurn(page, 'white');
    expect(await moveCount(page)).toBe(6);
    await shot(page, 'hotseat-international-1280');
    await context.close();
  });
});

describe('move-limit counter', () => {
  it('shows the moves left before an endgame draw under the board', async () => {
    const { context, page } = await newPage(browser);
    await openLobby(page, server.url);
    // International: one king against a king and a man: a draw after 5 more moves each
    await startGame(page, { variant: 'international', mode: 'hotseat', fen: 'W:WK46:BK5,10' });
    await page.waitForSelector('[data-test="move-limit"]:not([hidden])');
    expect(await page.textContent('[data-test="move-limit"]')).toMatch(/^\d+ moves left before a draw/);
    await shot(page, 'move-limit-1280');
    await context.close();
  });
});

describe('resilience', () => {
  it('continues after a reload in the middle of a game', async () => {
    const { context, page } = await newPage(browser);
    await openLobby(page, server.url);
    const id = await startGame(page, { variant: 'american', mode: 'computer', level: 'easy', color: 'black' });
    const g = await geometryOf(server, 'american');
    const rand = rng(5);
    // American: Black moves first; we play Black, so the board is flipped
    await page.waitForSelector('[data-test="board"][data-orientation="black"]');
    for (let i = 0; i < 2; i++) {
      expect(await waitTurn(page, 'black')).toBe(true);
      await playAnyMove(page, g, rand);
    }
    expect(await waitTurn(page, 'black')).toBe(true);
    const before = await page.$eval('[data-test="move-list"]', (e) => e.textContent);
    await page.reload();
    await page.waitForSelector(`[data-test="game"][data-game="${id}"] [data-test="board"] g.piece`);
    expect(await waitTurn(page, 'black')).toBe(true);
    expect(await page.$eval('[data-test="move-list"]', (e) => e.textContent)).toBe(before);
    await playAnyMove(page, g, rand);
    expect(await waitTurn(page, 'black')).toBe(true);
    expect(await moveCount(page)).toBe(6);
    await shot(page, 'reload-continued-1280');
    // undo takes back the computer's reply and our move
    await page.click('[data-test="undo"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-test="move-list"] .mv').length > 0 &&
      [...document.querySelectorAll('[data-test="move-list"] .mv')].filter((e) => (e.textContent ?? '').trim() !== '' && e.textContent !== '…').length === 4);
    expect(await waitTurn(page, 'black')).toBe(true);
    // the lobby lists the unfinished game; its link leads back to it
    await page.click('[data-test="nav-play"]');
    await page.click(`[data-test="my-game"][href="#/game/${id}"]`);
    await page.waitForSelector(`[data-test="game"][data-game="${id}"] [data-test="board"] g.piece`);
    expect(await waitTurn(page, 'black')).toBe(true);
    await context.close();
  });

  it('shows a lost connection and resumes when the server is back', async () => {
    const own = await startServer();
    const { context, page } = await newPage(browser);
    try {
      await openLobby(page, own.url);
      await startGame(page, { variant: 'czech', mode: 'hotseat' });
      const g = await geometryOf(own, 'czech');
      expect(await waitTurn(page, 'white')).toBe(true);
      await playAnyMove(page, g, rng(1));
      expect(await waitTurn(page, 'black')).toBe(true);
      await own.stop();
      await page.waitForSelector('[data-test="conn-banner"]:not([hidden])', { timeout: 15_000 });
      await shot(page, 'connection-lost-1280');
      const back = await startServer(own.port, own.data);
      try {
        await page.waitForSelector('body[data-conn="open"]', { timeout: 20_000 });
        expect(await waitTurn(page, 'black')).toBe(true);
        await playAnyMove(page, g, rng(2));
        expect(await waitTurn(page, 'white')).toBe(true);
        expect(await moveCount(page)).toBe(2);
      } finally {
        await back.stop();
      }
    } finally {
      await context.close();
      await own.stop();
      removeData(own.data);
    }
  });
});

describe('looks and language', () => {
  it('switches the board look and the language, and remembers both', async () => {
    const { context, page } = await newPage(browser);
    await openLobby(page, server.url);
    await startGame(page, { variant: 'thai', mode: 'hotseat' });
    await page.waitForSelector('[data-test="board"].look-classic');
    await page.click('[data-test="look-candy"]');
    await page.waitForSelector('[data-test="board"].look-candy');
    await page.check('[data-test="numbers"]');
    await page.waitForSelector('[data-test="board"] text.label.number');
    await shot(page, 'look-candy-1280');
    await page.click('[data-test="lang-id"]');
    expect(await page.textContent('[data-test="nav-play"]')).toBe('Main');
    expect(await page.textContent('[data-test="new-game"]')).toBe('Permainan baru');
    await page.reload();
    await page.waitForSelector('[data-test="board"].look-candy');
    expect(await page.textContent('[data-test="nav-rules"]')).toBe('Aturan');
    expect(await page.$('[data-test="board"] text.label.number')).not.toBeNull();
    await shot(page, 'look-candy-indonesian-1280');
    await page.click('[data-test="look-classic"]');
    await page.click('[data-test="lang-en"]');
    await page.waitForSelector('[data-test="board"].look-classic');
    expect(await page.textContent('[data-test="nav-play"]')).toBe('Play');
    await context.close();
  });

  it('picks Indonesian from the browser language', async () => {
    const { context, page } = await newPage(browser, 1280, 800, 'id-ID');
    await openLobby(page, server.url);
    expect(await page.textContent('[data-test="start"]')).toBe('Mulai permainan');
    await context.close();
  });
});

describe('phone and computer widths', () => {
  for (const [w, h] of [
    [375, 740],
    [1280, 800],
  ] as const) {
    it(`is usable at ${w} px`, async () => {
      const { context, page } = await newPage(browser, w, h);
      const noOverflow = async (): Promise<void> => {
        const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(over).toBeLessThanOrEqual(1);
      };
      await openLobby(page, server.url);
      await noOverflow();
      await shot(page, `lobby-${w}`);
      await startGame(page, { variant: 'international', mode: 'computer', level: 'easy', color: 'white' });
      const g = await geometryOf(server, 'international');
      const box = await page.$eval('[data-test="board"] svg', (s) => s.getBoundingClientRect().width);
      expect(box).toBeGreaterThan(w < 500 ? 320 : 500);
      await noOverflow();
      expect(await waitTurn(page, 'white')).toBe(true);
      await playAnyMove(page, g, rng(w));
      expect(await waitTurn(page, 'white')).toBe(true);
      await shot(page, `game-international-${w}`);
      for (const v of ['turkish', 'italian']) {
        await page.goto(`${server.url}/#/rules/${v}`);
        await page.waitForSelector(`[data-test="rules"][data-variant="${v}"] [data-test="rules-diagram"] g.piece`);
        await noOverflow();
        await shot(page, `rules-${v}-${w}`);
      }
      await context.close();
    });
  }

  it('has a rules page with a start diagram for every variant', async () => {
    const { context, page } = await newPage(browser);
    const r = await fetch(`${server.url}/api/variants`);
    const { variants } = (await r.json()) as { variants: { key: string; start_fen: string; board: { squares: number } }[] };
    expect(variants).toHaveLength(10);
    for (const v of variants) {
      await page.goto(`${server.url}/#/rules/${v.key}`);
      await page.waitForSelector(`[data-test="rules"][data-variant="${v.key}"] [data-test="rules-diagram"] g.piece`);
      const pieces = await page.$$eval('[data-test="rules-diagram"] g.piece', (els) => els.length);
      const expected = { american: 24, international: 40, brazilian: 24, russian: 24, pool: 24, spanish: 24, italian: 24, czech: 24, thai: 16, turkish: 32 }[v.key];
      expect(pieces).toBe(expected);
      expect(await page.$$eval('[data-test="rules"] .rules-text li', (els) => els.length)).toBeGreaterThan(3);
    }
    // "Play" on a rules page opens the lobby with that variant chosen
    await page.click('[data-test="play-variant"]');
    await page.waitForSelector('[data-test="lobby"] [data-test="variant"]');
    expect(await page.$eval('[data-test="variant"]', (e) => (e as HTMLSelectElement).value)).toBe(variants[variants.length - 1]?.key);
    await context.close();
  });
});

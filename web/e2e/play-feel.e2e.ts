// End-to-end tests of play that feels like a real site (honest opponents, feedback, rules explained
// in play, fewer clicks, an accessible board, play between people, layout and words, ratings in
// sight), one describe per concern, each with screenshots at 375 and 1280 px in build/e2e/
// (play-feel-*). Real server, Debian's chromium.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { format } from '../src/i18n';
import { join } from 'node:path';
import { clickSquare, geometryOf, joinByLink, launch, moveCount, newPage, partial, playAnyMove, removeData, rng, seriousViolations, shot, SHOTS, startServer, targets, waitTurn, type Server } from './harness';
import { openLobby, setHidden, signUp, startGame } from './lobby';

let server: Server;
let browser: Browser;

beforeAll(async () => {
  // a tiny search keeps the computer quick (strength does not matter here); the 400 ms pacing itself is
  // unit-tested with a fake clock (src/ui/pacer.test.ts): a loaded machine's server is slower than that
  server = await startServer(0, undefined, 50);
  browser = (await launch()).browser;
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (server) removeData(server.data);
});

/** Screenshots of the page as it is at 375 x 667 and at 1280 x 800, then back to `back`. */
async function shots(page: Page, name: string, back = { width: 1280, height: 800 }): Promise<void> {
  for (const [w, h] of [
    [375, 667],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
    await shot(page, `play-feel-${name}-${w}`);
  }
  await page.setViewportSize(back);
}

const text = async (page: Page, sel: string): Promise<string> => ((await page.textContent(sel)) ?? '').trim();
const LONG_NAME = 'W'.repeat(24);

/**
 * The opponent's offer on a 375 x 667 phone: the prompt and its answer button `answer` lie inside
 * the screen at the top of the page and scrolled to its end (no scrolling needed to see it), the
 * button takes focus, the prompt is a labelled group, the live region said `words`, and axe finds
 * nothing serious; then a screenshot of the screen as the player sees it.
 */
async function offerInSight(page: Page, answer: string, words: string, name: string): Promise<void> {
  const inScreen = async (sel: string): Promise<void> => {
    const box = await page.$eval(sel, (e) => e.getBoundingClientRect().toJSON() as DOMRect);
    expect(box.width).toBeGreaterThan(0);
    expect(box.top).toBeGreaterThanOrEqual(0);
    expect(box.left).toBeGreaterThanOrEqual(0);
    expect(box.bottom).toBeLessThanOrEqual(667);
    expect(box.right).toBeLessThanOrEqual(375);
  };
  const prompt = '[data-test="offer-prompt"]';
  const button = `${prompt} [data-test="${answer}"]`;
  for (const y of [0, 100_000]) {
    await page.evaluate((to) => window.scrollTo(0, to), y);
    await inScreen(prompt);
    await inScreen(button);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  expect(await page.getAttribute(prompt, 'role')).toBe('group');
  expect(await page.getAttribute(prompt, 'aria-label')).toBe('Your opponent asks');
  await page.focus(button);
  expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset['test'])).toBe(answer);
  expect(await text(page, '[data-test="announce"]')).toContain(words);
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: join(SHOTS, `play-feel-${name}-375.png`) });
}

describe('honest opponents: random pairing that gives the computer', () => {
  it('says no one was waiting and names the computer\'s level, in English and Indonesian, and the rules index explains it', async () => {
    const { context, page } = await newPage(browser);
    await openLobby(page, server.url);
    // nobody else seeks in this run: after the pairing wait the computer is paired
    await startGame(page, { variant: 'russian', mode: 'random' });
    await page.waitForSelector('[data-test="pairing-note"]:not([hidden])');
    expect(await text(page, '[data-test="pairing-note"]')).toBe('No one was waiting: you play the computer (normal)');
    expect(await page.isVisible('[data-test="pairing-note"]')).toBe(true);
    expect(await text(page, '[data-test="rated-badge"]')).toBe('Casual');
    expect(await page.textContent('[data-test^="computer-badge-"]')).toContain('normal');
    await shots(page, 'random-computer');
    // on a phone the line is in the first screen, above the board
    await page.setViewportSize({ width: 375, height: 667 });
    const box = await page.$eval('[data-test="pairing-note"]', (e) => e.getBoundingClientRect().toJSON() as DOMRect);
    expect(box.top).toBeGreaterThanOrEqual(0);
    expect(box.bottom).toBeLessThanOrEqual(667);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.click('[data-test="lang-id"]');
    await page.waitForSelector('[data-test="pairing-note"]:not([hidden])');
    expect(await text(page, '[data-test="pairing-note"]')).toBe('Tidak ada yang menunggu: kamu melawan komputer (sedang)');
    await shots(page, 'random-computer-id');
    // the rules index answers who a random opponent is, in both languages
    await page.goto(`${server.url}/#/rules`);
    await page.waitForSelector('[data-test="faq"]');
    expect(await text(page, '[data-test="faq"]')).toContain('pemasangan acak memberimu lawan komputer');
    await page.click('[data-test="lang-en"]');
    await page.waitForSelector('[data-test="faq"]');
    const faq = await text(page, '[data-test="faq"]');
    expect(faq).toContain('When no one is waiting, random pairing gives you a computer opponent');
    expect(faq).toContain('marked as the computer, with its level, and such a game is never rated');
    await shots(page, 'rules-faq');
    // a game the player chose against the computer has no such line
    await openLobby(page, server.url);
    await startGame(page, { variant: 'russian', mode: 'computer', level: 'easy', color: 'white' });
    await page.waitForSelector('[data-test="computer-badge-black"]');
    expect(await page.isVisible('[data-test="pairing-note"]')).toBe(false);
    await context.close();
  });
});

describe('feedback: sounds, the tab, the computer\'s reply', () => {
  it('plays sounds, remembers the mute, marks the hidden tab, and shows the reply after 400 ms with an animation', async () => {
    const { context, page } = await newPage(browser);
    await openLobby(page, server.url);
    await startGame(page, { variant: 'russian', mode: 'computer', level: 'easy', color: 'white' });
    const g = await geometryOf(server, 'russian');
    expect(await waitTurn(page, 'white')).toBe(true);
    await page.evaluate(() => {
      const w = window as unknown as { probe: { click: number; reply: number; animated: boolean } };
      w.probe = { click: 0, reply: 0, animated: false };
      document.addEventListener('pointerdown', () => (w.probe.click = performance.now()), true);
      const count = (): number => [...document.querySelectorAll('[data-test="move-list"] .mv')].filter((e) => (e.textContent ?? '').trim() !== '' && e.textContent !== '…').length;
      new MutationObserver(() => {
        if (count() >= 2 && !w.probe.reply) w.probe.reply = performance.now();
      }).observe(document.querySelector('[data-test="move-list"]') as Element, { childList: true, subtree: true, characterData: true });
      new MutationObserver(() => {
        if ((document.querySelector('[data-test="board"] svg') as SVGElement).dataset['animating']) w.probe.animated = true;
      }).observe(document.querySelector('[data-test="board"] svg') as Element, { attributes: true });
    });
    const title = await page.title();
    await setHidden(page, true);
    await playAnyMove(page, g, rng(3));
    expect(await waitTurn(page, 'white')).toBe(true);
    const probe = await page.evaluate(() => (window as unknown as { probe: { click: number; reply: number; animated: boolean } }).probe);
    expect(probe.reply - probe.click).toBeGreaterThanOrEqual(400);
    expect(probe.animated).toBe(true);
    // both moves were heard
    expect(Number(await page.$eval('body', (b) => b.dataset['sounds'] ?? '0'))).toBeGreaterThanOrEqual(2);
    expect(['move', 'capture', 'promotion']).toContain(await page.$eval('body', (b) => b.dataset['sound']));
    // the hidden tab says it is the player's turn, in its title and its icon
    expect(await page.title()).toBe(`● Your turn · ${title}`);
    expect(await page.$eval('link[rel="icon"]', (l) => (l as HTMLLinkElement).dataset['alert'])).toBe('1');
    await setHidden(page, false);
    expect(await page.title()).toBe(title);
    expect(await page.$eval('link[rel="icon"]', (l) => (l as HTMLLinkElement).dataset['alert'])).toBe('0');
    await shots(page, 'feedback');
    // mute: no sound, and still muted after a reload
    await page.uncheck('[data-test="sounds"]');
    const heard = await page.$eval('body', (b) => b.dataset['sounds'] ?? '0');
    await playAnyMove(page, g, rng(4));
    expect(await waitTurn(page, 'white')).toBe(true);
    expect(await page.$eval('body', (b) => b.dataset['sounds'] ?? '0')).toBe(heard);
    await page.reload();
    await page.waitForSelector('[data-test="board"] g.piece');
    expect(await page.isChecked('[data-test="sounds"]')).toBe(false);
    await context.close();
  });
});

describe('rules explained in play', () => {
  it('says why a clicked piece cannot move, in English and Indonesian, and names the draw rule', async () => {
    const { context, page } = await newPage(browser);
    await openLobby(page, server.url);
    // Russian: 32 must capture (three routes, the longest takes 3); 21 could step but may not
    await startGame(page, { variant: 'russian', mode: 'hotseat', fen: 'W:W32,21:B27,28,18,19,9,10' });
    const g = await geometryOf(server, 'russian');
    expect(await waitTurn(page, 'white')).toBe(true);
    await clickSquare(page, g, 21);
    await page.waitForSelector('[data-test="hint"]:not([hidden])');
    expect(await text(page, '[data-test="hint"]')).toBe('You must capture: the ringed piece can take 3');
    expect(await text(page, '[data-test="announce"]')).toBe('You must capture: the ringed piece can take 3');
    await clickSquare(page, g, 9);
    expect(await text(page, '[data-test="hint"]')).toBe("That is your opponent's piece.");
    await shots(page, 'explain');
    await page.click('[data-test="lang-id"]');
    await page.waitForSelector('[data-test="board"] g.piece');
    await clickSquare(page, g, 21);
    expect(await text(page, '[data-test="hint"]')).toBe('Wajib makan: bidak bercincin bisa memakan 3');
    await page.click('[data-test="lang-en"]');
    // the draw counter names its rule in the player's language
    await openLobby(page, server.url);
    await startGame(page, { variant: 'international', mode: 'hotseat', fen: 'W:WK46:BK5,10' });
    await page.waitForSelector('[data-test="move-limit"]:not([hidden])');
    const rule = await page.$eval('[data-test="move-limit"]', (e) => (e as HTMLElement).dataset['rule'] ?? '');
    const name = format('en', `limit_${rule}` as 'limit_king_vs_two');
    expect(name).not.toBe(`limit_${rule}`);
    expect(await text(page, '[data-test="move-limit"]')).toMatch(new RegExp(`^\\d+ moves left before a draw \\(${name}\\)$`));
    await page.click('[data-test="lang-id"]');
    await page.waitForSelector('[data-test="move-limit"]:not([hidden])');
    expect(await text(page, '[data-test="move-limit"]')).toContain(format('id', `limit_${rule}` as 'limit_king_vs_two'));
    await shots(page, 'draw-rule');
    await context.close();
  });
});

describe('fewer clicks', () => {
  it('plays a single move at once, a capture by its landing square, and not when turned off', async () => {
    const { context, page } = await newPage(browser);
    await openLobby(page, server.url);
    await startGame(page, { variant: 'russian', mode: 'hotseat' });
    const g = await geometryOf(server, 'russian');
    expect(await waitTurn(page, 'white')).toBe(true);
    await clickSquare(page, g, 21); // a3: its only move is a3-b4
    await page.waitForSelector('[data-test="board"] g.piece[data-square="17"][data-color="white"]');
    expect(await waitTurn(page, 'black')).toBe(true);
    expect(await moveCount(page)).toBe(1);
    await openLobby(page, server.url);
    await startGame(page, { variant: 'russian', mode: 'hotseat', fen: 'W:W32:B27,28,18,19,9,10' });
    expect(await waitTurn(page, 'white')).toBe(true);
    await clickSquare(page, g, 16); // the only route ending on 16: g1:g5
    await page.waitForSelector('[data-test="board"] g.piece[data-square="16"][data-color="white"]');
    for (const sq of [27, 19, 32]) expect(await page.$(`[data-test="board"] g.piece[data-square="${sq}"]`)).toBeNull();
    expect(await page.$eval('body', (b) => b.dataset['sound'])).toBe('capture');
    await shots(page, 'fewer-clicks');
    // a7 has one move, to b8, where it is crowned: one click, and the crowning is heard
    await openLobby(page, server.url);
    await startGame(page, { variant: 'russian', mode: 'hotseat', fen: 'W:W5:B12' });
    expect(await waitTurn(page, 'white')).toBe(true);
    await clickSquare(page, g, 5);
    await page.waitForSelector('[data-test="board"] g.piece.king[data-square="1"][data-color="white"]');
    expect(await page.$eval('body', (b) => b.dataset['sound'])).toBe('promotion');
    await page.uncheck('[data-test="auto-play"]');
    await openLobby(page, server.url);
    await startGame(page, { variant: 'russian', mode: 'hotseat' });
    expect(await waitTurn(page, 'white')).toBe(true);
    await clickSquare(page, g, 21);
    expect(await partial(page)).toBe('21');
    expect(await targets(page)).toEqual([17]);
    await context.close();
  });

  it('takes one premove on the opponent\'s turn of a clocked game, cancellable, and plays it when the turn comes', async () => {
    const a = await newPage(browser);
    await openLobby(a.page, server.url);
    await startGame(a.page, { variant: 'russian', mode: 'friend', color: 'white', tc: 'default' });
    const link = await a.page.$eval('[data-test="friend-link"]', (e) => (e as HTMLInputElement).value);
    const b = await newPage(browser, 375, 667);
    await b.page.goto(server.url + '/#/');
    await b.page.waitForSelector('body[data-conn="open"]');
    // the friend picks a nickname on the link's page; both sides then see it
    await b.page.goto(link);
    await b.page.waitForSelector('[data-test="join-form"]');
    await shots(b.page, 'join-nickname', { width: 375, height: 667 });
    await b.page.fill('[data-test="join-nickname"]', 'Budi');
    await b.page.press('[data-test="join-nickname"]', 'Enter');
    await b.page.waitForSelector('[data-test="board"][data-orientation="black"] g.piece');
    await a.page.waitForFunction(() => document.querySelector('[data-test="player-top"] .name')?.textContent === 'Budi');
    const g = await geometryOf(server, 'russian');
    expect(await waitTurn(a.page, 'white')).toBe(true);
    await clickSquare(a.page, g, 24);
    await clickSquare(a.page, g, 20); // g3-h4
    expect(await waitTurn(b.page, 'black')).toBe(true);
    // White's premove while Black thinks: e3-f4 chosen, then cancelled, then c3-d4
    await a.page.waitForSelector('[data-test="board"][data-movable=""]');
    await clickSquare(a.page, g, 23);
    await clickSquare(a.page, g, 19);
    await a.page.waitForSelector('[data-test="board"][data-premove="23-19"]');
    await clickSquare(a.page, g, 17);
    await a.page.waitForSelector('[data-test="board"][data-premove=""]');
    await clickSquare(a.page, g, 22);
    await clickSquare(a.page, g, 18);
    await a.page.waitForSelector('[data-test="board"][data-premove="22-18"]');
    expect(await text(a.page, '[data-test="hint"]')).toBe('Premove: c3 to d4. It is played when your turn comes.');
    // Escape on the board cancels it too; then it is chosen once more
    await a.page.focus('[data-test="board"] [role="gridcell"][tabindex="0"]');
    await a.page.keyboard.press('Escape');
    await a.page.waitForSelector('[data-test="board"][data-premove=""]');
    await clickSquare(a.page, g, 22);
    await clickSquare(a.page, g, 18);
    await a.page.waitForSelector('[data-test="board"][data-premove="22-18"]');
    await shots(a.page, 'premove');
    await clickSquare(b.page, g, 9);
    await clickSquare(b.page, g, 13); // b6-a5
    // the premove is sent as soon as the turn comes: Black sees White's reply without a click
    await b.page.waitForSelector('[data-test="board"] g.piece[data-square="18"][data-color="white"]', { timeout: 15_000 });
    expect(await waitTurn(b.page, 'black')).toBe(true);
    expect(await moveCount(a.page)).toBe(3);
    // a takeback between people (unrated): White asks, Black sees the request and accepts,
    // White's last move is taken back and it is White's turn again
    await a.page.click('[data-test="takeback-offer"]');
    await b.page.waitForSelector('[data-test="takeback-banner"]');
    await offerInSight(b.page, 'takeback-accept', 'Your opponent asks to take back a move', 'takeback-prompt');
    await shots(b.page, 'takeback-asked', { width: 375, height: 667 });
    await b.page.click('[data-test="takeback-accept"]');
    await a.page.waitForFunction(() => [...document.querySelectorAll('[data-test="move-list"] .mv')].filter((e) => (e.textContent ?? '').trim() !== '' && e.textContent !== '…').length === 2);
    expect(await moveCount(a.page)).toBe(2);
    expect(await waitTurn(a.page, 'white')).toBe(true);
    expect(await b.page.$('[data-test="takeback-banner"]')).toBeNull();
    expect(await b.page.isVisible('[data-test="offer-prompt"]')).toBe(false);
    // a draw offer is kept in sight on the phone just the same, and declined there
    await a.page.click('[data-test="draw-offer"]');
    await b.page.waitForSelector('[data-test="draw-banner"]');
    await offerInSight(b.page, 'draw-decline', 'Your opponent offers a draw', 'draw-prompt');
    await b.page.click('[data-test="draw-decline"]');
    await b.page.waitForSelector('[data-test="offer-prompt"]', { state: 'hidden' });
    // chat between the two players (docs/protocol.md, "Chat"): each sees the other's line, as
    // the server cleaned it; a mute hides the opponent's lines in this browser
    const chatLines = (p: Page): Promise<string[]> => p.$$eval('[data-test="chat-lines"] li', (ls) => ls.map((l) => (l.textContent ?? '').trim()));
    await a.page.fill('[data-test="chat-input"]', '  good luck!  ');
    await a.page.press('[data-test="chat-input"]', 'Enter');
    await b.page.waitForFunction(() => document.querySelectorAll('[data-test="chat-lines"] li').length === 1);
    expect((await chatLines(b.page))[0]).toMatch(/: good luck!$/);
    await b.page.fill('[data-test="chat-input"]', 'terima kasih');
    await b.page.click('[data-test="chat-send"]');
    await a.page.waitForFunction(() => document.querySelectorAll('[data-test="chat-lines"] li').length === 2);
    expect(await chatLines(a.page)).toEqual([(await chatLines(b.page))[0], 'Budi: terima kasih']);
    expect(await a.page.inputValue('[data-test="chat-input"]')).toBe('');
    await shots(a.page, 'chat');
    expect(await a.page.getAttribute('[data-test="chat-input"]', 'maxlength')).toBe('200');
    // the lines are stored with the game: a reload shows them again
    await b.page.reload();
    await b.page.waitForFunction(() => document.querySelectorAll('[data-test="chat-lines"] li').length === 2);
    await a.page.click('[data-test="chat-mute"]');
    expect(await chatLines(a.page)).toHaveLength(1);
    expect(await chatLines(b.page)).toHaveLength(2);
    // the mute is per player and kept in this browser
    await a.page.reload();
    await a.page.waitForSelector('[data-test="chat-lines"]');
    await a.page.waitForSelector('[data-test="board"] g.piece');
    expect(await chatLines(a.page)).toHaveLength(1);
    expect((await chatLines(a.page))[0]).toMatch(/: good luck!$/);
    expect(await text(a.page, '[data-test="chat-mute"]')).toBe('Unmute Budi');
    // the friend's next invitation offers the nickname used last
    await openLobby(a.page, server.url);
    await startGame(a.page, { variant: 'russian', mode: 'friend', color: 'white' });
    const second = await a.page.$eval('[data-test="friend-link"]', (e) => (e as HTMLInputElement).value);
    await b.page.goto(second);
    await b.page.waitForSelector('[data-test="join-form"]');
    expect(await b.page.inputValue('[data-test="join-nickname"]')).toBe('Budi');
    await a.context.close();
    await b.context.close();
  });
});

describe('accessible board', () => {
  it('plays by keyboard on a labelled grid, announces moves, and axe finds nothing serious on the four pages', async () => {
    const { context, page } = await newPage(browser);
    await openLobby(page, server.url);
    expect(await seriousViolations(page)).toEqual([]);
    await startGame(page, { variant: 'russian', mode: 'hotseat' });
    expect(await waitTurn(page, 'white')).toBe(true);
    expect(await page.$$eval('[data-test="board"] [role="grid"] [role="gridcell"]', (c) => c.length)).toBe(32);
    const focused = (): Promise<string> => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset['square'] ?? '');
    const label = (sq: string): Promise<string | null> => page.getAttribute(`[data-test="board"] [role="gridcell"][data-square="${sq}"]`, 'aria-label');
    await page.focus('[data-test="board"] [role="gridcell"][tabindex="0"]');
    expect(await focused()).toBe('21');
    expect(await label('21')).toBe('a3: white man, can move');
    await shots(page, 'keyboard-focus');
    await page.keyboard.press('Enter'); // a3-b4, its only move
    expect(await waitTurn(page, 'black')).toBe(true);
    await page.waitForFunction(() => (document.querySelector('[data-test="announce"]')?.textContent ?? '') === 'White: a3-b4');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowUp');
    // a3 → b4 → c5 → d6 (ties go right going up)
    expect(await focused()).toBe('10');
    await page.keyboard.press('Space');
    expect(await partial(page)).toBe('10');
    expect(await label('10')).toBe('d6: black man, selected');
    await page.keyboard.press('ArrowDown'); // ties go left going down: c5
    expect(await focused()).toBe('14');
    expect(await label('14')).toBe('c5: empty, move here');
    await page.keyboard.press('Enter');
    expect(await waitTurn(page, 'white')).toBe(true);
    expect(await moveCount(page)).toBe(2);
    expect(await label('14')).toBe('c5: black man, last move');
    await page.waitForFunction(() => (document.querySelector('[data-test="announce"]')?.textContent ?? '') === 'Black: d6-c5');
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`${server.url}/#/rules/russian`);
    await page.waitForSelector('[data-test="rules-diagram"] g.piece');
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`${server.url}/#/leaderboard`);
    await page.waitForSelector('[data-test="leaderboard"] table, [data-test="leaderboard"] p.muted');
    expect(await seriousViolations(page)).toEqual([]);
    // and in the dark theme, at 1280 and 375 px, the four pages again
    await page.click('[data-test="theme-toggle"]');
    expect(await page.getAttribute('html', 'data-theme')).toBe('dark');
    for (const [w, h] of [[1280, 800], [375, 667]] as const) {
      await page.setViewportSize({ width: w, height: h });
      await openLobby(page, server.url);
      expect(await seriousViolations(page), `lobby ${w}`).toEqual([]);
      await startGame(page, { variant: 'russian', mode: 'hotseat' });
      expect(await seriousViolations(page), `game ${w}`).toEqual([]);
      await page.goto(`${server.url}/#/rules/russian`);
      await page.waitForSelector('[data-test="rules-diagram"] g.piece');
      expect(await seriousViolations(page), `rules ${w}`).toEqual([]);
      await page.goto(`${server.url}/#/leaderboard`);
      await page.waitForSelector('[data-test="leaderboard"] table, [data-test="leaderboard"] p.muted');
      expect(await seriousViolations(page), `leaderboard ${w}`).toEqual([]);
    }
    await context.close();
  });
});

describe('board flip and hot-seat turn', () => {
  it('flips the board, and turns it for the side to move when asked', async () => {
    const { context, page } = await newPage(browser);
    await openLobby(page, server.url);
    await startGame(page, { variant: 'international', mode: 'hotseat' });
    const g = await geometryOf(server, 'international');
    const orientation = (): Promise<string | null> => page.getAttribute('[data-test="board"]', 'data-orientation');
    expect(await orientation()).toBe('white');
    // no chat or takeback in hot-seat (one player at both sides); undo only once a move was made
    expect(await page.isVisible('[data-test="chat"]')).toBe(false);
    expect(await page.$('[data-test="takeback-offer"]')).toBeNull();
    expect(await page.$('[data-test="undo"]')).toBeNull();
    await page.click('[data-test="flip"]');
    expect(await orientation()).toBe('black');
    await page.click('[data-test="flip"]');
    expect(await orientation()).toBe('white');
    await page.check('[data-test="auto-turn"]');
    expect(await waitTurn(page, 'white')).toBe(true);
    await playAnyMove(page, g, rng(6));
    expect(await waitTurn(page, 'black')).toBe(true);
    expect(await orientation()).toBe('black');
    await shots(page, 'hotseat-turned');
    await playAnyMove(page, g, rng(7));
    expect(await waitTurn(page, 'white')).toBe(true);
    expect(await orientation()).toBe('white');
    // hot-seat undo takes back the last ply, whoever played it; the board turns back with it
    expect(await moveCount(page)).toBe(2);
    await page.click('[data-test="undo"]');
    expect(await waitTurn(page, 'black')).toBe(true);
    expect(await moveCount(page)).toBe(1);
    expect(await orientation()).toBe('black');
    await shots(page, 'hotseat-undo');
    await page.click('[data-test="undo"]');
    expect(await waitTurn(page, 'white')).toBe(true);
    expect(await moveCount(page)).toBe(0);
    expect(await page.$('[data-test="undo"]')).toBeNull();
    await context.close();
  });
});

describe('layout and words', () => {
  for (const locale of ['en-US', 'id-ID']) {
    it(`shows "Start game" in the first screen of a 375x667 phone and keeps the header on one line (${locale})`, async () => {
      const { context, page } = await newPage(browser, 375, 667, locale);
      await openLobby(page, server.url);
      for (const mode of ['computer', 'friend', 'random', 'hotseat']) {
        await page.check(`[data-test="mode-${mode}"]`);
        const start = await page.$eval('[data-test="start"]', (e) => e.getBoundingClientRect().toJSON() as DOMRect);
        expect(start.top).toBeGreaterThanOrEqual(0);
        expect(start.bottom).toBeLessThanOrEqual(667);
      }
      const header = await page.$eval('header.top', (hd) => ({
        height: hd.getBoundingClientRect().height,
        width: hd.scrollWidth - hd.clientWidth,
        tops: [...hd.children].map((c) => Math.round(c.getBoundingClientRect().top + c.getBoundingClientRect().height / 2)),
      }));
      expect(header.height).toBeLessThanOrEqual(52);
      expect(Math.max(...header.tops) - Math.min(...header.tops)).toBeLessThanOrEqual(4);
      expect(header.width).toBeLessThanOrEqual(0);
      // every link of the menu is seen whole (none cut by the language buttons)
      const menu = await page.$eval('header.top .menu', (m) => ({ overflow: m.scrollWidth - m.clientWidth, right: m.getBoundingClientRect().right, links: [...m.querySelectorAll('a')].map((a) => a.getBoundingClientRect().right) }));
      expect(menu.overflow, JSON.stringify(menu)).toBeLessThanOrEqual(0);
      for (const r of menu.links) expect(r).toBeLessThanOrEqual(menu.right + 0.5);
      await shots(page, `lobby-first-screen-${locale}`, { width: 375, height: 667 });
      await context.close();
    });
  }

  for (const [locale, note] of [
    ['en-US', 'Your clock starts with your first move.'],
    ['id-ID', 'Waktumu mulai berjalan setelah langkah pertamamu.'],
  ] as const) {
  it(`keeps long player names on one line at 375 px beside the badge and the clock, and says the clock starts with the first move (${locale})`, async () => {
    const { context, page } = await newPage(browser, 375, 667, locale);
    await openLobby(page, server.url);
    // 24 characters (the most a nickname has) of the widest capital: more than the row has room for
    // in any font, so the cut is exercised on every machine whatever fonts it has installed
    await page.fill('[data-test="nickname"]', LONG_NAME);
    // nobody else seeks: the computer is paired (a name, a "computer · normal" badge and a clock)
    await startGame(page, { variant: 'russian', mode: 'random' });
    await page.waitForSelector('[data-test^="computer-badge-"]');
    await page.waitForSelector('[data-test="clock-white"]:not(:empty)');
    // before the player's own first move, which is not timed (docs/protocol.md, "Clocks")
    await page.waitForSelector('[data-test="clock-start-note"]:not([hidden])');
    expect(await text(page, '[data-test="clock-start-note"]')).toBe(note);
    // the page's own typeface is in use (so these widths are the same on every machine)
    expect(await page.evaluate(() => document.fonts.check("1em 'Noto Sans Variable'"))).toBe(true);
    const lines = await page.$$eval('[data-test="game"] .player', (players) =>
      players.map((p) => {
        const r = p.getBoundingClientRect();
        const shown = [...p.children].filter((c) => getComputedStyle(c).display !== 'none' && getComputedStyle(c).position !== 'absolute');
        const boxes = shown.map((c) => c.getBoundingClientRect()).sort((x, y) => x.left - y.left);
        const name = p.querySelector('.name') as HTMLElement;
        const nr = name.getBoundingClientRect();
        const badge = p.querySelector('.badge.computer');
        return {
          badgeCut: badge ? badge.scrollWidth > badge.clientWidth : false,
          name: name.textContent,
          inside: boxes.every((b) => b.left >= r.left - 0.5 && b.right <= r.right + 0.5),
          apart: boxes.every((b, i) => i === 0 || b.left >= (boxes[i - 1] as DOMRect).right - 0.5),
          oneRow: boxes.every((b) => b.top < (boxes[0] as DOMRect).bottom && b.bottom > (boxes[0] as DOMRect).top),
          nameOneLine: nr.height < 1.8 * parseFloat(getComputedStyle(name).fontSize),
          nameWidth: nr.width,
          // cut, and cut with an ellipsis on one line: the text is wider than the name's own box and
          // the box clips it with "…" instead of wrapping or pushing the badge and clock aside
          ellipsized:
            name.scrollWidth > name.clientWidth &&
            getComputedStyle(name).textOverflow === 'ellipsis' &&
            getComputedStyle(name).overflowX === 'hidden' &&
            getComputedStyle(name).whiteSpace === 'nowrap',
          overflow: p.scrollWidth - p.clientWidth,
        };
      }),
    );
    expect(lines).toHaveLength(2);
    for (const l of lines) {
      // the computer's badge is read whole ("komputer · sedang" beside "5:00 +3×30 dtk")
      expect(l, JSON.stringify(l)).toMatchObject({ inside: true, apart: true, oneRow: true, nameOneLine: true, badgeCut: false });
      expect(l.overflow, JSON.stringify(l)).toBeLessThanOrEqual(0);
      expect(l.nameWidth, JSON.stringify(l)).toBeGreaterThanOrEqual(50); // readable, not squeezed away
    }
    const mine = lines.find((l) => l.name === LONG_NAME);
    expect(mine?.ellipsized, JSON.stringify(mine)).toBe(true);
    await shots(page, `long-names-${locale}`, { width: 375, height: 667 });
    // the player's first move: the note goes
    const side = (await page.$eval('[data-test="board"]', (e) => (e as HTMLElement).dataset['orientation'])) as 'white' | 'black';
    expect(await waitTurn(page, side)).toBe(true);
    await playAnyMove(page, await geometryOf(server, 'russian'), rng(13));
    await page.waitForSelector('[data-test="clock-start-note"]', { state: 'hidden' });
    await context.close();
  });
  }

  it('never lets square numbers and coordinates overlap, and shows the last move clearly on both looks', async () => {
    const { context, page } = await newPage(browser);
    await openLobby(page, server.url);
    await startGame(page, { variant: 'international', mode: 'hotseat' });
    await page.check('[data-test="numbers"]');
    await page.check('[data-test="coords"]');
    await page.waitForSelector('[data-test="board"] text.label.rank');
    const g = await geometryOf(server, 'international');
    await playAnyMove(page, g, rng(9));
    expect(await waitTurn(page, 'black')).toBe(true);
    for (const look of ['classic', 'candy']) {
      await page.click(`[data-test="look-${look}"]`);
      await page.waitForSelector(`[data-test="board"].look-${look}`);
      const overlaps = await page.$$eval('[data-test="board"] text.label', (els) => {
        const boxes = els.map((e) => ({ t: e.textContent, r: e.getBoundingClientRect() }));
        const out: string[] = [];
        for (let i = 0; i < boxes.length; i++)
          for (let j = i + 1; j < boxes.length; j++) {
            const a = boxes[i]!.r;
            const b = boxes[j]!.r;
            if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) out.push(`${boxes[i]!.t}/${boxes[j]!.t}`);
          }
        return out;
      });
      expect(overlaps).toEqual([]);
      // the highlighted square differs plainly from a plain dark square, and is outlined
      const seen = await page.evaluate(() => {
        const parse = (c: string): number[] => (c.match(/[\d.]+/g) ?? []).map(Number);
        const mark = document.querySelector('[data-test="board"] .mark.last') as SVGElement;
        const cell = document.querySelector('[data-test="board"] .cell.dark') as SVGElement;
        const m = getComputedStyle(mark);
        const [r, g, b, a = 1] = parse(m.fill);
        const [cr, cg, cb] = parse(getComputedStyle(cell).fill);
        const mix = [r! * a + cr! * (1 - a), g! * a + cg! * (1 - a), b! * a + cb! * (1 - a)];
        return { distance: Math.hypot(mix[0]! - cr!, mix[1]! - cg!, mix[2]! - cb!), stroke: m.stroke, width: parseFloat(m.strokeWidth) };
      });
      expect(seen.distance).toBeGreaterThanOrEqual(80);
      expect(seen.stroke).not.toBe('none');
      expect(seen.width).toBeGreaterThanOrEqual(5);
      await shots(page, `labels-last-move-${look}`);
    }
    await page.click('[data-test="look-classic"]');
    await context.close();
  });

  it('follows the system\'s dark theme, and the toggle is remembered', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
    const page = await context.newPage();
    await openLobby(page, server.url);
    expect(await page.getAttribute('html', 'data-theme')).toBe('dark');
    const bg = await page.$eval('body', (b) => getComputedStyle(document.documentElement).backgroundColor + '|' + getComputedStyle(b).color);
    expect(bg).not.toContain('rgb(246, 241, 231)');
    await shots(page, 'dark-lobby');
    await startGame(page, { variant: 'turkish', mode: 'hotseat' });
    await shots(page, 'dark-game');
    await page.click('[data-test="theme-toggle"]');
    expect(await page.getAttribute('html', 'data-theme')).toBe('light');
    await page.reload();
    await page.waitForSelector('[data-test="board"] g.piece');
    expect(await page.getAttribute('html', 'data-theme')).toBe('light');
    await context.close();
  });

  it('has a labelled sign-in form that submits on Enter and lists every error in the chosen language', async () => {
    const { context, page } = await newPage(browser, 375, 667);
    await openLobby(page, server.url);
    expect(await text(page, 'label[for="account-username"]')).toBe('Username');
    expect(await text(page, 'label[for="account-password"]')).toBe('Password');
    await page.fill('[data-test="username"]', 'a b');
    await page.fill('[data-test="password"]', 'short');
    await page.press('[data-test="password"]', 'Enter');
    await page.waitForSelector('[data-test="account-errors"] li');
    expect(await page.$$eval('[data-test="account-errors"] li', (l) => l.map((x) => x.textContent))).toEqual([
      'A username has 3 to 24 letters, digits, _ or -.',
      'A password has 8 to 128 characters.',
    ]);
    await shots(page, 'sign-in-errors', { width: 375, height: 667 });
    await page.fill('[data-test="username"]', 'nobody_here');
    await page.fill('[data-test="password"]', 'correct horse');
    await page.press('[data-test="username"]', 'Enter');
    await page.waitForFunction(() => document.querySelector('[data-test="account-errors"]')?.textContent === 'Wrong username or password.');
    await page.click('[data-test="lang-id"]');
    await page.waitForSelector('[data-test="account-form"]');
    expect(await text(page, 'label[for="account-username"]')).toBe('Nama pengguna');
    expect(await text(page, 'label[for="account-password"]')).toBe('Kata sandi');
    await page.fill('[data-test="username"]', '');
    await page.fill('[data-test="password"]', '');
    await page.press('[data-test="password"]', 'Enter');
    const errors = (): Promise<(string | null)[]> => page.$$eval('[data-test="account-errors"] li', (l) => l.map((x) => x.textContent));
    expect(await errors()).toEqual(['Isi nama pengguna.', 'Isi kata sandi.']);
    // every other problem in Indonesian too: the forms, then the server's refusal
    await page.fill('[data-test="username"]', 'a b');
    await page.fill('[data-test="password"]', 'short');
    await page.press('[data-test="username"]', 'Enter');
    expect(await errors()).toEqual([format('id', 'err_username_form'), format('id', 'err_password_form')]);
    await page.fill('[data-test="username"]', 'nobody_here');
    await page.fill('[data-test="password"]', 'correct horse');
    await page.press('[data-test="password"]', 'Enter');
    await page.waitForFunction((t) => document.querySelector('[data-test="account-errors"]')?.textContent === t, format('id', 'err_bad_credentials'));
    await shots(page, 'sign-in-errors-id', { width: 375, height: 667 });
    // a taken name when signing up
    await page.fill('[data-test="username"]', 'e2e_taken');
    await page.click('[data-test="sign-up"]');
    await page.waitForSelector('[data-test="signed-in"]');
    const other = await newPage(browser, 375, 667, 'id-ID');
    await openLobby(other.page, server.url);
    await other.page.fill('[data-test="username"]', 'e2e_taken');
    await other.page.fill('[data-test="password"]', 'correct horse');
    await other.page.click('[data-test="sign-up"]');
    await other.page.waitForFunction((t) => document.querySelector('[data-test="account-errors"]')?.textContent === t, format('id', 'err_username_taken'));
    await other.context.close();
    await context.close();
  });

  it('speaks Indonesian everywhere it was left in English, and writes levels one way', async () => {
    const { context, page } = await newPage(browser, 1280, 800, 'id-ID');
    await openLobby(page, server.url);
    await page.selectOption('[data-test="variant"]', 'pool');
    expect(await page.$eval('[data-test="variant"]', (s) => (s as HTMLSelectElement).selectedOptions[0]?.textContent)).toBe('Dam Pool (pool checkers)');
    await startGame(page, { variant: 'russian', mode: 'friend', color: 'white', tc: 'default' });
    await page.waitForSelector('[data-test="clock-white"]:not(:empty)');
    expect(await text(page, '[data-test="clock-white"]')).toMatch(/dtk$/);
    expect(await text(page, '[data-test="rated-badge"]')).toBe('Santai');
    await openLobby(page, server.url);
    await startGame(page, { variant: 'american', mode: 'computer', level: 'easy', color: 'black' });
    await page.waitForSelector('[data-test="computer-badge-white"]');
    const names = await page.$$eval('.player .name', (els) => els.map((e) => e.textContent));
    expect(names).toContain('Komputer (mudah)');
    expect(names).toContain('Tamu');
    await shots(page, 'indonesian');
    await page.click('[data-test="lang-en"]');
    await page.waitForSelector('[data-test="computer-badge-white"]');
    expect(await page.$$eval('.player .name', (els) => els.map((e) => e.textContent))).toContain('Computer (easy)');
    await openLobby(page, server.url);
    await page.waitForSelector('[data-test="my-game"]');
    expect(await text(page, '[data-test="my-games"]')).toContain('Computer (easy)');
    await context.close();
  });
});

describe('rated or casual, and ratings in sight (client side): rated or casual on every game page, finished games listed, the leaderboard on a variant with players', () => {
  it('shows Casual and Rated, lists a finished game, and opens the leaderboard where the ratings are', async () => {
    const a = await newPage(browser);
    await openLobby(a.page, server.url);
    await signUp(a.page, 'e2e_rita');
    await startGame(a.page, { variant: 'czech', mode: 'friend', color: 'white', tc: 'default', rated: true });
    const link = await a.page.$eval('[data-test="friend-link"]', (e) => (e as HTMLInputElement).value);
    const b = await newPage(browser, 375, 667);
    await openLobby(b.page, server.url);
    await signUp(b.page, 'e2e_budi');
    await joinByLink(b.page, link);
    await b.page.waitForSelector('[data-test="board"][data-orientation="black"] g.piece');
    expect(await text(b.page, '[data-test="rated-badge"]')).toBe('Rated');
    expect(await waitTurn(a.page, 'white')).toBe(true);
    await playAnyMove(a.page, await geometryOf(server, 'czech'), rng(17));
    // each side's clock starts with its own first move: White has moved, Black's clock waits
    expect(await waitTurn(b.page, 'black')).toBe(true);
    await b.page.waitForSelector('[data-test="clock-start-note"]:not([hidden])');
    expect(await b.page.$('[data-test="game"] .clock.running')).toBeNull();
    // no takeback in a rated game
    expect(await a.page.$('[data-test="takeback-offer"]')).toBeNull();
    await a.page.click('[data-test="resign"]');
    await a.page.click('[data-test="resign"]');
    await b.page.waitForSelector('[data-test="result"]');
    // the result banner shows each rating after the game and its change; the end is heard
    await b.page.waitForSelector('[data-test="rating-change"]');
    expect(await text(b.page, '[data-test="rating-change"]')).toBe('e2e_rita 1184 (−16) · e2e_budi 1216 (+16)');
    const ratedGame = b.page.url();
    expect(await b.page.$eval('body', (x) => x.dataset['sound'])).toBe('end');
    expect(await text(b.page, '[data-test="announce"]')).toContain(await text(b.page, '[data-test="result"]'));
    await shots(b.page, 'rated-result', { width: 375, height: 667 });
    // on a phone the line above the board has the result and the ratings on lines of their own
    expect(await b.page.$$eval('.mobile-status > div', (d) => d.map((x) => x.textContent))).toEqual([
      await text(b.page, '[data-test="result"]'),
      'e2e_rita 1184 (−16) · e2e_budi 1216 (+16)',
    ]);
    // the finished game is in "Your games", with its result
    await openLobby(b.page, server.url);
    await b.page.waitForSelector('[data-test="my-games"] li[data-status="over"]');
    expect(await text(b.page, '[data-test="my-games"] li[data-status="over"]')).toContain('Black wins');
    // ... from the server: signed in again in a new browser, the game is still listed
    const d = await newPage(browser);
    await openLobby(d.page, server.url);
    await d.page.fill('[data-test="username"]', 'e2e_budi');
    await d.page.fill('[data-test="password"]', 'correct horse');
    await d.page.press('[data-test="password"]', 'Enter');
    await d.page.waitForSelector('[data-test="signed-in"]');
    await d.page.waitForSelector('[data-test="my-games"] li[data-status="over"]');
    expect(await text(d.page, '[data-test="my-games"] li[data-status="over"]')).toContain('Black wins');
    await shots(d.page, 'your-games-signed-in-again');
    await d.context.close();
    // a new visitor whose lobby is on another variant: the leaderboard opens on Czech
    // (one request for the rated variants, one for Czech's board: no asking variant by variant)
    const c = await newPage(browser);
    const asked: string[] = [];
    c.page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname === '/api/leaderboard') asked.push(u.pathname + u.search);
    });
    await c.page.goto(`${server.url}/#/leaderboard`);
    await c.page.waitForSelector('[data-test="leaderboard"][data-variant="czech"] table');
    expect(await c.page.$$eval('[data-test="leaderboard"] tbody tr', (r) => r.length)).toBe(2);
    expect(asked).toEqual(['/api/leaderboard', '/api/leaderboard?variant=czech']);
    await shots(c.page, 'leaderboard-opens-rated');
    // a computer game says Casual
    await openLobby(c.page, server.url);
    await startGame(c.page, { variant: 'czech', mode: 'computer', level: 'easy', color: 'white' });
    expect(await text(c.page, '[data-test="rated-badge"]')).toBe('Casual');
    // a restart: the finished game is read back from the store, and a reload of its page still
    // shows both ratings and their changes (they came only with the ending's event before)
    await server.stop();
    server = await startServer(server.port, server.data, 50);
    await b.page.goto(ratedGame);
    await b.page.reload();
    await b.page.waitForSelector('[data-test="rating-change"]', { timeout: 20_000 });
    expect(await text(b.page, '[data-test="rating-change"]')).toBe('e2e_rita 1184 (−16) · e2e_budi 1216 (+16)');
    await a.context.close();
    await b.context.close();
    await c.context.close();
  });
});

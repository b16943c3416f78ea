// End-to-end: the site as a Telegram Mini App. The server runs with a bot token and a local
// stand-in of the Bot API; the page is opened as Telegram opens it, with launch data signed for
// that bot in the fragment, and Telegram's script (telegram-web-app.js, from telegram.org) answered
// by a stand-in that records what the page asks of it. The player is signed in as the Telegram
// identity with no sign-up, the page takes Telegram's colours and buttons, plays a move as that
// identity, and shares a friend invite into a chat (the server prepares it with the Bot API).
// The same page in an ordinary browser shows nothing of Telegram.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { geometryOf, launch, newPage, playAnyMove, removeData, rng, shot, startServer, waitTurn, type Server } from './harness';
import { openLobby } from './lobby';
import { startBotApi, telegramInitData, telegramScript, type BotApi } from './stand-ins';

const BOT_TOKEN = '7000001:AAH-e2e-papan-token';

let server: Server;
let browser: Browser;
let bot: BotApi;

beforeAll(async () => {
  bot = await startBotApi();
  server = await startServer(0, undefined, 20_000, ['--telegram-bot-token', BOT_TOKEN, '--telegram-api', bot.url, '--public-url', 'https://papan.example']);
  browser = (await launch()).browser;
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await bot?.stop();
  if (server) removeData(server.data);
});

/** Opens the page as Telegram does, with Telegram's script answered by the stand-in. */
async function openInTelegram(page: Page, initData: string, route = ''): Promise<void> {
  await page.route('https://telegram.org/js/telegram-web-app.js', (r) => r.fulfill({ status: 200, contentType: 'text/javascript', body: telegramScript(initData) }));
  const theme = encodeURIComponent(JSON.stringify({ bg_color: '#17212b', text_color: '#f5f5f5', button_color: '#5288c1' }));
  await page.goto(`${server.url}/${route}#tgWebAppData=${encodeURIComponent(initData)}&tgWebAppVersion=8.0&tgWebAppPlatform=web&tgWebAppThemeParams=${theme}`);
}

const telegramLog = (page: Page): Promise<string[]> => page.evaluate(() => (window as unknown as { __telegram?: string[] }).__telegram ?? []);

describe('the Telegram Mini App', () => {
  it('signs the player in from the launch data and plays a move as that identity', async () => {
    const { context, page } = await newPage(browser, 390, 844);
    const initData = telegramInitData(BOT_TOKEN, { id: 5_550_001, first_name: 'Siti', username: 'siti_tg', language_code: 'id' });
    await openInTelegram(page, initData);
    await page.waitForSelector('[data-test="lobby"] [data-test="start"]');
    await page.waitForSelector('[data-test="signed-in"]');
    expect(await page.textContent('[data-test="signed-in"]')).toContain('siti_tg');
    await page.waitForSelector('body[data-conn="open"]');
    // the launch data left the address bar; Telegram's colours and buttons are in use
    expect(page.url()).not.toContain('tgWebAppData');
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--bg').trim())).toBe('#17212b');
    const log = await telegramLog(page);
    expect(log).toContain('ready');
    expect(log.some((l) => l.startsWith('MainButton.setText:'))).toBe(true);
    await shot(page, 'telegram-lobby-390');

    // Telegram's main button starts the game chosen in the lobby: the computer, American.
    await page.selectOption('[data-test="variant"]', 'american');
    await page.check('[data-test="mode-computer"]');
    await page.evaluate(() => (window as unknown as { __telegramMain: () => void }).__telegramMain());
    await page.waitForSelector('[data-test="game"] [data-test="board"] g.piece');
    expect(await telegramLog(page)).toContain('BackButton.show');
    const id = await page.$eval('[data-test="game"]', (e) => (e as HTMLElement).dataset['game'] ?? '');
    const g = await geometryOf(server, 'american');
    expect(await waitTurn(page, 'black')).toBe(true);
    await playAnyMove(page, g, rng(7));
    await page.waitForFunction(() => document.querySelectorAll('[data-test="move-list"] .mv').length > 0);

    // The server has the game and the move under the Telegram account.
    const state = (await (await fetch(`${server.url}/api/games/${id}`)).json()) as { black: { name: string; id: string }; moves: unknown[] };
    expect(state.black.name).toBe('siti_tg');
    expect(state.black.id).toMatch(/^u\d+$/);
    expect(state.moves.length).toBeGreaterThanOrEqual(1);
    await context.close();
  });

  it('shares a friend invite into a chat, and the invite opens the game in the Mini App', async () => {
    const a = await newPage(browser, 390, 844);
    const initData = telegramInitData(BOT_TOKEN, { id: 5_550_002, first_name: 'Budi', username: 'budi_tg', language_code: 'en' });
    await openInTelegram(a.page, initData);
    await a.page.waitForSelector('[data-test="signed-in"]');
    await a.page.waitForSelector('body[data-conn="open"]');
    await a.page.selectOption('[data-test="variant"]', 'turkish');
    await a.page.check('[data-test="mode-friend"]');
    await a.page.click('[data-test="start"]');
    await a.page.waitForSelector('[data-test="share-telegram"]');
    const link = await a.page.$eval('[data-test="friend-link"]', (e) => (e as HTMLInputElement).value);
    const invite = /#join=([\w-]+)/.exec(link)?.[1] ?? '';
    await a.page.click('[data-test="share-telegram"]');
    await a.page.waitForFunction(() => ((window as unknown as { __telegram?: string[] }).__telegram ?? []).some((l) => l.startsWith('shareMessage:')));
    const prepared = bot.calls.filter((c) => c.method === 'savePreparedInlineMessage');
    expect(prepared).toHaveLength(1);
    expect(prepared[0]?.params['user_id']).toBe(5_550_002);
    expect(JSON.stringify(prepared[0]?.params['result'])).toContain(`https://t.me/papan_e2e_bot?start=join_${invite}`);

    // The friend taps "Play in Telegram": the bot's button opens the Mini App at ?join=INVITE.
    const b = await newPage(browser, 390, 844);
    const friend = telegramInitData(BOT_TOKEN, { id: 5_550_003, first_name: 'Citra', username: 'citra_tg' });
    await openInTelegram(b.page, friend, `?join=${invite}`);
    await b.page.waitForSelector('[data-test="game"] [data-test="board"] g.piece');
    await a.page.waitForSelector('[data-test="turn"]');
    expect(await b.page.textContent('[data-test="player-bottom"]')).toContain('citra_tg');
    await a.context.close();
    await b.context.close();
  });

  it('shows nothing of Telegram in an ordinary browser', async () => {
    const { context, page } = await newPage(browser);
    let scriptAsked = false;
    await page.route('https://telegram.org/**', (r) => {
      scriptAsked = true;
      return r.abort();
    });
    await openLobby(page, server.url);
    expect(scriptAsked).toBe(false);
    expect(await page.$('[data-test="signed-in"]')).toBeNull();
    expect(await page.evaluate(() => document.body.dataset['telegram'] ?? '')).toBe('');
    await context.close();
  });
});

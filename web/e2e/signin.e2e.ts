// End-to-end: signing in with an OpenID Connect provider (Google's protocol) through a local
// provider the test starts (real HTTP, its RSA key made now: discovery, JWK Set, a consent page,
// a token endpoint checking the client secret and PKCE). Two players sign in in two browsers,
// choose their nicknames, play a rated game (the operator keeps rated games for provider
// accounts: --rated-requires oidc) and see themselves on the leaderboard. A password account
// is told that rated games need the provider.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { geometryOf, joinByLink, launch, newPage, playAnyMove, removeData, rng, shot, startServer, waitTurn, type Server } from './harness';
import { openLobby, signUp, startGame } from './lobby';
import { startOidcProvider, type OidcProvider } from './stand-ins';

const CLIENT_ID = 'papan-e2e';
const CLIENT_SECRET = 'e2e secret/with:odd chars';

let server: Server;
let browser: Browser;
let provider: OidcProvider;

beforeAll(async () => {
  provider = await startOidcProvider(CLIENT_ID, CLIENT_SECRET);
  // the secret from the environment, as an operator keeps it off the command line
  process.env['PAPAN_OIDC_CLIENT_SECRET'] = CLIENT_SECRET;
  server = await startServer(0, undefined, 20_000, ['--oidc-issuer', provider.issuer, '--oidc-client-id', CLIENT_ID, '--oidc-name', 'Google', '--rated-requires', 'oidc']);
  delete process.env['PAPAN_OIDC_CLIENT_SECRET'];
  browser = (await launch()).browser;
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await provider?.stop();
  if (server) removeData(server.data);
});

/** The lobby's "Sign in with Google", the provider's consent page, and the nickname at the first sign-in. */
async function signInWithProvider(page: Page, sub: string, name: string, nickname: string): Promise<void> {
  provider.user(sub, name);
  await openLobby(page, server.url);
  await page.click('[data-test="oidc-sign-in"]');
  await page.waitForSelector('#approve');
  expect(page.url().startsWith(provider.issuer)).toBe(true);
  await page.click('#approve');
  await page.waitForSelector('[data-test="signin-nickname-form"]');
  // the provider's name is offered, cleaned to what a nickname may hold
  expect(await page.inputValue('[data-test="signin-nickname"]')).toBe(name.replace(/ /g, '_'));
  // the ticket left the address bar at once
  expect(page.url()).not.toContain('signin=');
  await page.fill('[data-test="signin-nickname"]', nickname);
  await page.click('[data-test="signin-create"]');
  await page.waitForSelector('[data-test="signed-in"]');
  expect(await page.textContent('[data-test="signed-in"]')).toContain(nickname);
  await page.waitForSelector('body[data-conn="open"]');
}

describe('sign in with Google (OpenID Connect)', () => {
  it('signs two players in through the provider, plays a rated game and shows them on the leaderboard', async () => {
    const a = await newPage(browser);
    const b = await newPage(browser, 390, 844);
    await signInWithProvider(a.page, 'g-ada', 'Ada Lovelace', 'ada_l');
    await shot(a.page, 'signin-lobby-1280');
    await signInWithProvider(b.page, 'g-budi', 'Budi Santoso', 'budi_s');

    await openLobby(a.page, server.url);
    const id = await startGame(a.page, { variant: 'russian', mode: 'friend', color: 'white', tc: 'default', rated: true });
    const link = await a.page.$eval('[data-test="friend-link"]', (e) => (e as HTMLInputElement).value);
    await joinByLink(b.page, link);
    await a.page.waitForSelector('[data-test="rated-badge"][data-rated="1"]');
    const g = await geometryOf(server, 'russian');
    const rand = rng(38);
    expect(await waitTurn(a.page, 'white')).toBe(true);
    await playAnyMove(a.page, g, rand);
    expect(await waitTurn(b.page, 'black')).toBe(true);
    await playAnyMove(b.page, g, rand);
    expect(await waitTurn(a.page, 'white')).toBe(true);
    await a.page.click('[data-test="resign"]');
    await a.page.click('[data-test="resign"]');
    await b.page.waitForSelector('[data-test="result"]');
    await b.page.waitForSelector('[data-test="rating-change"]');

    const r = await fetch(`${server.url}/api/games/${id}`);
    expect(((await r.json()) as { rated: boolean }).rated).toBe(true);

    await b.page.goto(`${server.url}/#/leaderboard/russian`);
    await b.page.waitForSelector('[data-test="leaderboard-player"]');
    const names = await b.page.$$eval('[data-test="leaderboard-player"]', (els) => els.map((e) => e.textContent));
    expect(names).toEqual(['budi_s', 'ada_l']);
    await shot(b.page, 'signin-leaderboard-390');

    // Signed in again later: straight in, no nickname asked.
    await openLobby(a.page, server.url);
    await a.page.click('[data-test="sign-out"]');
    provider.user('g-ada', 'Ada Lovelace');
    await a.page.click('[data-test="oidc-sign-in"]');
    await a.page.click('#approve');
    await a.page.waitForSelector('[data-test="signed-in"]');
    expect(await a.page.textContent('[data-test="signed-in"]')).toContain('ada_l');
    await a.context.close();
    await b.context.close();
  });

  it('tells a password account that rated games need the provider, and links it', async () => {
    const { context, page } = await newPage(browser);
    await openLobby(page, server.url);
    await signUp(page, 'citra_pw');
    await page.check('[data-test="mode-friend"]');
    await page.waitForSelector('[data-test="rated-needs-provider"]');
    expect(await page.$('[data-test="rated"]')).toBeNull();
    // Linking the provider to the account lifts it.
    provider.user('g-citra', 'Citra');
    await page.click('[data-test="oidc-link"]');
    await page.click('#approve');
    await page.waitForSelector('[data-test="signed-in"]');
    expect(await page.textContent('[data-test="signed-in"]')).toContain('citra_pw');
    await page.check('[data-test="mode-friend"]');
    await page.waitForSelector('[data-test="rated"]');
    await context.close();
  });

  it('shows why a sign-in came back refused', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/#signin-error=nonce_mismatch`);
    await page.waitForSelector('[data-test="signin-error"]');
    expect(await page.textContent('[data-test="signin-error"]')).toContain('nonce_mismatch');
    await context.close();
  });
});

// Local stand-ins of Google and Telegram for the end-to-end tests, started by the test on a free
// loopback port and spoken to over real HTTP: an OpenID Connect provider (discovery, JWK Set,
// an authorization page the player approves, a token endpoint that checks the client's secret
// and PKCE; its RSA key made at test time) and Telegram's Bot API (every call recorded). Plus
// Telegram's launch data signed as Telegram's documentation says, and a stand-in of Telegram's
// telegram-web-app.js that records what the page asks of Telegram's interface.

import { createHash, createHmac, createSign, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const b64url = (b: Buffer | string): string => Buffer.from(b).toString('base64url');

function listen(server: HttpServer): Promise<string> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let s = '';
    req.on('data', (d: Buffer) => (s += d.toString()));
    req.on('end', () => resolve(s));
  });
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(value));
}

interface Grant {
  sub: string;
  name: string;
  nonce: string;
  challenge: string;
  redirect: string;
}

export interface OidcProvider {
  issuer: string;
  /** the person the next approval signs in */
  user(sub: string, name: string): void;
  stop(): Promise<void>;
}

export async function startOidcProvider(clientId: string, clientSecret: string): Promise<OidcProvider> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = `k-${randomBytes(4).toString('hex')}`;
  const jwk = { ...(publicKey as KeyObject).export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };
  let person = { sub: '1001', name: 'Ada Lovelace' };
  const codes = new Map<string, Grant>();
  let issuer = '';
  const sign = (claims: object): string => {
    const input = `${b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid }))}.${b64url(JSON.stringify(claims))}`;
    return `${input}.${b64url(createSign('RSA-SHA256').update(input).sign(privateKey))}`;
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    void (async () => {
      if (url.pathname === '/.well-known/openid-configuration') {
        return json(res, 200, {
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
          response_types_supported: ['code'],
          id_token_signing_alg_values_supported: ['RS256'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['client_secret_basic'],
        });
      }
      if (url.pathname === '/jwks') return json(res, 200, { keys: [jwk] });
      if (url.pathname === '/authorize') {
        const q = url.searchParams;
        if (q.get('client_id') !== clientId || q.get('response_type') !== 'code' || q.get('code_challenge_method') !== 'S256') {
          res.writeHead(400, { 'Content-Type': 'text/plain' });
          return res.end('bad authorization request');
        }
        // The provider's consent page: the player approves.
        const approve = new URL(`${issuer}/approve`);
        for (const k of ['state', 'nonce', 'code_challenge', 'redirect_uri']) approve.searchParams.set(k, q.get(k) ?? '');
        res.writeHead(200, { 'Content-Type': 'text/html' });
        return res.end(`<!doctype html><title>Test provider</title><h1>Sign in to Papan</h1><p>as ${person.name}</p><a id="approve" href="${approve.href.replace(/&/g, '&amp;')}">Continue</a>`);
      }
      if (url.pathname === '/approve') {
        const q = url.searchParams;
        const code = randomBytes(12).toString('hex');
        codes.set(code, { ...person, nonce: q.get('nonce') ?? '', challenge: q.get('code_challenge') ?? '', redirect: q.get('redirect_uri') ?? '' });
        const back = new URL(q.get('redirect_uri') ?? '');
        back.searchParams.set('code', code);
        back.searchParams.set('state', q.get('state') ?? '');
        res.writeHead(302, { Location: back.href });
        return res.end();
      }
      if (url.pathname === '/token' && req.method === 'POST') {
        const form = new URLSearchParams(await body(req));
        const basic = `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`;
        if (req.headers.authorization !== basic) return json(res, 401, { error: 'invalid_client' });
        const grant = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        if (!grant || form.get('redirect_uri') !== grant.redirect || b64url(createHash('sha256').update(verifier).digest()) !== grant.challenge) {
          return json(res, 400, { error: 'invalid_grant' });
        }
        const now = Math.floor(Date.now() / 1000);
        const idToken = sign({ iss: issuer, sub: grant.sub, aud: clientId, exp: now + 600, iat: now, nonce: grant.nonce, name: grant.name });
        return json(res, 200, { access_token: 'at', token_type: 'Bearer', expires_in: 600, id_token: idToken });
      }
      json(res, 404, { error: 'not_found' });
    })();
  });
  issuer = await listen(server);
  return {
    issuer,
    user: (sub, name) => (person = { sub, name }),
    stop: () => new Promise((r) => server.close(() => r())),
  };
}

export interface BotApi {
  url: string;
  calls: { method: string; params: Record<string, unknown> }[];
  stop(): Promise<void>;
}

export async function startBotApi(): Promise<BotApi> {
  const calls: BotApi['calls'] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const m = /^\/bot[^/]+\/(\w+)$/.exec(req.url ?? '');
      if (!m) return json(res, 404, { ok: false, description: 'Not Found' });
      const method = m[1] as string;
      const params = JSON.parse((await body(req)) || '{}') as Record<string, unknown>;
      calls.push({ method, params });
      if (method === 'getMe') return json(res, 200, { ok: true, result: { id: 4242, is_bot: true, first_name: 'Papan', username: 'papan_e2e_bot' } });
      if (method === 'savePreparedInlineMessage') return json(res, 200, { ok: true, result: { id: `prepared-${calls.length}`, expiration_date: 0 } });
      json(res, 200, { ok: true, result: true });
    })();
  });
  const url = await listen(server);
  return { url, calls, stop: () => new Promise((r) => server.close(() => r())) };
}

/** Launch data as Telegram signs it for the bot (Telegram's "Validating data received via the Mini App"). */
export function telegramInitData(botToken: string, user: { id: number; first_name: string; username?: string; language_code?: string }, authDate = Math.floor(Date.now() / 1000)): string {
  const fields: [string, string][] = [
    ['query_id', 'AAHdF6IQAAAAAN0XohDhrOrc'],
    ['user', JSON.stringify(user)],
    ['auth_date', String(authDate)],
  ];
  const dataCheckString = [...fields].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => `${k}=${v}`).join('\n');
  const secret = createHmac('sha256', 'WebAppData').update(botToken).digest();
  const hash = createHmac('sha256', secret).update(dataCheckString).digest('hex');
  return new URLSearchParams([...fields, ['hash', hash]]).toString();
}

/**
 * A stand-in of telegram-web-app.js (served in place of https://telegram.org's): Telegram.WebApp
 * with the launch data of the fragment and buttons that record what the page does with them
 * (window.__telegram: the calls; window.__telegramMain(): presses the main button).
 */
export function telegramScript(initData: string): string {
  return `
(function () {
  var log = [];
  window.__telegram = log;
  var mainClick = null, backClick = null;
  var button = function (name) {
    var b = {
      text: '', isVisible: false,
      setText: function (t) { b.text = t; log.push(name + '.setText:' + t); return b; },
      show: function () { b.isVisible = true; log.push(name + '.show'); return b; },
      hide: function () { b.isVisible = false; log.push(name + '.hide'); return b; },
      onClick: function (cb) { if (name === 'MainButton') mainClick = cb; else backClick = cb; return b; },
      offClick: function () { if (name === 'MainButton') mainClick = null; else backClick = null; return b; }
    };
    return b;
  };
  window.__telegramMain = function () { if (mainClick) mainClick(); };
  window.__telegramBack = function () { if (backClick) backClick(); };
  window.Telegram = { WebApp: {
    initData: ${JSON.stringify(initData)},
    initDataUnsafe: {},
    colorScheme: 'dark',
    themeParams: { bg_color: '#17212b', text_color: '#f5f5f5', hint_color: '#708499', button_color: '#5288c1', button_text_color: '#ffffff', secondary_bg_color: '#232e3c' },
    ready: function () { log.push('ready'); },
    expand: function () { log.push('expand'); },
    onEvent: function () {},
    MainButton: button('MainButton'),
    BackButton: button('BackButton'),
    shareMessage: function (id) { log.push('shareMessage:' + id); },
    openTelegramLink: function (u) { log.push('openTelegramLink:' + u); }
  } };
})();`;
}

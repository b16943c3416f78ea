import { describe, expect, it } from 'vitest';
import { backoffMs, Connection, socketUrl, type SocketLike } from './socket';

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: Record<string, unknown>[] = [];
  onopen: ((ev: unknown) => void) | null = null;
  onclose: ((ev: unknown) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  send(data: string): void {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }
  close(): void {
    this.readyState = 3;
    this.onclose?.({});
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
  deliver(m: unknown): void {
    this.onmessage?.({ data: JSON.stringify(m) });
  }
  drop(): void {
    this.readyState = 3;
    this.onclose?.({});
  }
}

function harness() {
  const sockets: FakeSocket[] = [];
  const timers: { f: () => void; ms: number }[] = [];
  let secret: string | undefined;
  const conn = new Connection({
    url: 'ws://x/ws',
    identity: () => (secret ? { name: 'Ana', secret } : { name: 'Ana' }),
    onSecret: (s) => (secret = s),
    createSocket: () => {
      const s = new FakeSocket();
      sockets.push(s);
      return s;
    },
    setTimer: (f, ms) => {
      timers.push({ f, ms });
      return timers.length;
    },
    clearTimer: () => {},
  });
  return { conn, sockets, timers, secret: () => secret };
}

const state = (game: string, version: number) => ({ type: 'state', game, version, state: { id: game, version } });

describe('connection', () => {
  it('says hello, keeps the secret and sends what was queued after the welcome', () => {
    const h = harness();
    h.conn.connect();
    h.conn.send({ type: 'create', mode: 'computer', variant: 'russian' });
    const s = h.sockets[0] as FakeSocket;
    s.open();
    expect(s.sent.map((m) => m['type'])).toEqual(['hello']);
    expect(s.sent[0]?.['name']).toBe('Ana');
    s.deliver({ type: 'welcome', player: { id: 'g1', name: 'Ana', account: false }, secret: 'abc' });
    expect(h.secret()).toBe('abc');
    expect(h.conn.status).toBe('open');
    expect(h.conn.playerId).toBe('g1');
    expect(s.sent.map((m) => m['type'])).toEqual(['hello', 'create']);
  });

  it('reconnects after a drop and resumes followed games from the last version', () => {
    const h = harness();
    const statuses: string[] = [];
    h.conn.onStatus((st) => statuses.push(st));
    h.conn.connect();
    const a = h.sockets[0] as FakeSocket;
    a.open();
    a.deliver({ type: 'welcome', player: { id: 'g1', name: 'Ana', account: false }, secret: 'abc' });
    h.conn.follow('G7');
    expect(a.sent.at(-1)).toMatchObject({ type: 'resume', game: 'G7' });
    a.deliver(state('G7', 3));
    a.deliver({ type: 'event', game: 'G7', version: 4, event: { kind: 'move' }, state: { version: 4 } });
    expect(h.conn.versionOf('G7')).toBe(4);
    a.drop();
    expect(statuses).toEqual(['open', 'lost']);
    expect(h.timers).toHaveLength(1);
    expect(h.timers[0]?.ms).toBe(backoffMs(0));
    h.timers[0]?.f();
    const b = h.sockets[1] as FakeSocket;
    b.open();
    expect(b.sent[0]).toMatchObject({ type: 'hello', secret: 'abc' });
    b.deliver({ type: 'welcome', player: { id: 'g1', name: 'Ana', account: false } });
    expect(b.sent[1]).toMatchObject({ type: 'resume', game: 'G7', last_version: 4 });
    expect(statuses).toEqual(['open', 'lost', 'open']);
  });

  it('ignores frames older than the version it has', () => {
    const h = harness();
    const seen: number[] = [];
    h.conn.onMessage((m) => {
      if (m.type === 'state' || m.type === 'event') seen.push(m.version);
    });
    h.conn.connect();
    const a = h.sockets[0] as FakeSocket;
    a.open();
    a.deliver({ type: 'welcome', player: { id: 'g1', name: 'Ana', account: false } });
    h.conn.follow('G1');
    a.deliver(state('G1', 5));
    a.deliver(state('G1', 4));
    a.deliver(state('G1', 6));
    expect(seen).toEqual([5, 6]);
  });

  it('answers requests by their ref, errors included', async () => {
    const h = harness();
    h.conn.connect();
    const a = h.sockets[0] as FakeSocket;
    a.open();
    a.deliver({ type: 'welcome', player: { id: 'g1', name: 'Ana', account: false } });
    const p = h.conn.request({ type: 'join', invite: 'zz' });
    const id = a.sent.at(-1)?.['id'];
    a.deliver({ type: 'error', code: 'invite_invalid', message: 'no', ref: id });
    await expect(p).resolves.toMatchObject({ type: 'error', code: 'invite_invalid' });
  });

  it('backs off up to 5 seconds and builds the socket URL', () => {
    expect([0, 1, 2, 3, 4, 5, 9].map(backoffMs)).toEqual([300, 600, 1200, 2400, 4800, 5000, 5000]);
    expect(socketUrl({ protocol: 'https:', host: 'a.b' })).toBe('wss://a.b/ws');
    expect(socketUrl({ protocol: 'http:', host: '127.0.0.1:9' })).toBe('ws://127.0.0.1:9/ws');
  });
});

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

/** A connection that said hello and got its welcome: the harness and its socket. */
function welcomed() {
  const h = harness();
  h.conn.connect();
  const a = h.sockets[0] as FakeSocket;
  a.open();
  a.deliver({ type: 'welcome', player: { id: 'g1', name: 'Ana', account: false } });
  return { h, a };
}

/** The versions of the state and event messages the connection hands on, in order. */
function versionsSeen(h: ReturnType<typeof harness>): number[] {
  const seen: number[] = [];
  h.conn.onMessage((m) => {
    if (m.type === 'state' || m.type === 'event') seen.push(m.version);
  });
  return seen;
}

// The full state the connection builds for each event (from its delta), in order.
function eventStates(h: ReturnType<typeof harness>): Record<string, unknown>[] {
  const got: Record<string, unknown>[] = [];
  h.conn.onMessage((m) => {
    if (m.type === 'event') got.push(m.state as unknown as Record<string, unknown>);
  });
  return got;
}

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
    const { h, a } = welcomed();
    const seen = versionsSeen(h);
    h.conn.follow('G1');
    a.deliver(state('G1', 5));
    a.deliver(state('G1', 4));
    a.deliver(state('G1', 6));
    expect(seen).toEqual([5, 6]);
  });

  it('builds each event\'s full state from its delta, and the move list from moves_keep/moves_add', () => {
    const { h, a } = welcomed();
    const got = eventStates(h);
    h.conn.follow('G2');
    const mv = (ply: number) => ({ ply, color: ply % 2 ? 'black' : 'white', text: `m${ply}`, path: [ply, ply + 4], captures: [] });
    a.deliver({ type: 'state', game: 'G2', version: 2, state: { id: 'G2', version: 2, ply: 2, turn: 'white', moves: [mv(0), mv(1)], result: null } });
    a.deliver({ type: 'event', game: 'G2', version: 3, event: { kind: 'move' }, delta: { version: 3, ply: 3, turn: 'black', moves_keep: 2, moves_add: [mv(2)] } });
    expect(got.at(-1)).toEqual({ id: 'G2', version: 3, ply: 3, turn: 'black', moves: [mv(0), mv(1), mv(2)], result: null });
    expect(got.at(-1)).not.toHaveProperty('moves_keep');
    // an undo cuts the list
    a.deliver({ type: 'event', game: 'G2', version: 4, event: { kind: 'undo' }, delta: { version: 4, ply: 1, moves_keep: 1, moves_add: [] } });
    expect(got.at(-1)).toMatchObject({ version: 4, ply: 1, turn: 'black', moves: [mv(0)] });
    // a field left out of the delta keeps its value
    a.deliver({ type: 'event', game: 'G2', version: 5, event: { kind: 'resign' }, delta: { version: 5, result: { outcome: 'white_wins' } } });
    expect(got.at(-1)).toMatchObject({ version: 5, ply: 1, moves: [mv(0)], result: { outcome: 'white_wins' } });
    expect(h.conn.versionOf('G2')).toBe(5);
  });

  it('appends the chat lines of a delta (chat_add) and keeps the last 100', () => {
    const { h, a } = welcomed();
    const got = eventStates(h);
    h.conn.follow('G5');
    const line = (i: number) => ({ by: i % 2 ? 'black' : 'white', ply: 0, time_ms: 1000 + i, text: `line ${i}` });
    const lines = Array.from({ length: 99 }, (_, i) => line(i));
    a.deliver({ type: 'state', game: 'G5', version: 2, state: { id: 'G5', version: 2, moves: [], chat: lines } });
    a.deliver({ type: 'event', game: 'G5', version: 3, event: { kind: 'chat', by: 'black', text: 'line 99' }, delta: { version: 3, chat_add: [line(99)] } });
    expect(got.at(-1)?.['chat']).toEqual([...lines, line(99)]);
    expect(got.at(-1)).not.toHaveProperty('chat_add');
    a.deliver({ type: 'event', game: 'G5', version: 4, event: { kind: 'chat', by: 'white', text: 'line 100' }, delta: { version: 4, chat_add: [line(100)] } });
    const chat = got.at(-1)?.['chat'] as { text: string }[];
    expect(chat).toHaveLength(100);
    expect(chat[0]?.text).toBe('line 1');
    expect(chat[99]?.text).toBe('line 100');
    // a move leaves the chat as it was
    a.deliver({ type: 'event', game: 'G5', version: 5, event: { kind: 'move' }, delta: { version: 5, moves_keep: 0, moves_add: [] } });
    expect(got.at(-1)?.['chat']).toBe(chat);
  });

  it('asks for the whole state when a delta misses its base, and drops old events', () => {
    const { h, a } = welcomed();
    const seen = versionsSeen(h);
    h.conn.follow('G3');
    a.deliver({ type: 'state', game: 'G3', version: 5, state: { id: 'G3', version: 5, moves: [] } });
    a.deliver({ type: 'event', game: 'G3', version: 5, event: { kind: 'move' }, delta: { version: 5 } });
    a.deliver({ type: 'event', game: 'G3', version: 7, event: { kind: 'move' }, delta: { version: 7 } });
    expect(seen).toEqual([5]);
    expect(a.sent.at(-1)).toEqual({ type: 'resume', game: 'G3', id: expect.any(Number) });
    // a delta that does not fit the list is a gap too
    a.deliver({ type: 'state', game: 'G3', version: 7, state: { id: 'G3', version: 7, moves: [] } });
    a.deliver({ type: 'event', game: 'G3', version: 8, event: { kind: 'move' }, delta: { version: 8, moves_keep: 3, moves_add: [] } });
    expect(seen).toEqual([5, 7]);
    // a start event carries the whole state: taken without a base
    a.deliver({ type: 'event', game: 'G4', version: 1, event: { kind: 'start' }, state: { id: 'G4', version: 1, moves: [] } });
    expect(seen).toEqual([5, 7, 1]);
  });

  it('asks for the whole state when the follower holds none, even if one arrived before', () => {
    const { h, a } = welcomed();
    // the answer to `create` arrives before the game page listens
    a.deliver({ type: 'state', game: 'G6', version: 1, state: { id: 'G6', version: 1, moves: [] } });
    h.conn.follow('G6');
    expect(a.sent.at(-1)).toEqual({ type: 'resume', game: 'G6', id: expect.any(Number) });
  });

  it('resumes from a state it was given, and plays the missed deltas on it', () => {
    const { h, a } = welcomed();
    const got = eventStates(h);
    h.conn.follow('G5', { id: 'G5', version: 9, ply: 9, moves: [] } as never);
    expect(a.sent.at(-1)).toMatchObject({ type: 'resume', game: 'G5', last_version: 9 });
    a.deliver({ type: 'event', game: 'G5', version: 10, event: { kind: 'move' }, delta: { version: 10, ply: 10 } });
    expect(got).toEqual([{ id: 'G5', version: 10, ply: 10, moves: [] }]);
  });

  it('answers requests by their ref, errors included', async () => {
    const { h, a } = welcomed();
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

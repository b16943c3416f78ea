// The WebSocket client: one connection to the server that says hello, keeps the guest secret,
// reconnects by itself with back-off and, after a reconnect, resumes every game it follows from
// the last version it saw (the server then sends the missed events or a fresh state).
//
// The socket factory and the timer are injected, so the reconnect logic runs in unit tests
// without a network or a DOM.

import { applyDelta, parseServerMessage, type ClientMessage, type GameState, type Outgoing, type ServerMessage, type WireMessage } from './protocol';

export type ConnStatus = 'connecting' | 'open' | 'lost';

export interface SocketLike {
  readyState: number;
  send(data: string): void;
  close(): void;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
}

export interface Identity {
  name: string;
  /** guest secret from an earlier welcome */
  secret?: string;
  /** session token of a signed-in account */
  token?: string;
}

export interface ConnectionOptions {
  url: string;
  identity: () => Identity;
  /** a new guest secret arrived: keep it */
  onSecret?: (secret: string) => void;
  createSocket?: (url: string) => SocketLike;
  setTimer?: (f: () => void, ms: number) => unknown;
  clearTimer?: (t: unknown) => void;
}

const OPEN = 1;

/** Back-off before reconnect attempt n (0-based): 0.3 s doubling up to 5 s. */
export function backoffMs(attempt: number): number {
  return Math.min(5000, 300 * 2 ** Math.min(attempt, 5));
}

type Listener = (m: ServerMessage) => void;

export class Connection {
  private ws: SocketLike | null = null;
  private nextId = 1;
  private attempt = 0;
  private timer: unknown = null;
  private closedByUs = false;
  private welcomed = false;
  private readonly queue: string[] = [];
  private readonly listeners = new Set<Listener>();
  private readonly statusListeners = new Set<(s: ConnStatus) => void>();
  private readonly pending = new Map<number, { resolve: (m: ServerMessage) => void; reject: (e: Error) => void }>();
  /** games followed: id -> last version seen */
  private readonly games = new Map<string, number>();
  /** the full state of each game seen: the base of its next event's delta */
  private readonly states = new Map<string, GameState>();
  private statusValue: ConnStatus = 'connecting';
  playerId: string | null = null;
  playerName: string | null = null;

  constructor(private readonly opts: ConnectionOptions) {}

  get status(): ConnStatus {
    return this.statusValue;
  }

  connect(): void {
    this.closedByUs = false;
    this.open();
  }

  close(): void {
    this.closedByUs = true;
    if (this.timer !== null) (this.opts.clearTimer ?? clearTimeout)(this.timer as ReturnType<typeof setTimeout>);
    this.timer = null;
    this.ws?.close();
    this.ws = null;
  }

  onMessage(f: Listener): () => void {
    this.listeners.add(f);
    return () => this.listeners.delete(f);
  }

  onStatus(f: (s: ConnStatus) => void): () => void {
    this.statusListeners.add(f);
    return () => this.statusListeners.delete(f);
  }

  /** Send a message (queued until the connection is open and welcomed). Returns its id. */
  send(m: Outgoing): number {
    const id = this.nextId++;
    const text = JSON.stringify({ ...m, id });
    if (this.ws && this.ws.readyState === OPEN && (this.welcomed || m.type === 'hello')) this.ws.send(text);
    else this.queue.push(text);
    return id;
  }

  /** Send and wait for the reply that names this request ("ref"), error replies included. */
  request(m: Outgoing, timeoutMs = 15000): Promise<ServerMessage> {
    const id = this.send(m);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      const set = this.opts.setTimer ?? ((f: () => void, ms: number) => setTimeout(f, ms));
      set(() => {
        if (this.pending.delete(id)) reject(new Error(`no answer to '${m.type}'`));
      }, timeoutMs);
    });
  }

  /** Follow a game: resume it now and after every reconnect (from `known`, a state already held). */
  follow(game: string, known?: GameState): void {
    // Without a state the caller holds, the whole state is asked for (whatever arrived before
    // the caller listened, e.g. the answer to `create`, it did not see).
    if (!this.games.has(game)) {
      if (known) this.states.set(game, known);
      this.games.set(game, known?.version ?? -1);
    }
    const v = this.games.get(game) ?? -1;
    this.send(v >= 0 ? { type: 'resume', game, last_version: v } : { type: 'resume', game });
  }

  unfollow(game: string): void {
    this.games.delete(game);
    this.states.delete(game);
  }

  /** The last version seen of a followed game (-1: none yet). */
  versionOf(game: string): number {
    return this.games.get(game) ?? -1;
  }

  /** Say hello again on the open socket (a new nickname); the welcome updates the player. */
  rehello(): void {
    if (!this.ws || this.ws.readyState !== OPEN) return; // the next connect says hello anyway
    this.ws.send(JSON.stringify({ ...this.helloMessage(), id: this.nextId++ }));
  }

  private helloMessage(): Outgoing {
    const who = this.opts.identity();
    return who.token
      ? { type: 'hello', token: who.token }
      : who.secret
        ? { type: 'hello', name: who.name, secret: who.secret }
        : { type: 'hello', name: who.name };
  }

  private setStatus(s: ConnStatus): void {
    if (s === this.statusValue) return;
    this.statusValue = s;
    for (const f of this.statusListeners) f(s);
  }

  private open(): void {
    const create = this.opts.createSocket ?? ((url: string) => new WebSocket(url) as unknown as SocketLike);
    let ws: SocketLike;
    try {
      ws = create(this.opts.url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    this.welcomed = false;
    ws.onopen = () => {
      this.attempt = 0;
      ws.send(JSON.stringify({ ...this.helloMessage(), id: this.nextId++ }));
    };
    ws.onmessage = (ev) => {
      if (typeof ev.data !== 'string') return;
      const m = parseServerMessage(ev.data);
      const full = m ? this.withState(m) : null;
      if (full) this.receive(full);
    };
    ws.onerror = () => {
      /* onclose follows */
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.welcomed = false;
      if (this.closedByUs) return;
      this.setStatus('lost');
      this.scheduleReconnect();
    };
  }

  private scheduleReconnect(): void {
    if (this.closedByUs || this.timer !== null) return;
    const set = this.opts.setTimer ?? ((f: () => void, ms: number) => setTimeout(f, ms));
    this.timer = set(() => {
      this.timer = null;
      this.open();
    }, backoffMs(this.attempt++));
  }

  /**
   * Events carry deltas: the full state after each comes from the state before it. An event
   * without its base (a version missed) asks for the whole state and is dropped; an old one too.
   */
  private withState(m: WireMessage): ServerMessage | null {
    if (m.type === 'state') {
      const have = this.states.get(m.game);
      if (!have || m.version >= have.version) this.states.set(m.game, m.state);
      return m;
    }
    if (m.type !== 'event') return m;
    const have = this.states.get(m.game);
    if (m.state) {
      if (have && m.version < have.version) return null;
      this.states.set(m.game, m.state);
      return { ...m, state: m.state };
    }
    if (have && m.version <= have.version) return null;
    const next = have && m.delta && m.version === have.version + 1 ? applyDelta(have, m.delta) : null;
    if (!next) {
      this.states.delete(m.game);
      if (this.games.has(m.game)) {
        this.games.set(m.game, -1);
        this.ws?.send(JSON.stringify({ type: 'resume', game: m.game, id: this.nextId++ } satisfies ClientMessage));
      }
      return null;
    }
    this.states.set(m.game, next);
    const { delta: _delta, ...rest } = m;
    return { ...rest, state: next };
  }

  private receive(m: ServerMessage): void {
    if (m.type === 'welcome') {
      this.welcomed = true;
      this.playerId = m.player.id;
      this.playerName = m.player.name;
      if (m.secret) this.opts.onSecret?.(m.secret);
      this.setStatus('open');
      // resume what we follow, then what was queued while away
      for (const [game, v] of this.games) {
        const msg: ClientMessage = v >= 0 ? { type: 'resume', game, last_version: v, id: this.nextId++ } : { type: 'resume', game, id: this.nextId++ };
        this.ws?.send(JSON.stringify(msg));
      }
      const queued = this.queue.splice(0).filter((t) => !t.includes('"type":"resume"'));
      for (const t of queued) this.ws?.send(t);
    }
    if ((m.type === 'state' || m.type === 'event') && this.games.has(m.game)) {
      const known = this.games.get(m.game) ?? -1;
      if (m.version < known) return; // an old frame: ignore
      this.games.set(m.game, m.version);
    }
    if ('ref' in m && typeof m.ref === 'number') {
      const p = this.pending.get(m.ref);
      if (p) {
        this.pending.delete(m.ref);
        p.resolve(m);
      }
    }
    for (const f of this.listeners) f(m);
  }
}

/** The newest state of a game among what arrived (the Connection gives every event its full state). */
export function stateOf(m: ServerMessage): GameState | null {
  return m.type === 'state' || m.type === 'event' ? m.state : null;
}

/** ws://host/ws or wss://host/ws for a page location. */
export function socketUrl(loc: { protocol: string; host: string }): string {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}/ws`;
}

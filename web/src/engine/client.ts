// The page's side of the analysis workers. Two workers run the same WebAssembly module: `rules`
// answers at once (load a game, legal moves, PDN, set-up checks) and `search` runs the engine,
// so a move on the analysis board never waits behind a search. Stopping a search ends its worker
// (the module cannot be interrupted from outside); the next search starts a fresh one, which
// costs the compiled module's instantiation and the transposition table's contents.
//
// Only the analysis board and the game review import this file (dynamically), so the module
// is fetched on those pages only.

import type { AnalysisLine, AnalysisResult, GameSpec, Limits, PdnGameJson, WasmGame, WorkerReply, WorkerRequest } from './types';

type Body = WorkerRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
  onInfo?: (line: AnalysisLine) => void;
}

export class StoppedError extends Error {
  override name = 'StoppedError';
  constructor() {
    super('analysis stopped');
  }
}

/** A worker and its open requests. */
class Channel {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(private readonly make: () => Worker) {}

  get busy(): boolean {
    return this.pending.size > 0;
  }

  request<T>(body: Body, onInfo?: (line: AnalysisLine) => void): Promise<T> {
    const w = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, ...(onInfo ? { onInfo } : {}) });
      w.postMessage({ ...body, id } as WorkerRequest);
    });
  }

  /** Ends the worker; every open request fails with StoppedError. */
  kill(): void {
    this.worker?.terminate();
    this.worker = null;
    const open = [...this.pending.values()];
    this.pending.clear();
    for (const p of open) p.reject(new StoppedError());
  }

  private start(): Worker {
    const w = this.make();
    w.onmessage = (e: MessageEvent<WorkerReply>) => {
      const r = e.data;
      const p = this.pending.get(r.id);
      if (!p) return;
      if (r.kind === 'info') {
        p.onInfo?.(r.line);
        return;
      }
      this.pending.delete(r.id);
      if (r.kind === 'ok') p.resolve(r.value);
      else if (r.kind === 'error') p.reject(new Error(r.message));
    };
    w.onerror = (e: ErrorEvent) => {
      const open = [...this.pending.values()];
      this.pending.clear();
      this.worker = null;
      for (const p of open) p.reject(new Error(e.message || 'the engine worker failed'));
    };
    this.worker = w;
    return w;
  }
}

const makeWorker = (): Worker => new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });

export class EngineClient {
  private readonly rules = new Channel(makeWorker);
  private readonly search = new Channel(makeWorker);

  load(spec: GameSpec): Promise<WasmGame> {
    return this.rules.request<WasmGame>({ kind: 'load', spec });
  }

  /** The game of `spec` after one more move (a move text or a landing path). */
  play(spec: GameSpec, move: string): Promise<WasmGame> {
    return this.rules.request<WasmGame>({ kind: 'play', spec, move });
  }

  checkSetup(variant: string, fen: string): Promise<{ fen: string } | { error: string }> {
    return this.rules.request({ kind: 'checkSetup', variant, fen });
  }

  readPdn(text: string, defaultVariant: string): Promise<PdnGameJson[]> {
    return this.rules.request({ kind: 'readPdn', text, defaultVariant });
  }

  writePdn(spec: GameSpec, tags: [string, string][]): Promise<string> {
    return this.rules.request({ kind: 'writePdn', spec, tags });
  }

  /** Searches a position; lines stream to onInfo. A stop() rejects it with StoppedError. */
  analyse(spec: GameSpec, limits: Limits, onInfo?: (line: AnalysisLine) => void): Promise<AnalysisResult> {
    return this.search.request<AnalysisResult>({ kind: 'analyse', spec, limits }, onInfo);
  }

  get searching(): boolean {
    return this.search.busy;
  }

  /** Ends every running or queued search at once. */
  stop(): void {
    if (this.search.busy) this.search.kill();
  }

  destroy(): void {
    this.search.kill();
    this.rules.kill();
  }
}

// The analysis worker: one WebAssembly instance of the rules core and the engine, answering the
// page's requests one at a time (types.ts). An analysis streams its lines as it finds them; the
// page stops one by ending the worker (client.ts), since the module cannot look at its message
// queue while it searches.

import { openModule, specKey, type PapanModule } from './module';
import type { GameSpec, WorkerReply, WorkerRequest } from './types';

// The worker's global scope (the DOM library is the one this project compiles against).
const scope = self as unknown as { postMessage(r: WorkerReply): void; onmessage: ((e: MessageEvent<WorkerRequest>) => void) | null };

const wasmUrl = new URL('./generated/papan-engine.wasm', import.meta.url).href;
const ready: Promise<PapanModule> = openModule({ locateFile: () => wasmUrl });
let loaded = '';

const post = (r: WorkerReply): void => scope.postMessage(r);

function ensure(m: PapanModule, spec: GameSpec): ReturnType<PapanModule['load']> | null {
  const key = specKey(spec);
  if (key === loaded) return null;
  const game = m.load(spec);
  loaded = key;
  return game;
}

function handle(m: PapanModule, req: WorkerRequest): unknown {
  switch (req.kind) {
    case 'load': {
      loaded = '';
      return ensure(m, req.spec);
    }
    case 'play': {
      ensure(m, req.spec);
      loaded = '';
      const game = m.play(req.move);
      loaded = specKey({ ...req.spec, moves: [...req.spec.moves, req.move] });
      return game;
    }
    case 'analyse':
      ensure(m, req.spec);
      return m.analyse(req.limits, (line) => post({ id: req.id, kind: 'info', line }));
    case 'checkSetup':
      return m.checkSetup(req.variant, req.fen);
    case 'readPdn':
      return m.readPdn(req.text, req.defaultVariant);
    case 'writePdn':
      ensure(m, req.spec);
      return m.writePdn(req.tags);
  }
}

scope.onmessage = (e: MessageEvent<WorkerRequest>): void => {
  const req = e.data;
  void ready.then(
    (m) => {
      try {
        post({ id: req.id, kind: 'ok', value: handle(m, req) });
      } catch (err) {
        loaded = '';
        post({ id: req.id, kind: 'error', message: (err as Error).message });
      }
    },
    (err: unknown) => post({ id: req.id, kind: 'error', message: `the engine could not start: ${(err as Error).message}` }),
  );
};

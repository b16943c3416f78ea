// The client's wire types against the examples of docs/protocol.md (the source of truth).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  CLIENT_TYPES, CLOCK_FIELDS, ERROR_CODES, EVENT_KINDS, GAME_STATE_FIELDS, OUTCOMES, REASONS, SERVER_TYPES, STATUSES,
  parseServerMessage,
} from './protocol';

const DOC = join(dirname(fileURLToPath(import.meta.url)), '../../../docs/protocol.md');
// the server's one table of the protocol's names
const NAMES = join(dirname(fileURLToPath(import.meta.url)), '../../../server/src/wire/names.cpp');

function examples(): Record<string, unknown>[] {
  const text = readFileSync(DOC, 'utf8');
  const out: Record<string, unknown>[] = [];
  for (const m of text.matchAll(/```json\n([\s\S]*?)```/g)) {
    try {
      out.push(JSON.parse(m[1] as string) as Record<string, unknown>);
    } catch {
      /* a cut example ("state": {} ... ) that is not JSON */
    }
  }
  return out;
}

// never skipped: the repository holds the document, so a missing one is a failure (readFileSync throws)
describe('docs/protocol.md', () => {
  it('has an example of every message type the client sends and reads', () => {
    const types = new Set(examples().map((e) => e['type']).filter((t): t is string => typeof t === 'string'));
    for (const t of CLIENT_TYPES) expect(types, `client message '${t}'`).toContain(t);
    for (const t of SERVER_TYPES) expect(types, `server message '${t}'`).toContain(t);
  });

  it('gives the game state exactly the fields the client reads', () => {
    const state = examples().find((e) => e['type'] === 'state');
    expect(state).toBeDefined();
    const fields = Object.keys((state as { state: Record<string, unknown> }).state).sort();
    expect(fields).toEqual([...GAME_STATE_FIELDS].sort());
    const parsed = parseServerMessage(JSON.stringify(state));
    expect(parsed?.type).toBe('state');
  });

  it('gives the clock exactly the fields the client reads, started included', () => {
    const state = examples().find((e) => e['type'] === 'state') as { state: { clock: Record<string, unknown> } };
    expect(Object.keys(state.state.clock).sort()).toEqual([...CLOCK_FIELDS].sort());
    expect(state.state.clock['started']).toEqual({ white: true, black: true });
  });
});

describe('server frames', () => {
  it('reads JSON objects with a type and refuses anything else', () => {
    expect(parseServerMessage('{"type":"resumed","game":"g","version":3}')).toMatchObject({ type: 'resumed', version: 3 });
    expect(parseServerMessage('not json')).toBeNull();
    expect(parseServerMessage('[1,2]')).toBeNull();
    expect(parseServerMessage('{"kind":"x"}')).toBeNull();
  });
});

// The closed unions of protocol.ts name what the server sends: each name of each list is in the
// server's table of names and in the document (a name the server drops or renames fails here).
describe('the protocol\'s enums', () => {
  const doc = readFileSync(DOC, 'utf8');
  const names = readFileSync(NAMES, 'utf8');
  const lists = { STATUSES, OUTCOMES, REASONS, EVENT_KINDS, ERROR_CODES };
  for (const [list, members] of Object.entries(lists)) {
    it(`${list}: every name is the server's and documented`, () => {
      for (const name of members.filter((m) => m !== '')) {
        expect(names, `${list} '${name}' in server/src/wire/names.cpp`).toContain(`"${name}"`);
        expect(doc, `${list} '${name}' in docs/protocol.md`).toMatch(new RegExp(`\\b${name}\\b`));
      }
    });
  }
});

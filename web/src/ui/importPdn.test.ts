// The import's answers (docs/protocol.md, "Importing PDN") as the player reads them; the stored
// answer is the document's own example, so the client and the document cannot drift apart.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { format, type UiKey } from '../i18n';
import type { ImportReply } from '../net/protocol';
import { readImportAnswer, rejectedLine } from './importPdn';

const DOC = join(dirname(fileURLToPath(import.meta.url)), '../../../docs/protocol.md');

function docExample(): ImportReply {
  const text = readFileSync(DOC, 'utf8');
  const at = text.indexOf('### Importing PDN');
  expect(at).toBeGreaterThan(0);
  const m = /```json\n([\s\S]*?)```/.exec(text.slice(at));
  return JSON.parse(m?.[1] ?? 'null') as ImportReply;
}

const en = { t: (k: UiKey, p?: Record<string, string | number>) => format('en', k, p) };
const id = { t: (k: UiKey, p?: Record<string, string | number>) => format('id', k, p) };

describe('POST /api/import answers', () => {
  it('reads the stored games and the rejected ones of the documented example', () => {
    const o = readImportAnswer(201, docExample(), null);
    expect(o.kind).toBe('stored');
    if (o.kind !== 'stored') return;
    expect(o.encoding).toBe('latin-1');
    expect(o.stored).toHaveLength(1);
    expect(o.stored[0]?.link).toBe(`/#/game/${o.stored[0]?.id}`);
    expect(o.rejected).toHaveLength(1);
    const line = rejectedLine(en, o.rejected[0]!);
    expect(line.startsWith("Game 2: move 3 (black): illegal move '23x14'")).toBe(true);
    expect(rejectedLine(id, o.rejected[0]!).startsWith('Partai 2: move 3')).toBe(true);
    expect(rejectedLine(en, { game: 4, move: 0, line: 9, kind: 'syntax', reason: "line 9: unexpected ')'" })).toBe("Game 4: line 9: unexpected ')'");
  });

  it('names each refusal in the player\'s language, with the rejected games of a 422', () => {
    const none = readImportAnswer(422, { error: 'no_good_games', message: 'x', rejected: [{ game: 1, move: 1, line: 1, kind: 'no_variant', reason: 'r' }] }, null);
    expect(none).toMatchObject({ kind: 'refused', key: 'import_no_good_games' });
    expect(none.rejected).toHaveLength(1);
    expect(readImportAnswer(401, { error: 'not_signed_in', message: '' }, null)).toMatchObject({ key: 'import_sign_in' });
    expect(readImportAnswer(413, { error: 'body_too_large', message: '' }, null)).toMatchObject({ key: 'import_too_large' });
    expect(readImportAnswer(400, { error: 'no_games', message: '' }, null)).toMatchObject({ key: 'import_no_games' });
    const wait = readImportAnswer(429, { error: 'too_many_imports', message: '' }, '1800');
    expect(wait).toMatchObject({ key: 'import_too_many', params: { min: 30 } });
    expect(format('id', 'import_too_many', { min: 30 })).toBe('Terlalu banyak impor; coba lagi dalam 30 menit.');
    expect(readImportAnswer(500, null, null)).toMatchObject({ key: 'err_server', params: { status: 500 } });
    // a 201 without the list is not read as a success
    expect(readImportAnswer(201, { error: 'x' }, null).kind).toBe('refused');
  });
});

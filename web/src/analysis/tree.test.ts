import { describe, expect, it } from 'vitest';
import { addMove, deleteFrom, endOfLine, firstChild, lineThrough, lineTree, movesTo, newTree, parentOf, pdnMovetext, promote, ROOT, tokens, withVariations, type TreeMove } from './tree';

const mv = (text: string): TreeMove => {
  const [a, b] = text.split('-').map(Number);
  return { path: [a as number, b as number], captures: [], text };
};

describe('variation tree', () => {
  it('a new move after stepping back opens a branch; the same move again goes down it', () => {
    let { tree, last } = lineTree([mv('32-28'), mv('19-23'), mv('28-19')]);
    const back = parentOf(tree, parentOf(tree, last)); // after 32-28
    const r = addMove(tree, back, mv('18-22'));
    tree = r.tree;
    expect(movesTo(tree, r.id).map((m) => m.text)).toEqual(['32-28', '18-22']);
    expect(lineThrough(tree, back).map((m) => m.text)).toEqual(['32-28', '19-23', '28-19']); // main line kept
    const again = addMove(tree, back, mv('19-23'));
    expect(again.tree).toBe(tree);
    expect(again.id).toBe(firstChild(tree, back));
    expect(endOfLine(tree, ROOT)).toBe(last);
  });

  it('prints variations in brackets after the move they replace, with move numbers', () => {
    let { tree } = lineTree([mv('32-28'), mv('19-23'), mv('28-19')]);
    const a = firstChild(tree, ROOT);
    tree = addMove(tree, a, mv('18-22')).tree; // replaces 19-23
    tree = addMove(tree, ROOT, mv('31-27')).tree; // replaces 32-28
    const text = tokens(tree, 0)
      .map((t) => (t.kind === 'move' ? `${t.number ? t.number + ' ' : ''}${t.text}` : t.kind === 'open' ? '(' : ')'))
      .join(' ');
    expect(text).toBe('1. 32-28 ( 1. 31-27 ) 1... 19-23 ( 1... 18-22 ) 2. 28-19');
  });

  it('exports the variations to PDN in brackets, with the core\'s tags and result', () => {
    let { tree } = lineTree([mv('32-28'), mv('19-23'), mv('28-19')]);
    const a = firstChild(tree, ROOT);
    tree = addMove(tree, a, mv('18-22')).tree;
    tree = addMove(tree, ROOT, mv('31-27')).tree;
    const movetext = pdnMovetext(tree, 0);
    expect(movetext).toBe('1. 32-28 (1. 31-27) 1... 19-23 (1... 18-22) 2. 28-19');
    const core = '[Event "Papan analysis"]\n[GameType "20"]\n\n1. 32-28 19-23 2. 28-19 *\n';
    expect(withVariations(core, movetext)).toBe('[Event "Papan analysis"]\n[GameType "20"]\n\n1. 32-28 (1. 31-27) 1... 19-23 (1... 18-22) 2. 28-19 *\n');
  });

  it('numbers a line that starts with the second side as 1...', () => {
    const { tree } = lineTree([mv('1-5'), mv('29-25')]);
    const t = tokens(tree, 1).filter((x) => x.kind === 'move').map((x) => (x.kind === 'move' ? x.number : null));
    expect(t).toEqual(['1...', '2.']);
  });

  it('deletes a branch and promotes one to the main line', () => {
    let { tree, last } = lineTree([mv('32-28'), mv('19-23')]);
    const b = addMove(tree, ROOT, mv('31-27'));
    tree = promote(b.tree, b.id);
    expect(lineThrough(tree, ROOT).map((m) => m.text)).toEqual(['31-27']);
    const d = deleteFrom(tree, b.id);
    expect(d.id).toBe(ROOT);
    expect(lineThrough(d.tree, ROOT).map((m) => m.text)).toEqual(['32-28', '19-23']);
    expect(d.tree.nodes.has(b.id)).toBe(false);
    expect(deleteFrom(newTree(), ROOT).id).toBe(ROOT);
    expect(movesTo(d.tree, last)).toHaveLength(2);
  });
});

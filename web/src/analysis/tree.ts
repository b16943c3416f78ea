// The analysis board's moves as a tree of variations. The root is the start position; a node is
// a move played from its parent's position. children[0] continues the line the node is on (the
// main line from the root); a new move after stepping back opens a branch (a later child). A move
// that is already a child is not added twice: playing it again goes down that branch.
//
// Pure data: every function returns a new tree or reads one; the moves come from the rules core
// (their paths identify them).

export interface TreeMove {
  path: number[];
  captures: number[];
  text: string;
}

export interface TreeNode {
  id: number;
  parent: number | null;
  /** null at the root */
  move: TreeMove | null;
  /** plies from the root */
  ply: number;
  children: number[];
}

export interface Tree {
  nodes: ReadonlyMap<number, TreeNode>;
  nextId: number;
}

export const ROOT = 0;

export function newTree(): Tree {
  return { nodes: new Map([[ROOT, { id: ROOT, parent: null, move: null, ply: 0, children: [] }]]), nextId: 1 };
}

export function node(t: Tree, id: number): TreeNode {
  const n = t.nodes.get(id);
  if (!n) throw new Error(`no node ${id} in the tree`);
  return n;
}

const samePath = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** Plays `move` after node `at`: the existing child with that path, or a new last child. */
export function addMove(t: Tree, at: number, move: TreeMove): { tree: Tree; id: number } {
  const parent = node(t, at);
  for (const c of parent.children) {
    if (samePath(node(t, c).move?.path ?? [], move.path)) return { tree: t, id: c };
  }
  const id = t.nextId;
  const nodes = new Map(t.nodes);
  nodes.set(id, { id, parent: at, move: { ...move, path: [...move.path], captures: [...move.captures] }, ply: parent.ply + 1, children: [] });
  nodes.set(at, { ...parent, children: [...parent.children, id] });
  return { tree: { nodes, nextId: id + 1 }, id };
}

/** A tree holding one line of moves from the root; the id of its last node. */
export function lineTree(moves: readonly TreeMove[]): { tree: Tree; last: number } {
  let tree = newTree();
  let at = ROOT;
  for (const m of moves) ({ tree, id: at } = addMove(tree, at, m));
  return { tree, last: at };
}

/** The nodes from the root's first move to `id`, in order. */
export function pathTo(t: Tree, id: number): TreeNode[] {
  const out: TreeNode[] = [];
  for (let n: TreeNode | undefined = node(t, id); n && n.parent !== null; n = t.nodes.get(n.parent)) out.push(n);
  return out.reverse();
}

/** The moves from the root to `id`. */
export function movesTo(t: Tree, id: number): TreeMove[] {
  return pathTo(t, id).map((n) => n.move as TreeMove);
}

/** The whole line through `id`: the moves to it, then its first children to the end. */
export function lineThrough(t: Tree, id: number): TreeMove[] {
  const out = movesTo(t, id);
  for (let n = node(t, id); n.children.length > 0; ) {
    n = node(t, n.children[0] as number);
    out.push(n.move as TreeMove);
  }
  return out;
}

export const parentOf = (t: Tree, id: number): number => node(t, id).parent ?? id;
export const firstChild = (t: Tree, id: number): number => node(t, id).children[0] ?? id;

/** The last node of the line through `id`. */
export function endOfLine(t: Tree, id: number): number {
  let n = node(t, id);
  while (n.children.length > 0) n = node(t, n.children[0] as number);
  return n.id;
}

/** Removes `id` and everything after it; the parent to show instead. The root stays. */
export function deleteFrom(t: Tree, id: number): { tree: Tree; id: number } {
  const n = node(t, id);
  if (n.parent === null) return { tree: t, id };
  const nodes = new Map(t.nodes);
  const drop = (x: number): void => {
    for (const c of node(t, x).children) drop(c);
    nodes.delete(x);
  };
  drop(id);
  const parent = node(t, n.parent);
  nodes.set(parent.id, { ...parent, children: parent.children.filter((c) => c !== id) });
  return { tree: { nodes, nextId: t.nextId }, id: parent.id };
}

/** Makes the branch holding `id` the first line at every fork from the root to it. */
export function promote(t: Tree, id: number): Tree {
  const nodes = new Map(t.nodes);
  for (const n of pathTo(t, id)) {
    const parent = nodes.get(n.parent as number) as TreeNode;
    nodes.set(parent.id, { ...parent, children: [n.id, ...parent.children.filter((c) => c !== n.id)] });
  }
  return { nodes, nextId: t.nextId };
}

/** What the move list shows: moves in reading order, variations in brackets after the move they replace. */
export type Token =
  | { kind: 'move'; id: number; ply: number; text: string; /** move number to print before it, if any */ number: string | null }
  | { kind: 'open'; depth: number }
  | { kind: 'close'; depth: number };

/**
 * Tokens of the whole tree. `firstMover` is 0 when the side to move at the root moves first in
 * each move pair (White in most variants), 1 when the root position has the second side to move
 * (move numbers then start with "1...").
 */
export function tokens(t: Tree, firstMover: 0 | 1): Token[] {
  const out: Token[] = [];
  const label = (ply: number, forced: boolean): string | null => {
    const k = ply - 1 + firstMover; // plies counted from a first-side move
    const num = Math.floor(k / 2) + 1;
    if (k % 2 === 0) return `${num}.`;
    return forced ? `${num}...` : null;
  };
  const walk = (start: number, depth: number, forceNumber: boolean): void => {
    let at = start;
    let force = forceNumber;
    for (;;) {
      const n = node(t, at);
      out.push({ kind: 'move', id: n.id, ply: n.ply, text: n.move?.text ?? '', number: label(n.ply, force) });
      force = false;
      const parent = node(t, n.parent as number);
      // the alternatives to this move, after it
      for (const alt of parent.children.slice(1)) {
        if (parent.children[0] !== n.id) break;
        out.push({ kind: 'open', depth: depth + 1 });
        walk(alt, depth + 1, true);
        out.push({ kind: 'close', depth: depth + 1 });
        force = true;
      }
      const next = n.children[0];
      if (next === undefined) return;
      at = next;
    }
  };
  const first = node(t, ROOT).children[0];
  if (first !== undefined) walk(first, 0, true);
  return out;
}

/** The PDN movetext of the whole tree: the main line with every variation in brackets (RAV). */
export function pdnMovetext(t: Tree, firstMover: 0 | 1): string {
  return tokens(t, firstMover)
    .map((k) => (k.kind === 'open' ? '(' : k.kind === 'close' ? ')' : k.number ? `${k.number} ${k.text}` : k.text))
    .join(' ')
    .replace(/\( /g, '(')
    .replace(/ \)/g, ')');
}

/**
 * A PDN text the rules core wrote for the main line, with its movetext replaced by the whole
 * tree's (variations included); the tags and the result stay the core's.
 */
export function withVariations(pdn: string, movetext: string): string {
  const split = pdn.search(/\n\s*\n/);
  const head = split >= 0 ? pdn.slice(0, split) : '';
  const body = split >= 0 ? pdn.slice(split).trim() : pdn.trim();
  const result = /(1-0|0-1|2-0|0-2|1-1|1\/2-1\/2|\*)\s*$/.exec(body)?.[1] ?? '*';
  return `${head}${head ? '\n\n' : ''}${movetext}${movetext ? ' ' : ''}${result}\n`;
}

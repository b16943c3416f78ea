// The engine lines shown while a multi-PV search streams in: line k of depth d replaces line k,
// and a deeper line k that now starts with the move of an older, lower-ranked line removes that
// line until its own search at the new depth arrives, so no move is shown twice.

import type { AnalysisLine } from '../engine/types';

const firstMove = (l: AnalysisLine): string => (l.move ? `${l.move.path.join('-')}/${l.move.captures.join(',')}` : '');

export function mergeLine(lines: readonly AnalysisLine[], line: AnalysisLine): AnalysisLine[] {
  const key = firstMove(line);
  return [...lines.filter((l) => l.multipv !== line.multipv && !(l.multipv > line.multipv && firstMove(l) === key)), line].sort((a, b) => a.multipv - b.multipv);
}

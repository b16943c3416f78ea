// Stepping through moves: the keys ←/→/Home/End (not while typing in a field) and a horizontal
// swipe on the board (phones). The pages decide what a step means.

export type Step = 'first' | 'prev' | 'next' | 'last';

/** The step a key asks for, or null. */
export function stepOfKey(key: string): Step | null {
  switch (key) {
    case 'ArrowLeft':
      return 'prev';
    case 'ArrowRight':
      return 'next';
    case 'Home':
      return 'first';
    case 'End':
      return 'last';
    default:
      return null;
  }
}

/** The step a pointer travel asks for: a mostly horizontal move of 40 px or more. */
export function stepOfSwipe(dx: number, dy: number): Step | null {
  if (Math.abs(dx) < 40 || Math.abs(dx) < 2 * Math.abs(dy)) return null;
  return dx < 0 ? 'next' : 'prev';
}

/** Listens for the keys on the document and swipes on `el`; returns the function that stops it. */
export function bindSteps(el: HTMLElement, onStep: (s: Step) => void): () => void {
  const key = (e: KeyboardEvent): void => {
    const t = e.target as HTMLElement | null;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable)) return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const s = stepOfKey(e.key);
    if (!s) return;
    e.preventDefault();
    onStep(s);
  };
  let start: { x: number; y: number; id: number } | null = null;
  const down = (e: PointerEvent): void => {
    start = e.pointerType === 'mouse' ? null : { x: e.clientX, y: e.clientY, id: e.pointerId };
  };
  const up = (e: PointerEvent): void => {
    if (!start || e.pointerId !== start.id) return;
    const s = stepOfSwipe(e.clientX - start.x, e.clientY - start.y);
    start = null;
    if (s) onStep(s);
  };
  document.addEventListener('keydown', key);
  el.addEventListener('pointerdown', down);
  el.addEventListener('pointerup', up);
  return () => {
    document.removeEventListener('keydown', key);
    el.removeEventListener('pointerdown', down);
    el.removeEventListener('pointerup', up);
  };
}

/** Copies text to the clipboard; without the async clipboard (plain http), through a selected field. */
export async function copyToClipboard(text: string, field: HTMLInputElement | null): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    /* fall back to the field */
  }
  if (!field) return false;
  field.value = text;
  field.focus();
  field.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  }
}

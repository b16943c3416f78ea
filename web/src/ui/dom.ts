// A tiny DOM builder: h('button', { class: 'x', onclick }, 'text').

type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, unknown>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: (Child | Child[])[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') {
      e.addEventListener(k.slice(2), v as EventListener);
    } else if (k === 'class') {
      e.className = String(v);
    } else if (k === 'value' && 'value' in e) {
      (e as unknown as { value: string }).value = String(v);
    } else if (k === 'checked' && 'checked' in e) {
      (e as unknown as { checked: boolean }).checked = Boolean(v);
    } else {
      e.setAttribute(k, v === true ? '' : String(v));
    }
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(typeof c === 'string' || typeof c === 'number' ? String(c) : c);
  }
  return e;
}

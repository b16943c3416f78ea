// When the tab is hidden and something needs the player (their turn, the opponent arrived), the
// tab's title and icon say so: "● Your turn · Papan" and the icon with a red dot. Both come back
// when the tab is shown again.

/** The title shown while the tab waits for the player. */
export function attentionTitle(base: string, text: string): string {
  return `● ${text} · ${base}`;
}

/** The site's icon (a black piece), with a red dot when the player is wanted. */
export function iconHref(alert: boolean): string {
  const dot = alert ? "%3Ccircle cx='12' cy='4' r='4' fill='%23e0301e' stroke='%23fff' stroke-width='1'/%3E" : '';
  return `data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Ccircle cx='8' cy='8' r='7' fill='%23222'/%3E%3Ccircle cx='8' cy='8' r='4.5' fill='none' stroke='%23f3e9d2' stroke-width='1.3'/%3E${dot}%3C/svg%3E`;
}

export class Attention {
  private base: string | null = null;

  constructor(private readonly doc: Document = document) {
    doc.addEventListener('visibilitychange', this.onVisibility);
  }

  /** Ask for the player's attention if the tab is hidden; nothing when it is shown. */
  call(text: string): void {
    if (!this.doc.hidden) return;
    if (this.base === null) this.base = this.doc.title;
    this.doc.title = attentionTitle(this.base, text);
    this.icon(true);
  }

  /** Back to the normal title and icon. */
  clear(): void {
    if (this.base !== null) this.doc.title = this.base;
    this.base = null;
    this.icon(false);
  }

  private icon(alert: boolean): void {
    let link = this.doc.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (!link) {
      link = this.doc.createElement('link');
      link.rel = 'icon';
      this.doc.head.appendChild(link);
    }
    link.href = iconHref(alert);
    link.dataset['alert'] = alert ? '1' : '0';
  }

  private readonly onVisibility = (): void => {
    if (!this.doc.hidden) this.clear();
  };

  destroy(): void {
    this.doc.removeEventListener('visibilitychange', this.onVisibility);
    this.clear();
  }
}

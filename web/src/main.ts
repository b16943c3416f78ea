// The site's own typeface, Noto Sans (bundled from npm, SIL Open Font License): every machine
// shows the same letters and the same line widths, whatever fonts it has installed, so a layout
// that fits on one phone fits on all of them.
import '@fontsource-variable/noto-sans/wght.css';
import './style.css';
import { startApp } from './ui/app';

// The typeface comes from the same server as this script, one more small request. The first paint
// waits for it (at most FONT_WAIT_MS), so the page does not reflow when the letters change.
const FONT_WAIT_MS = 1000;

async function typefaceLoaded(): Promise<void> {
  const loaded = document.fonts.load("1em 'Noto Sans Variable'").then(
    () => undefined,
    () => undefined,
  );
  await Promise.race([loaded, new Promise<void>((resolve) => setTimeout(resolve, FONT_WAIT_MS))]);
}

const root = document.getElementById('app');
if (root) void typefaceLoaded().then(() => startApp(root));

import type { PartCheck } from '../lib/hydrate-later.tsx';

/**
 * The hydration mismatch check (docs/decisions/032, 037). Preact does not say when the server's
 * markup differs from the browser's first render: it quietly changes the page to fit. A page that
 * reads differently after hydrating than before is such a mismatch (the server and the browser
 * rendered different pages), said here as a console warning; the e2e suite fails on it. (Splitting
 * a text the server wrote as one into the browser's several is not: the page reads the same.)
 *
 * Loaded only where the e2e suite asks for it (e2e/fixtures.ts): it reads the page's markup twice
 * for each part hydrated, work a subscriber's browser does without, as it does without its bytes.
 */
export function createHydrationCheck(container: HTMLElement): PartCheck & { around(hydrate: () => void): void } {
  let beforePart = '';
  return {
    around(hydrate) {
      const before = container.innerHTML;
      hydrate();
      // The held-back parts are still the server's markup here.
      warnOnMismatch(before, container.innerHTML);
    },
    before: () => (beforePart = container.innerHTML),
    after: () => warnOnMismatch(beforePart, container.innerHTML),
  };
}

function warnOnMismatch(before: string, after: string): void {
  if (after === before) return;
  let at = 0;
  while (at < before.length && before[at] === after[at]) at += 1;
  const around = (html: string) => html.slice(Math.max(0, at - 80), at + 80);
  console.warn(`Hydration mismatch: the browser's first render differs from the page the server rendered.\nserver:  …${around(before)}…\nbrowser: …${around(after)}…`);
}

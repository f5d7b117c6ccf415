import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';

// The `test` every journey uses (issue 20.10). On top of Playwright's own it watches every page
// of every browser context a test opens (its `page`, and the contexts it makes itself for a
// second user or a fresh visitor) for Content-Security-Policy violations, and fails the test on
// any: a blocked inline style or script is a page that does not look or work as built, and the
// fix is in the page, never in a weaker policy.
//
// It also fails a test on a hydration mismatch (docs/decisions/032): the browser's first render of
// a page the server rendered differed from the server's, which apps/web/src/app/hydration-check.ts
// says with a console warning (asked for here: a subscriber's browser does without the check). And after `goto` and `reload` it waits until such a page works (its scripts have
// taken over the server's markup), as a person would be a moment later: before that, a click on a
// button does nothing.

export * from '@playwright/test';

/** One `securitypolicyviolation` event, as the page saw it. */
export interface CspViolation {
  url: string;
  directive: string;
  blocked: string;
  sample: string;
  source: string;
}

const binding = '__minsideCspViolation';

/** Until the browser has taken over a server-rendered page, #root carries this (apps/web/src/app/server-render.ts). */
const notYetHydrated = '#root[data-server-rendered]';

async function untilHydrated(page: Page): Promise<void> {
  try {
    await page.waitForFunction((selector) => document.querySelector(selector) === null, notYetHydrated, { timeout: 15_000 });
  } catch (error) {
    // The page went on to another (a redirect) while waiting: that one is the test's concern.
    if (!/context was destroyed|navigation|Target .* closed/i.test(String(error))) throw error;
  }
}

/** `goto` and `reload` that return once the page works. */
function waitingForHydration(page: Page): void {
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (...args: Parameters<Page['goto']>) => {
    const response = await goto(...args);
    await untilHydrated(page);
    return response;
  };
  page.reload = async (...args: Parameters<Page['reload']>) => {
    const response = await reload(...args);
    await untilHydrated(page);
    return response;
  };
}

async function watch(context: BrowserContext, violations: CspViolation[], mismatches: string[], scripts: boolean): Promise<void> {
  // Without JavaScript the server's markup is the page, for good.
  if (scripts) {
    context.pages().forEach(waitingForHydration);
    context.on('page', waitingForHydration);
  }
  context.on('console', (message) => {
    if (message.type() === 'warning' && message.text().startsWith('Hydration mismatch')) mismatches.push(`${message.page()?.url() ?? ''}: ${message.text()}`);
  });
  // The page runs the mismatch check only when asked (apps/web/src/app/hydration-check.ts).
  await context.addInitScript(() => {
    (window as unknown as { __minsideHydrationCheck?: boolean }).__minsideHydrationCheck = true;
  });
  await context.exposeBinding(binding, ({ page }, violation: Omit<CspViolation, 'url'>) => {
    violations.push({ url: page.url(), ...violation });
  });
  // Before any script of the page, in every frame: inline styles in the HTML itself count too.
  await context.addInitScript((name: string) => {
    document.addEventListener(
      'securitypolicyviolation',
      (event) => {
        const report = (window as unknown as Record<string, ((violation: Omit<CspViolation, 'url'>) => void) | undefined>)[name];
        report?.({
          directive: event.effectiveDirective || event.violatedDirective,
          blocked: event.blockedURI,
          sample: event.sample,
          source: `${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`,
        });
      },
      true,
    );
  }, binding);
}

export const test = base.extend<{ cspViolations: CspViolation[] }>({
  cspViolations: [
    async ({ browser, context, javaScriptEnabled }, use) => {
      const violations: CspViolation[] = [];
      const mismatches: string[] = [];
      await watch(context, violations, mismatches, javaScriptEnabled !== false);
      // Contexts the test opens itself (browser.newContext / newPage) are watched as well.
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (...args: Parameters<typeof newContext>) => {
        const opened = await newContext(...args);
        await watch(opened, violations, mismatches, args[0]?.javaScriptEnabled !== false);
        return opened;
      };
      try {
        await use(violations);
      } finally {
        browser.newContext = newContext;
      }
      expect(violations, 'Content-Security-Policy violations on the pages this test visited').toEqual([]);
      expect(mismatches, 'hydration mismatches (docs/decisions/032) on the pages this test visited').toEqual([]);
    },
    { auto: true },
  ],
});

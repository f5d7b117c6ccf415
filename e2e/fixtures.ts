import { test as base, expect, type BrowserContext } from '@playwright/test';

// The `test` every journey uses (issue 20.10). On top of Playwright's own it watches every page
// of every browser context a test opens (its `page`, and the contexts it makes itself for a
// second user or a fresh visitor) for Content-Security-Policy violations, and fails the test on
// any: a blocked inline style or script is a page that does not look or work as built, and the
// fix is in the page, never in a weaker policy.

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

async function watch(context: BrowserContext, violations: CspViolation[]): Promise<void> {
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
    async ({ browser, context }, use) => {
      const violations: CspViolation[] = [];
      await watch(context, violations);
      // Contexts the test opens itself (browser.newContext / newPage) are watched as well.
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (...args: Parameters<typeof newContext>) => {
        const opened = await newContext(...args);
        await watch(opened, violations);
        return opened;
      };
      try {
        await use(violations);
      } finally {
        browser.newContext = newContext;
      }
      expect(violations, 'Content-Security-Policy violations on the pages this test visited').toEqual([]);
    },
    { auto: true },
  ],
});

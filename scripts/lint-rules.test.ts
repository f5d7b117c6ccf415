import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The rules that keep time and layers honest are config, and config can be switched off by
// accident: these lint small snippets at real paths with the repository's own config.
const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });

async function rulesFiredOn(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

describe('one clock', () => {
  it.each([
    ['apps/server/src/modules/delivery/probe.ts', 'export const today = new Date();'],
    ['apps/web/src/probe.ts', 'export const at = Date.now();'],
    ['packages/domain/src/probe.ts', 'export const stamp = Date();'],
    ['apps/server/test/probe.test.ts', 'export const now = () => new Date();'],
    ['apps/web/src/features/auth/probe.ts', 'export function checker({ now = Date.now } = {}) { return now; }'],
  ])('reading the machine clock in %s is an error', async (filePath, code) => {
    expect(await rulesFiredOn(filePath, code)).toContain('no-restricted-syntax');
  });

  it('the clock module itself may, and a Date from a value is fine anywhere', async () => {
    expect(await rulesFiredOn('packages/domain/src/core/clock.ts', 'export const systemClock = () => new Date();')).toEqual([]);
    expect(await rulesFiredOn('apps/server/src/probe.ts', "export const at = new Date('2027-03-28T00:30:00Z');")).toEqual([]);
  });
});

describe('import layers', () => {
  it.each([
    ['packages/domain/src/probe.ts', "import { buildApp } from '../../../apps/server/src/app.ts';\nexport { buildApp };"],
    ['apps/web/src/probe.ts', "import { loadConfig } from '../../server/src/config.ts';\nexport { loadConfig };"],
    ['apps/server/src/probe.ts', "import { formatKr } from '../../web/src/lib/format.ts';\nexport { formatKr };"],
    ['packages/titles/src/probe.ts', "import { addDays } from '@minside/domain';\nexport { addDays };"],
  ])('%s may not import across the layers', async (filePath, code) => {
    expect(await rulesFiredOn(filePath, code)).toContain('import-x/no-restricted-paths');
  });
});

describe('areas are entered through their index.ts', () => {
  it.each([
    // the web: another feature, or anything outside the features, reaches a feature only through its index.ts
    ['apps/web/src/features/billing/probe.ts', "import { sessionStore } from '../auth/session.ts';\nexport { sessionStore };"],
    ['apps/web/src/lib/probe.ts', "import { routes } from '../features/auth/routes.ts';\nexport { routes };"],
    ['apps/web/src/app/probe.ts', "import { CallbackPage } from '../features/auth/pages/callback-page.tsx';\nexport { CallbackPage };"],
    // the server: another area, app.ts, jobs/, admin/… reach an area only through modules/<area>/index.ts
    ['apps/server/src/modules/family/probe.ts', "import { grantSubscription } from '../subscription/grant.ts';\nexport { grantSubscription };"],
    ['apps/server/src/jobs/probe.ts', "import { createPrivacyService } from '../modules/privacy/service.ts';\nexport { createPrivacyService };"],
    ['apps/server/src/probe.ts', "import { healthRoutes } from './modules/health/routes.ts';\nexport { healthRoutes };"],
    // the domain: core/ imports no area
    ['packages/domain/src/core/probe.ts', "import { kidFor } from '../billing/kid.ts';\nexport { kidFor };"],
  ])('%s may not reach inside another area', async (filePath, code) => {
    expect(await rulesFiredOn(filePath, code)).toContain('import-x/no-restricted-paths');
  });

  it.each([
    ['apps/web/src/features/billing/probe.ts', "import { sessionStore } from '../auth/index.ts';\nexport { sessionStore };"],
    ['apps/web/src/app/probe.ts', "import { routes } from '../features/auth/routes.ts';\nexport { routes };"],
    ['apps/server/src/modules/family/probe.ts', "import { grantSubscription } from '../subscription/index.ts';\nexport { grantSubscription };"],
    ['apps/server/src/modules/subscription/probe.ts', "import { grantSubscription } from './grant.ts';\nexport { grantSubscription };"],
    // a test may reach inside the area it tests
    ['apps/server/test/probe.test.ts', "import { insertInvoice } from '../src/modules/billing/issue-invoice.ts';\nexport { insertInvoice };"],
  ])('%s may import that way', async (filePath, code) => {
    expect(await rulesFiredOn(filePath, code)).not.toContain('import-x/no-restricted-paths');
  });
});

describe('no import cycles', () => {
  it.each([
    // subscription is below family (family/service.ts imports it): importing family back closes a cycle
    ['apps/server/src/modules/subscription/grant.ts', "import { familyRoutes } from '../family/index.ts';\nexport { familyRoutes };"],
    // format.ts builds on dates.ts
    ['packages/domain/src/core/dates.ts', "import { formatLongDate } from './format.ts';\nexport { formatLongDate };"],
  ])('%s may not import what imports it', async (filePath, code) => {
    expect(await rulesFiredOn(filePath, code)).toContain('import-x/no-cycle');
  });
});

describe('zod-free rules files', () => {
  it('an x-rules.ts file in packages/domain may not import zod', async () => {
    expect(await rulesFiredOn('packages/domain/src/consent/consent-rules.ts', "import { z } from 'zod';\nexport const flag = z.boolean();")).toContain('no-restricted-imports');
    expect(await rulesFiredOn('packages/domain/src/consent/consent.ts', "import { z } from 'zod';\nexport const flag = z.boolean();")).toEqual([]);
  });
});

describe('one way to write a form (issue 26.3)', () => {
  it.each([
    ['apps/web/src/features/profile/pages/probe.tsx', "import { useForm } from 'react-hook-form';\nexport { useForm };"],
    ['apps/web/src/features/profile/components/probe.tsx', "import type { UseFormRegisterReturn } from 'react-hook-form';\nexport type { UseFormRegisterReturn };"],
    ['apps/web/src/components/probe.tsx', "import { zodResolver } from '@hookform/resolvers/zod';\nexport { zodResolver };"],
    ['apps/web/src/lib/probe.ts', "import { get } from 'react-hook-form';\nexport { get };"],
  ])('%s may not use the form library itself', async (filePath, code) => {
    expect(await rulesFiredOn(filePath, code)).toContain('no-restricted-imports');
  });

  it('the hook that wraps it may, and the rest of the web keeps its other import rule', async () => {
    expect(
      await rulesFiredOn('apps/web/src/lib/use-zod-form.ts', "import { useForm } from 'react-hook-form';\nimport { zodResolver } from '@hookform/resolvers/zod';\nexport { useForm, zodResolver };"),
    ).toEqual([]);
    expect(await rulesFiredOn('apps/web/src/lib/use-zod-form.ts', "import { useOptimistic } from 'react';\nexport { useOptimistic };")).toContain('no-restricted-imports');
    expect(await rulesFiredOn('apps/web/src/features/profile/pages/probe.tsx', "import { useOptimistic } from 'react';\nexport { useOptimistic };")).toContain('no-restricted-imports');
  });

  it.each([
    [
      'apps/web/src/features/student/pages/probe.tsx',
      "import { studentEmailFormSchema } from '@minside/domain';\nexport const check = (email: string) => studentEmailFormSchema.safeParse({ email });",
    ],
    ['apps/web/src/components/probe.tsx', 'export const check = async (schema: { safeParseAsync(value: unknown): Promise<unknown> }, value: unknown) => schema.safeParseAsync(value);'],
  ])('a component or page of the web (%s) may not check input with safeParse beside it', async (filePath, code) => {
    expect(await rulesFiredOn(filePath, code)).toContain('no-restricted-syntax');
  });

  it('the clock rule still holds there, and code that is no form may parse', async () => {
    expect(await rulesFiredOn('apps/web/src/features/delivery/pages/probe.tsx', 'export const today = new Date();')).toContain('no-restricted-syntax');
    // What the browser stored itself is read back with its schema (billing/payment-keys.ts): no form.
    expect(
      await rulesFiredOn(
        'apps/web/src/features/billing/probe.ts',
        "import { z } from 'zod';\nconst stored = z.object({ id: z.string() });\nexport const read = (raw: unknown) => stored.safeParse(raw);",
      ),
    ).toEqual([]);
  });
});

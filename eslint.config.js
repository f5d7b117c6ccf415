// One lint setup for the whole workspace.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const repoRoot = import.meta.dirname;

/** The folders directly under `dir`: the areas of an app. */
function areasIn(dir) {
  return readdirSync(path.join(repoRoot, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
}

/** The layers (docs/architecture.md §1): which part may import which. */
const layerZones = [
  {
    target: './packages',
    from: ['./apps', './e2e', './bench', './deploy', './scripts'],
    message: 'packages/* are the bottom layer: they never import the apps, e2e, bench, deploy or scripts.',
  },
  { target: './apps/web', from: './apps/server', message: 'The web app never imports the server: share code through packages/domain.' },
  { target: './apps/server', from: './apps/web', message: 'The server never imports the web app: share code through packages/domain.' },
  {
    target: './packages/titles',
    from: './packages/domain',
    message: 'packages/titles stays dependency-free (ADR 001): the domain may use the catalogue, never the other way round.',
  },
];

// Each area of an app is entered through its index.ts: what other areas (and app.ts, bin/, jobs/,
// admin/, plugins/…) may use of it is what its index.ts exports, so its other files can change
// freely (issue 26.5). One zone per area folder, found on disk, so a new area is covered at once.
// A zone's target is every file of the app outside that area (minimatch globs on absolute paths).
const webSrc = `${repoRoot}/apps/web/src`;
const serverSrc = `${repoRoot}/apps/server/src`;
const webAreaZones = areasIn('apps/web/src/features').flatMap((area) => [
  {
    target: [`${webSrc}/*`, `${webSrc}/!(features|app)/**`, `${webSrc}/features/!(${area})/**`],
    from: `./apps/web/src/features/${area}`,
    except: ['./index.ts'],
    message: `Import the ${area} area through features/${area}/index.ts.`,
  },
  {
    // The route table (app/routes.tsx) also loads each area's pages lazily from its routes.ts.
    target: `${webSrc}/app/**`,
    from: `./apps/web/src/features/${area}`,
    except: ['./index.ts', './routes.ts'],
    message: `Import the ${area} area through features/${area}/index.ts (the route table: its routes.ts).`,
  },
]);
const serverAreaZones = areasIn('apps/server/src/modules').map((area) => ({
  target: [`${serverSrc}/*`, `${serverSrc}/!(modules)/**`, `${serverSrc}/modules/!(${area})/**`],
  from: `./apps/server/src/modules/${area}`,
  except: ['./index.ts'],
  message: `Import the ${area} area through modules/${area}/index.ts.`,
}));
const domainZones = [
  {
    // packages/domain/README.md: core/ is what every area builds on, so it imports none of them.
    target: './packages/domain/src/core',
    from: './packages/domain/src',
    except: ['./core'],
    message: 'packages/domain/src/core imports no area of the domain: the areas build on it.',
  },
];

/** Business time comes from the injected clock: the selectors of `no-restricted-syntax` that say so ("one clock" below). */
const oneClock = [
  {
    selector: "NewExpression[callee.name='Date'][arguments.length=0]",
    message: 'Take "now" from the injected clock (a `Clock` from @minside/domain), not `new Date()`.',
  },
  {
    // Called or passed on as a value (`now = Date.now`): either reads the machine clock.
    selector: "MemberExpression[object.name='Date'][property.name='now']",
    message: 'Take "now" from the injected clock (a `Clock` from @minside/domain), not `Date.now`; durations use performance.now().',
  },
  {
    selector: "CallExpression[callee.name='Date']",
    message: '`Date()` reads the machine clock: take "now" from the injected clock.',
  },
];

// ── one way to write a form (issue 26.3) ────────────────────────────────────────────────────
// A web form is react-hook-form with a zod schema through one hook, apps/web/src/lib/use-zod-form.ts,
// which feeds the error summary of components/form.tsx. Only that file may use the form library,
// and the UI code does not check input by hand with `schema.safeParse(…)` beside it.
const webFormHook = 'apps/web/src/lib/use-zod-form.ts';
/** preact/compat has no useOptimistic (ADR 021), though React's types, which the code is checked with, declare it. */
const noUseOptimistic = { name: 'react', importNames: ['useOptimistic'], message: 'Not on preact/compat (ADR 021): `react` is preact/compat, which has no useOptimistic.' };
const noFormLibrary = {
  group: ['react-hook-form', 'react-hook-form/*', '@hookform/*'],
  message: 'A form is written with useZodForm (src/lib/use-zod-form.ts, issue 26.3): the form library is used there only.',
};
const webReactAria = 'apps/web/src/lib/react-aria.ts';
/** React Aria's widgets work on Preact only with the event hook and the pressable style installed first (ADR 021). */
const noDirectReactAria = {
  group: ['react-aria', 'react-aria-components', '@react-aria/*', 'react-stately', '@react-stately/*'],
  message: 'Import React Aria from src/lib/react-aria.ts: it installs what its widgets need on Preact (ADR 021) with them, and only on the pages that have one.',
};

/** The zones for files under `files`: the layers, and that tree's own area zones. */
function restrictedPaths(files, zones) {
  return { files, rules: { 'import-x/no-restricted-paths': ['error', { basePath: repoRoot, zones: [...layerZones, ...zones] }] } };
}

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'reports/**', 'test-results/**', '.tsbuild/**', 'playwright-report/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      // preact/compat has no useOptimistic (ADR 021), which React's types declare. And one way
      // to write a form (issue 26.3): the form library only in the hook that wraps it.
      'no-restricted-imports': ['error', { paths: [noUseOptimistic], patterns: [noFormLibrary, noDirectReactAria] }],
    },
  },
  {
    files: [webFormHook],
    rules: { 'no-restricted-imports': ['error', { paths: [noUseOptimistic], patterns: [noDirectReactAria] }] },
  },
  {
    files: [webReactAria],
    rules: { 'no-restricted-imports': ['error', { paths: [noUseOptimistic], patterns: [noFormLibrary] }] },
  },
  {
    // Every journey takes `test` and `expect` from e2e/fixtures.ts, whose `test` fails on any
    // Content-Security-Policy violation on any page it visits (issue 20); types may come from Playwright.
    files: ['e2e/tests/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: '@playwright/test', allowTypeImports: true, message: "Import from '../fixtures.ts': its `test` fails on any Content-Security-Policy violation (issue 20)." }] },
      ],
    },
  },
  // ── Import layers (eslint-plugin-import-x) ────────────────────────────────────────────
  // The layers point one way: packages/titles ← packages/domain ← apps/web, apps/server. A
  // package never imports an app (nor e2e/, bench/, deploy/, scripts/); the two apps never
  // import each other; titles stays dependency-free (ADR 001), so it never imports the domain.
  // Inside them, an area is entered only through its index.ts (the area zones above), and there are
  // no module cycles anywhere in apps/ and packages/ (type-only imports do not count).
  // Imports are resolved as TypeScript does (`.ts`/`.tsx` specifiers, `@minside/*` workspace
  // names through their symlinks to the real files), so a rule sees where an import really lands.
  {
    files: ['apps/**/*.{ts,tsx,mts,cts,js,mjs,cjs}', 'packages/**/*.{ts,tsx,mts,cts,js,mjs,cjs}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'],
      'import-x/external-module-folders': ['node_modules', 'node_modules/@types'],
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: `${repoRoot}/tsconfig.json`, alwaysTryTypes: true })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: repoRoot, zones: layerZones }],
      // npm packages are not followed (ignoreExternal): only our own modules can close a cycle.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  // Each tree gets only its own area zones: every zone's target globs are matched against every
  // file it lints, so the web's zones are not tried on the server's files and the other way round.
  restrictedPaths(['apps/web/src/**'], webAreaZones),
  restrictedPaths(['apps/server/src/**'], serverAreaZones),
  restrictedPaths(['packages/domain/src/**'], domainZones),
  // Tests may reach inside the area they test (and its neighbours' test helpers); the layers hold for them too.
  {
    files: ['{apps,packages}/**/*.test.{ts,tsx}', 'apps/server/test/**', 'apps/web/src/test/**'],
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: repoRoot, zones: layerZones }] },
  },
  // ── end of import layers ─────────────────────────────────────────────────────────────────
  // ── zod-free rules files ─────────────────────────────────────────────────────────────────
  // packages/domain names the zod-free half of an area `x-rules.ts` (packages/domain/README.md):
  // the browser takes its codes, labels and messages from there without taking zod along.
  {
    files: ['packages/domain/src/**/*-rules.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'zod', message: 'An `x-rules.ts` file stays free of zod (packages/domain/README.md): put the schema in `x.ts`.' }] }],
    },
  },
  // ── one clock ────────────────────────────────────────────────────────────────────────────
  // Business time comes from the injected clock (packages/domain/src/core/clock.ts); reading the
  // machine's time anywhere else makes a rule or a test depend on the day it runs. Durations
  // use performance.now(). The places that hand out the machine's time call `systemClock`:
  // the process entries (apps/server/src/bin/), the browser (what the user's device says),
  // and the birth-date schema's "not in the future", which runs at the edge in both.
  {
    files: ['apps/**/*.{ts,tsx,mts,cts,js,mjs,cjs}', 'packages/**/*.{ts,tsx,mts,cts,js,mjs,cjs}'],
    ignores: ['packages/domain/src/core/clock.ts'],
    rules: { 'no-restricted-syntax': ['error', ...oneClock] },
  },
  // ── end of one clock ─────────────────────────────────────────────────────────────────────
  // The web's components and pages check a form's input only through useZodForm (issue 26.3): a
  // `safeParse` beside it is the hand-rolled second way. (The rule's list replaces the one above
  // for these files, so the clock's selectors are repeated.)
  {
    files: ['apps/web/src/{features,components}/**/*.tsx'],
    ignores: ['**/*.test.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...oneClock,
        {
          selector: 'CallExpression[callee.property.name=/^safeParse(Async)?$/]',
          message: 'Check a form with useZodForm (src/lib/use-zod-form.ts, issue 26.3): its schema gives each field its message and the error summary its list.',
        },
      ],
    },
  },
  {
    files: ['scripts/**', '.ci/**', 'bench/**', '**/*.mjs'],
    rules: { 'no-console': 'off' },
  },
);

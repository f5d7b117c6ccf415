import { defineProject } from 'vitest/config';
import preact from '@preact/preset-vite';

export default defineProject({
  // The app's own Vite setup for React code on Preact (ADR 021), so components are tested on the
  // runtime that ships. Refresh (dev server only) is off.
  plugins: [preact({ prefreshEnabled: false })],
  resolve: {
    conditions: ['module', 'browser', 'development|production'],
    // React's useSyncExternalStore shim (React Aria's date fields use it) is CommonJS that requires
    // react itself; the build bundles it onto preact/compat, whose own useSyncExternalStore it then
    // returns. Here Node would load it, and React with it: point it at that function directly.
    alias: [{ find: /^use-sync-external-store\/shim(?:\/index\.js)?$/, replacement: 'preact/compat' }],
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
    // The event shim main.tsx installs (React Aria's keyboard shortcuts on Preact), a check that
    // no test ran on React's own runtime, and the flush of Preact's after-paint effects (and
    // unmount cleanups) before each test's environment goes away.
    setupFiles: ['src/lib/preact-events.ts', 'src/test/runtime-guard.ts', 'src/test/preact-effects.ts'],
    server: {
      deps: {
        // Libraries written against React run through Vite here, not Node, so the react → preact/compat
        // alias reaches their imports too; left to Node they would load React itself beside Preact and
        // fail ("Invalid hook call"). A new library that imports react belongs in this list.
        inline: [/[\\/]node_modules[\\/](?:react-router|react-aria-components|react-aria|react-stately|@react-aria|@react-stately|react-hook-form|@hookform)[\\/]/],
      },
    },
  },
});

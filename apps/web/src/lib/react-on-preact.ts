/**
 * What `react` resolves to in the build and the component tests (the `reactOnPreact()` plugin in
 * vite.config.ts): preact/compat (docs/decisions/021-preact-runtime.md), plus the one React 19
 * hook that React Router 8 calls and compat does not have.
 */
// @ts-expect-error -- compat's types say `export =` (TS2498); the module itself is ES with named exports.
export * from 'preact/compat';
export { default } from 'preact/compat';

const ignoreOptimisticUpdate = (): void => {};

/**
 * React Router 8's `<RouterProvider>` calls `useOptimistic(state)` on every render (7 looked it up
 * and did without it when missing, as on compat). It sets an optimistic state only for routers
 * given `useTransitions`, which this app does not use; so the answer is the state passed in: what
 * React itself returns while no optimistic update is pending, and what React Router 7 did here.
 * Not for the app's own code: eslint.config.js forbids importing it from `react` (ADR 021).
 */
export function useOptimistic<State>(passthrough: State): [State, (action: unknown) => void] {
  return [passthrough, ignoreOptimisticUpdate];
}

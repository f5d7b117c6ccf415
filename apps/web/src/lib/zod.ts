import { z } from 'zod/v4';

/**
 * The browser build's `zod` (vite.config.ts points every `import … from 'zod'` here, our code's
 * and @minside/domain's alike): zod itself, set to run without JIT before any schema is built.
 * Otherwise zod probes `new Function` when it builds its first object schema, and under our
 * Content-Security-Policy (no 'unsafe-eval') the browser reports that probe as a violation in
 * the console even though zod catches it. The forms' schemas are small: the interpreter is
 * fast enough for them. The server and the unit tests use zod as it is (they have no CSP).
 */
z.config({ jitless: true });

export * from 'zod/v4';
export { default } from 'zod/v4';

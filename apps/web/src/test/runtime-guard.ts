import { createRequire } from 'node:module';
import { afterAll } from 'vitest';

// Components run on preact/compat in the browser (ADR 021), so they must in tests too. A library
// that Node loads by itself, outside Vite's react → preact/compat alias, brings React's own runtime
// along; rendering then usually fails loudly, but a library that only creates a context would not.
afterAll(() => {
  const react = /[\\/]node_modules[\\/](?:react|react-dom|scheduler)[\\/]/;
  const loaded = Object.keys(createRequire(import.meta.url).cache).filter((file) => react.test(file));
  if (loaded.length > 0) {
    throw new Error(`React's own runtime was loaded beside Preact (${loaded.join(', ')}): add the library that imports it to server.deps.inline in apps/web/vitest.config.ts`);
  }
});

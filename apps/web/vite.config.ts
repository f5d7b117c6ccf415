import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { constants, brotliCompressSync, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import preact from '@preact/preset-vite';
import { compileHints } from './compile-hints.ts';

/**
 * Writes a Brotli (.br) and a gzip (.gz) copy beside every text file of the build; the server
 * sends them to browsers that accept them (apps/server/src/pages/spa.ts, `preCompressed`).
 * Compressed once here at the highest levels instead of on every request.
 */
function precompress(): Plugin {
  return {
    name: 'minside:precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const outDir = options.dir ?? 'dist';
      await Promise.all(
        Object.values(bundle)
          .filter((file) => /\.(?:js|css|html|svg|json)$/.test(file.fileName))
          .map(async (file) => {
            const source = Buffer.from(file.type === 'chunk' ? file.code : file.source);
            // Below about one packet, compression saves no round trip.
            if (source.length < 1024) return;
            const target = path.join(outDir, file.fileName);
            await writeFile(`${target}.br`, brotliCompressSync(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: source.length } }));
            await writeFile(`${target}.gz`, gzipSync(source, { level: 9 }));
          }),
      );
    },
  };
}

// The API server (apps/server) serves /api, the generated logos, the embedded identity
// provider and the dev mail outbox. In dev, Vite proxies them so the SPA and the API share
// an origin, exactly as in production where the server serves the built SPA.
const apiTarget = process.env['MINSIDE_API_URL'] ?? 'http://localhost:3100';
const proxied = ['/api', '/logos', '/idp', '/_dev'];

/** The browser's build: dist/, with index.html, the hashed assets and the manifest the server reads (docs/decisions/032). */
const clientBuild: UserConfig = {
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: the stylesheets and chunks of each route area, which the server links
    // from a page it rendered (docs/decisions/032). In a dot folder, which the server does not serve.
    manifest: true,
    target: 'es2022',
    // No modulepreload polyfill (0.2 KB gzip off every page): every browser of the target but Safari
    // 16.4–16.6 preloads modules itself, and there a preload link is only ignored, which costs a
    // round trip, never the page. Vite's preload helper stays: it also loads a lazy area's stylesheet.
    modulePreload: {
      polyfill: false,
      // A lazy import's list of files to preload leaves out Preact (`vendor`, which the entry
      // imports) and the bundler's runtime (which `vendor` imports): both are loaded before anything
      // can be imported lazily, so listing them again was a no-op that cost bytes in every list
      // (40 bytes gzip on `/`). index.html keeps its own preloads of them (`hostType` 'html').
      resolveDependencies: (_file, dependencies, { hostType }) =>
        hostType === 'html' ? dependencies : dependencies.filter((dependency) => !/^assets\/(?:vendor|rolldown-runtime)-[\w-]{8}\.js$/.test(dependency)),
    },
    sourcemap: true,
    rolldownOptions: {
      // An area's index.ts only re-exports (STYLE: other areas import through it). Declared free of
      // side effects so importing one thing through it does not make the bundler load all it
      // re-exports: the home page's delivery-notice banner would otherwise bring the delivery
      // address form, its schema and zod along to `/`. The query cache's index.ts likewise (ADR 035):
      // the infinite list of the invoices stays with the billing pages. Everything else keeps the default.
      treeshake: {
        moduleSideEffects: (id) => (/[\\/]src[\\/](?:features[\\/][^\\/]+|lib[\\/]query)[\\/]index\.ts$/.test(id) ? false : undefined),
      },
      output: {
        // Third-party code in one long-cached chunk; our code splits per route area.
        codeSplitting: {
          groups: [
            // The accessible widgets (date pickers, with their clsx) load with the pages that use them, not on every page.
            // The form library (react-hook-form) likewise loads with the pages that have a form. `vendor`
            // is matched first: a group takes its modules' dependencies along, and react (preact/compat)
            // belongs in it, not in `forms`, or every page would load react-hook-form for it.
            {
              name: 'vendor',
              test: /[\\/]node_modules[\\/](?!(?:@datadog|react-aria|react-aria-components|react-stately|@react-aria|@react-stately|@react-types|@internationalized|clsx|react-hook-form|@hookform|zod)[\\/])/,
              priority: 3,
            },
            // Our modules that the entry imports statically (rolldown's `$initial` tag: the shell, router,
            // query cache, session) in one chunk. Left to itself rolldown split them into six, by which lazy
            // areas also import them; every page loads all six anyway, so one file is the same code with
            // one gzip stream and no imports between them: JS for `/` 53.9 → 51.6 KB, no page larger.
            { name: 'shell', tags: ['$initial'], priority: 2 },
            // What nine of the twelve areas load (the mutation hook, dates and money formats, the subscription
            // rules): rolldown gave each its own small file, which every signed-in page then fetched and
            // compressed apart. One file: `/` 0.5 KB less and three files fewer; the areas that need only
            // part of it (privacy, auth) load 0.5 KB more, less than the shell has shed meanwhile (issue 27).
            { name: 'common', test: /[\\/]src[\\/](?:lib[\\/]query[\\/]mutation|core[\\/](?:dates|format)|subscription[\\/](?:subscription-rules|paid-period))\.tsx?$/, priority: 2 },
            // zod (with its browser setting, src/lib/zod.ts) in its own chunk: the browser checks only what
            // the user types with it, not the API's responses (ADR 020), so it is needed only where a
            // module that builds schemas is loaded.
            { name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]|[\\/]src[\\/]lib[\\/]zod\.ts$/, priority: 2 },
            { name: 'forms', test: /[\\/]node_modules[\\/](?:react-hook-form|@hookform)[\\/]/, priority: 2 },
            // Browser RUM (@datadog) is left to its own lazy chunk: it loads only when configured and consented.
            { name: 'widgets', test: /[\\/]node_modules[\\/](?!@datadog[\\/])/, priority: 1 },
          ],
        },
        // One lazily loaded chunk per area (src/features/<area>/routes.ts), named after it.
        chunkFileNames: (chunk) => {
          const area = /features[\\/]([^\\/]+)[\\/]routes\.ts$/.exec(chunk.facadeModuleId ?? '')?.[1];
          return area ? `assets/area-${area}-[hash].js` : 'assets/[name]-[hash].js';
        },
      },
    },
  },
};

/**
 * The server render's bundle (docs/decisions/032): `vite build --ssr` builds src/entry-server.tsx
 * into dist/ssr/entry-server.mjs, which apps/server loads to render the public pages. Everything it
 * imports is bundled into it (`noExternal`), Preact and the libraries included, so the server's
 * production image needs none of the web's node_modules. It goes into the client build's folder
 * (after it: the client build empties dist/), so the two come from the same sources and deploy
 * together; the server does not serve dist/ssr.
 */
const ssrBuild: UserConfig = {
  ssr: { noExternal: true, target: 'node' },
  build: {
    outDir: 'dist/ssr',
    emptyOutDir: true,
    target: 'node24',
    sourcemap: true,
    copyPublicDir: false,
    // .mjs: the production image has no package.json above dist/ to say these are ES modules.
    rolldownOptions: { output: { entryFileNames: '[name].mjs', chunkFileNames: 'chunks/[name]-[hash].mjs' } },
  },
};

export default defineConfig(({ isSsrBuild }) => ({
  // Preact (preact/compat) runs the app instead of React's runtime: the preset aliases react,
  // react-dom (and /client, /test-utils) and the JSX runtime to it, for our code and for the
  // libraries alike. Same component code, about 60 KB less JavaScript on every page (ADR 021).
  // The server render (docs/decisions/032) uses the same, without hot refresh or precompression.
  plugins: isSsrBuild ? [preact({ prefreshEnabled: false })] : [preact(), compileHints(), precompress()],
  resolve: {
    // zod without JIT in the browser (src/lib/zod.ts says why). Only the bare specifier: the shim
    // itself imports 'zod/v4'.
    alias: [{ find: /^zod$/, replacement: path.resolve(import.meta.dirname, 'src/lib/zod.ts') }],
  },
  ...(isSsrBuild ? ssrBuild : clientBuild),
  server: {
    port: 5173,
    // Keep the Host header: the API resolves the title from the host the browser is on.
    proxy: Object.fromEntries(proxied.map((prefix) => [prefix, { target: apiTarget, changeOrigin: false }])),
  },
}));

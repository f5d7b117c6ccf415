import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { constants, brotliCompressSync, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * Writes a Brotli (.br) and a gzip (.gz) copy beside every text file of the build; the server
 * sends them to browsers that accept them (apps/server/src/plugins/spa.ts, `preCompressed`).
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

export default defineConfig({
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    rolldownOptions: {
      output: {
        // Third-party code in one long-cached chunk; our code splits per route area.
        codeSplitting: {
          groups: [
            // The accessible widgets (date pickers) load with the pages that use them, not on every page.
            // The form library (react-hook-form) likewise loads with the pages that have a form. `vendor`
            // is matched first: a group takes its modules' dependencies along, and react belongs in it.
            { name: 'vendor', test: /[\\/]node_modules[\\/](?!(?:@datadog|react-aria|react-aria-components|react-stately|@react-aria|@react-stately|@react-types|@internationalized|react-hook-form|@hookform)[\\/])/, priority: 3 },
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
  server: {
    port: 5173,
    // Keep the Host header: the API resolves the title from the host the browser is on.
    proxy: Object.fromEntries(proxied.map((prefix) => [prefix, { target: apiTarget, changeOrigin: false }])),
  },
});

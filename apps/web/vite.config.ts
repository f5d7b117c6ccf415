import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The API server (apps/server) serves /api, the generated logos, the embedded identity
// provider and the dev mail outbox. In dev, Vite proxies them so the SPA and the API share
// an origin, exactly as in production where the server serves the built SPA.
const apiTarget = process.env['MINSIDE_API_URL'] ?? 'http://localhost:3100';
const proxied = ['/api', '/logos', '/idp', '/_dev'];

export default defineConfig({
  plugins: [react()],
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
            { name: 'vendor', test: /[\\/]node_modules[\\/](?!(?:@datadog|react-aria|react-aria-components|react-stately|@react-aria|@react-stately|@react-types|@internationalized)[\\/])/, priority: 2 },
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

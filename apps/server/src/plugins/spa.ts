import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { sendApiNotFound } from './errors.ts';

/** Paths that are never the SPA: an unknown one of these is a JSON 404, not index.html. */
const nonSpaPrefixes = ['/api/', '/api', '/logos/', '/_dev/', '/idp/'];

/**
 * Serves the built SPA: hashed assets cached for a year and sent Brotli- or gzip-compressed
 * when the browser accepts it, index.html for every other GET that asks for a page (the
 * client router then shows the route, or redirects to /404).
 */
export async function registerSpa(app: FastifyInstance, webDist: string | undefined): Promise<void> {
  const indexFile = webDist ? path.join(webDist, 'index.html') : undefined;
  const indexHtml = indexFile && existsSync(indexFile) ? readFileSync(indexFile) : undefined;
  if (webDist && indexHtml) {
    await app.register(fastifyStatic, {
      root: path.resolve(webDist),
      index: false,
      // One route per built file: `/` and every client route fall through to index.html.
      wildcard: false,
      // The web build writes .br and .gz beside each text asset (apps/web/vite.config.ts).
      preCompressed: true,
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !nonSpaPrefixes.some((prefix) => pathname === prefix || pathname.startsWith(prefix));
    if (indexHtml && wantsPage) {
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml);
    }
    return sendApiNotFound(reply);
  });
}

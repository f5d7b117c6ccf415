import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { startTelemetry, type Telemetry } from '../src/telemetry.ts';
import { buildTestApp, type TestApp } from './helper.ts';

// With OTEL_EXPORTER_OTLP_ENDPOINT set, the server's traces name the Fastify route a request
// matched: on the HTTP server span (instrumentation-http, given the route by @fastify/otel) and on
// @fastify/otel's own spans. Here the spans go to memory instead of to the (unreachable) endpoint.
describe('telemetry with an OTLP endpoint', () => {
  const exporter = new InMemorySpanExporter();
  let telemetry: Telemetry | undefined;
  let t: TestApp;
  let origin: string;

  const httpServerSpans = () => exporter.getFinishedSpans().filter((span) => span.instrumentationScope.name === '@opentelemetry/instrumentation-http');
  const fastifySpans = () => exporter.getFinishedSpans().filter((span) => span.instrumentationScope.name === '@fastify/otel');
  const routeOf = (span: ReadableSpan | undefined) => span?.attributes['http.route'];

  beforeAll(async () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', 'http://127.0.0.1:9');
    vi.stubEnv('OTEL_METRICS_EXPORTER', 'none');
    vi.stubEnv('OTEL_LOGS_EXPORTER', 'none');
    vi.stubEnv('OTEL_SERVICE_NAME', 'minside-test');
    telemetry = await startTelemetry(process.env, { spanProcessors: [new SimpleSpanProcessor({ exporter })] });
    // After telemetry, as bin/server.ts builds it; listening, so the HTTP instrumentation sees the requests.
    t = await buildTestApp('pglite');
    origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await t?.close();
    await telemetry?.shutdown();
    vi.unstubAllEnvs();
  });

  it('starts only when an endpoint is configured', async () => {
    expect(telemetry).toBeDefined();
    expect(await startTelemetry({})).toBeUndefined();
  });

  it('names the Fastify route on the HTTP server span and on the Fastify spans', async () => {
    exporter.reset();
    expect((await fetch(`${origin}/api/title/ADR`)).status).toBe(200);
    await vi.waitFor(() => expect(httpServerSpans()).toHaveLength(1));
    const [server] = httpServerSpans();
    expect(server?.name).toBe('GET /api/title/:id');
    expect(routeOf(server)).toBe('/api/title/:id');
    const request = fastifySpans().find((span) => span.name === 'request');
    expect(routeOf(request)).toBe('/api/title/:id');
    expect(request?.parentSpanContext?.spanId).toBe(server?.spanContext().spanId);
    expect(routeOf(fastifySpans().find((span) => span.name.startsWith('handler')))).toBe('/api/title/:id');
  });

  it('leaves the health probes out', async () => {
    exporter.reset();
    expect((await fetch(`${origin}/healthz`)).status).toBe(200);
    expect((await fetch(`${origin}/readyz`)).status).toBe(200);
    expect((await fetch(`${origin}/api/title/ADR`)).status).toBe(200);
    await vi.waitFor(() => expect(httpServerSpans()).toHaveLength(1));
    // Everything recorded belongs to the one traced request.
    const traces = new Set(exporter.getFinishedSpans().map((span) => span.spanContext().traceId));
    expect(traces).toEqual(new Set([httpServerSpans()[0]?.spanContext().traceId]));
  });
});

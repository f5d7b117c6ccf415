import { createRequire, register } from 'node:module';
import type { NodeSDKConfiguration } from '@opentelemetry/sdk-node';

/**
 * Server traces and metrics over OTLP, only when OTEL_EXPORTER_OTLP_ENDPOINT is set: without
 * it nothing of OpenTelemetry is even loaded. The SDK takes the rest of its settings from the
 * standard OTEL_* variables (service name, headers, protocol, sampling).
 */
export interface Telemetry {
  shutdown(): Promise<void>;
}

export interface TelemetryOptions {
  /** Where the spans go instead of the exporter the OTEL_* variables set up (a test's in-memory exporter). */
  spanProcessors?: NodeSDKConfiguration['spanProcessors'];
}

export async function startTelemetry(env: NodeJS.ProcessEnv = process.env, options: TelemetryOptions = {}): Promise<Telemetry | undefined> {
  if (!env['OTEL_EXPORTER_OTLP_ENDPOINT']) return undefined;
  // Modules imported from here on are patched as they load (ESM import hook).
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  const [{ NodeSDK }, { HttpInstrumentation }, { FastifyOtelInstrumentation }, { PgInstrumentation }] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/instrumentation-http'),
    import('@fastify/otel'),
    import('@opentelemetry/instrumentation-pg'),
  ]);
  env['OTEL_SERVICE_NAME'] ??= 'minside';
  // Traces and metrics; our logs already go to stdout through pino.
  env['OTEL_LOGS_EXPORTER'] ??= 'none';
  const sdk = new NodeSDK({
    instrumentations: [
      // The probes are not traced: no span started while one is handled is recorded, Fastify's neither.
      new HttpInstrumentation({ ignoreIncomingRequestHook: (request) => request.url === '/healthz' || request.url === '/readyz' }),
      // The Fastify team's instrumentation (OpenTelemetry's own is deprecated): a span per request
      // with its route (`http.route`), which it also gives the HTTP span ("GET /api/title/:id"), and
      // one per hook and handler. It joins every Fastify instance created from now on (Fastify's
      // `fastify.initialization` diagnostics channel), so buildApp needs nothing for it.
      new FastifyOtelInstrumentation({ registerOnInitialization: true }),
      new PgInstrumentation(),
    ],
    ...(options.spanProcessors ? { spanProcessors: options.spanProcessors } : {}),
  });
  sdk.start();
  // The server bundle imports its npm dependencies before main() runs, so http and pg are
  // loaded already: requiring them again lets the instrumentations patch the loaded modules'
  // shared exports and prototypes in place.
  const require = createRequire(import.meta.url);
  for (const name of ['http', 'https', 'pg']) {
    try {
      require(name);
    } catch {
      // Not installed: nothing to patch.
    }
  }
  return { shutdown: () => sdk.shutdown() };
}

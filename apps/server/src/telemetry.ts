import { createRequire, register } from 'node:module';

/**
 * Server traces and metrics over OTLP, only when OTEL_EXPORTER_OTLP_ENDPOINT is set: without
 * it nothing of OpenTelemetry is even loaded. The SDK takes the rest of its settings from the
 * standard OTEL_* variables (service name, headers, protocol, sampling).
 */
export interface Telemetry {
  shutdown(): Promise<void>;
}

export async function startTelemetry(env: NodeJS.ProcessEnv = process.env): Promise<Telemetry | undefined> {
  if (!env['OTEL_EXPORTER_OTLP_ENDPOINT']) return undefined;
  // Modules imported from here on are patched as they load (ESM import hook).
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  const [{ NodeSDK }, { HttpInstrumentation }, { FastifyInstrumentation }, { PgInstrumentation }] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-fastify'),
    import('@opentelemetry/instrumentation-pg'),
  ]);
  env['OTEL_SERVICE_NAME'] ??= 'minside';
  // Traces and metrics; our logs already go to stdout through pino.
  env['OTEL_LOGS_EXPORTER'] ??= 'none';
  const sdk = new NodeSDK({
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: (request) => request.url === '/healthz' || request.url === '/readyz' }),
      new FastifyInstrumentation(),
      new PgInstrumentation(),
    ],
  });
  sdk.start();
  // The server bundle imports its npm dependencies before main() runs, so http, fastify and pg
  // are loaded already: requiring them again lets the instrumentations patch the loaded
  // modules' shared exports and prototypes in place.
  const require = createRequire(import.meta.url);
  for (const name of ['http', 'https', 'pg', 'fastify']) {
    try {
      require(name);
    } catch {
      // Not installed: nothing to patch.
    }
  }
  return { shutdown: () => sdk.shutdown() };
}

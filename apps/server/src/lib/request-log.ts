import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * One log line per request at `info`: when it is done, with the request (method, URL with codes
 * taken out, host, address), the status and the time it took. Fastify's default writes two — one
 * on arrival, one on completion — and on a fast request the second line cost 15–30 % of its CPU
 * (docs/performance.md, issue 27 §3). The arrival line is kept at `debug`: it is what shows that a
 * request was received while it is still running (a request that hangs, a shutdown under load).
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

// Every write a request makes names who made it and from where (src/db/changes/): the caller its
// token stands for, the request's id, the client's address (request.ip: TRUST_PROXY decides
// whether a proxy's X-Forwarded-For is believed), its user agent, its Idempotency-Key and the
// operation. Set before the handler runs, for the methods that change things.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  withChangeContext,
  type ChangeActor,
  type ChangeContext,
} from '../db/changes/change-context.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route writes nothing that the change history records (analytics logs): its writes run
     * as they are, without a change context (which would put each lone statement in a
     * transaction of its own).
     */
    unrecorded?: boolean;
  }
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The actor a request's principal stands for; the system when it has none (an anonymous call). */
export function actorOf(request: FastifyRequest): ChangeActor {
  const principal = request.principal;
  if (!principal) return { Type: 'System' };
  if (principal.memberId !== undefined)
    return {
      Type: 'Member',
      Id: principal.memberId,
      ...(principal.name !== undefined ? { Name: principal.name } : {}),
    };
  const app: ChangeActor = {
    Type: 'App',
    Id: principal.appId,
    ...(principal.name !== undefined ? { Name: principal.name } : {}),
  };
  if (principal.deviceId !== undefined)
    return { Type: 'Device', Id: principal.deviceId, OnBehalfOf: app };
  return app;
}

/** The change context of a request, for writes it makes now or hands to a job. */
export function changeContextOf(request: FastifyRequest): ChangeContext {
  const userAgent = request.headers['user-agent'];
  const idempotencyKey = request.headers['idempotency-key'];
  const operation = request.routeOptions.schema?.operationId;
  return {
    Actor: actorOf(request),
    RequestId: String(request.id),
    ClientAddress: request.ip,
    ...(typeof userAgent === 'string' ? { UserAgent: userAgent } : {}),
    ...(typeof idempotencyKey === 'string' ? { IdempotencyKey: idempotencyKey } : {}),
    ...(operation !== undefined ? { Operation: operation } : {}),
  };
}

export function registerChangeContext(app: FastifyInstance): void {
  // A callback hook: the handler runs from `done`, inside the context (an async hook would run
  // it from a promise made outside).
  app.addHook('preHandler', (request, _reply, done) => {
    if (READS.has(request.method) || request.routeOptions.config.unrecorded) return done();
    withChangeContext(changeContextOf(request), done);
  });
}

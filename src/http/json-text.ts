// Sends JSON that is already text (built by SQL) as is: no parse, no re-serialisation.
import type { FastifyReply } from 'fastify';

export function sendJsonText(reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(Buffer.from(json));
}

// Who changes what, and from where: the change context of the work under way (a request, a job),
// which every write transaction hands to the database so that the triggers that record the
// change history and the event feed name the actor (src/db/sql/025-change-history.sql).
//
// Kept in AsyncLocalStorage, so that no service passes it along: the HTTP layer sets it for each
// request (src/http/change-context-hook.ts) and a job for its run. The database handle sets it at
// the start of each transaction as `set local omni.change`, in the same round trip as `begin`;
// a write outside a transaction is run in one when a context is set. On Citus the SET LOCAL is
// propagated to the workers, where the triggers run (citus.propagate_set_commands = local).
import { AsyncLocalStorage } from 'node:async_hooks';
import { escapeLiteral } from 'pg';

/** Who made a change. */
export interface ChangeActor {
  Type: 'App' | 'Member' | 'Device' | 'Job' | 'System';
  /** The app's client id, the member's id, the physical device's id or the job's id. */
  Id?: string;
  /** The app's name, the member's username, the job's kind. */
  Name?: string;
  /** A device's or a job's app or member: on whose behalf it works. */
  OnBehalfOf?: ChangeActor;
}

export interface ChangeContext {
  Actor: ChangeActor;
  RequestId?: string;
  ClientAddress?: string;
  UserAgent?: string;
  IdempotencyKey?: string;
  /** The operation (the OpenAPI operationId) or the job that made the change. */
  Operation?: string;
  /** A restore: the resource it restores and the version it came from. */
  Restore?: { Resource: string; ResourceId: string; FromVersion: number };
}

const storage = new AsyncLocalStorage<ChangeContext>();

/** Runs `fn` with `context` as the change context of every write it makes. */
export function withChangeContext<T>(context: ChangeContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** The change context of the work under way, if any. */
export function currentChangeContext(): ChangeContext | undefined {
  return storage.getStore();
}

/** A user agent or key longer than this is cut: the context rides along every write. */
const MAX_TEXT = 512;

const cut = (value: string | undefined) =>
  value === undefined || value.length <= MAX_TEXT ? value : value.slice(0, MAX_TEXT);

/**
 * The statements that give the transaction begun before them `context`: on Citus the SET LOCAL
 * reaches the workers that the transaction writes (a placeholder setting elsewhere, unread).
 */
export function changeContextStatements(context: ChangeContext): string {
  const text = JSON.stringify({
    ...context,
    UserAgent: cut(context.UserAgent),
    IdempotencyKey: cut(context.IdempotencyKey),
  });
  return (
    "set local citus.propagate_set_commands = 'local'; " +
    `set local omni.change = ${escapeLiteral(text)}`
  );
}

// The shape every feature module has (docs/design.md, "Adding a module"). A module is a folder
// under src/modules/ whose `<name>-module.ts` exports one factory:
//
//   export function createXModule(context: ModuleContext, needs: XNeeds): AppModule<XServices>
//
// `context` is what every module gets (configuration, database, job queue, logger, URLs);
// `needs` are the few functions it uses from other modules, passed in by module-wiring.ts, so that
// no module imports another module's files (a lint rule enforces it). app.ts builds the server by
// looping over the list of modules module-wiring.ts created.
import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/connection/database.ts';
import type { ErrorCodes } from './domain/error-code-list.ts';
import type { OpenApiTag } from './http/openapi-operations.ts';
import type { PublicUrls } from './http/public-urls.ts';
import type { HostResolver } from './http/tenant-host.ts';
import type { JobQueue, QueueDefinition } from './jobs/job-queue.ts';

export interface ModuleContext {
  config: Config;
  database: DatabaseHandle;
  /** Sends jobs; the module declares the queues it works in `queues`. */
  jobs: JobQueue;
  /** The server's logger once it is built; undefined in CLI commands. */
  log: () => FastifyBaseLogger | undefined;
  urls: PublicUrls;
}

export interface ModulePermissions {
  /** The permission area of the module's routes (`catalog`: `catalog:read`, `catalog:write`). */
  area: string;
  /** Areas that some of its routes name in their config instead (`config: { area }`). */
  otherAreas?: readonly string[];
}

export interface AppModule<Services extends object = object> {
  name: string;
  /** What the module offers: to its own routes, to the CLI and (through module-wiring.ts) to other modules. */
  services: Services;
  /** The module's routes, registered under the server's root. */
  routes?: FastifyPluginAsync;
  /**
   * What a member's roles must allow to call the module's routes (src/http/route-areas.ts): the
   * area they belong to unless one names another in its config, and the other areas its routes
   * name. Together the modules' areas are every area there is.
   */
  permissions?: ModulePermissions;
  /**
   * The tags its routes' operations carry in the OpenAPI document, each with a description for
   * the document's tag list (a route with a tag no module declares fails the server's start).
   */
  openApiTags?: readonly OpenApiTag[];
  /**
   * The error codes its routes and jobs answer, each with its status and meaning (the codes every
   * route shares are src/http/error-codes.ts's). The OpenAPI document and docs/api.md's "Error
   * codes" list them; test/http/error-codes.test.ts fails when the source answers one not listed.
   */
  errorCodes?: ErrorCodes;
  /** JSON schemas with an $id that routes refer to, added once at the root (before any routes). */
  schemas?: object[];
  /** The job queues the module works (their handlers run on every instance, each job once). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each queue has its own data type
  queues?: QueueDefinition<any>[];
  /** Other ways to address a tenant than its own host (the integration gateway). */
  hostResolvers?: HostResolver[];
  /** Runs once the server is built and the job queue has started (the logger is set). */
  start?(): Promise<void>;
  /**
   * The module's part of the release step (`omni migrate`, and a start that migrates), after the
   * migrations: schema kept in step with time rather than with versions (analytics' monthly
   * partitions), so that a start that does not migrate changes no schema.
   */
  release?(): Promise<void>;
  /** Runs when the server closes, before the database does. */
  stop?(): Promise<void>;
}

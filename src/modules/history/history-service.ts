// The tenant's change history as one list (docs/api.md, "Change history"): every resource's
// entries, newest first, under the caller's filters. Each module answers its own resources'
// histories at their paths (src/http/history-routes.ts).
import type { DatabaseHandle } from '../../db/connection/database.ts';
import type { ChangeFilter } from '../../db/changes/change-history-reads.ts';
import { historyPage, type HistoryPageJson } from '../../db/changes/change-history-entries.ts';
import { invalidHistoryRange } from './history-errors.ts';

export interface HistoryListQuery {
  ResourceType?: string;
  ResourceId?: string;
  ActorType?: string;
  ActorId?: string;
  Action?: string;
  From?: string;
  To?: string;
  Take: number;
  Continuation?: string;
}

export class HistoryService {
  private readonly database: DatabaseHandle;

  constructor(database: DatabaseHandle) {
    this.database = database;
  }

  async list(tenantId: number, query: HistoryListQuery): Promise<HistoryPageJson> {
    const from = query.From === undefined ? undefined : new Date(query.From);
    const to = query.To === undefined ? undefined : new Date(query.To);
    if (from && to && from.getTime() > to.getTime()) throw invalidHistoryRange();
    const filter: ChangeFilter = {
      ...(query.ResourceType !== undefined ? { resource: query.ResourceType } : {}),
      ...(query.ResourceId !== undefined ? { resourceId: query.ResourceId } : {}),
      ...(query.ActorType !== undefined ? { actorType: query.ActorType.toLowerCase() } : {}),
      ...(query.ActorId !== undefined ? { actorId: query.ActorId } : {}),
      ...(query.Action !== undefined ? { action: query.Action } : {}),
      ...(from ? { from: from.toISOString() } : {}),
      // To is inclusive to the millisecond the API shows: before the next one.
      ...(to ? { before: new Date(to.getTime() + 1).toISOString() } : {}),
    };
    // A continuation goes on the query it was issued for: the same filters, in one text.
    const key = JSON.stringify(['*', filter]);
    return historyPage(this.database, tenantId, key, filter, query.Take, query.Continuation);
  }
}

// The history module (docs/api.md, "Change history"): the tenant-wide list of the change history
// and its permission area, "history", which every module's history routes belong to (each module
// declares its resources' histories at their paths: src/http/history-routes.ts). The entries are
// written by the triggers every module's tables carry (src/db/sql/025-change-history.sql).
import type { AppModule, ModuleContext } from '../../module.ts';
import { historyErrorCodes } from './history-errors.ts';
import { historyRoutes, historyTag } from './history-routes.ts';
import { HistoryService } from './history-service.ts';

export interface HistoryServices {
  history: HistoryService;
}

export function createHistoryModule(context: ModuleContext): AppModule<HistoryServices> {
  const history = new HistoryService(context.database);
  return {
    name: 'history',
    errorCodes: historyErrorCodes,
    permissions: { area: 'history' },
    openApiTags: [historyTag],
    services: { history },
    routes: async (app) => {
      await app.register(historyRoutes, { history });
    },
  };
}

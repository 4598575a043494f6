// The tenant-wide history list's query (docs/api.md, "Change history"); the entry and page shapes
// are shared with every module's history routes (src/http/history-schemas.ts).
import { Type } from 'typebox';
import { Action, ActorType, Continuation, Take } from '../../http/history-schemas.ts';

export const HistoryQuery = Type.Object(
  {
    ResourceType: Type.Optional(
      Type.String({
        pattern: '^[a-z][a-z_]{0,63}$',
        description: 'item, brand, category, tag, asset, store, physical_device, … (exact).',
      }),
    ),
    ResourceId: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    ActorType: Type.Optional(ActorType),
    ActorId: Type.Optional(
      Type.String({ minLength: 1, maxLength: 256, description: "The actor's Id." }),
    ),
    Action: Type.Optional(Action),
    From: Type.Optional(
      Type.String({ format: 'date-time', description: 'Changed at or after (inclusive).' }),
    ),
    To: Type.Optional(
      Type.String({ format: 'date-time', description: 'Changed at or before (inclusive).' }),
    ),
    Take,
    Continuation: Type.Optional(Continuation),
  },
  { additionalProperties: false },
);

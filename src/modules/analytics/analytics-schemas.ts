import { Type } from 'typebox';
import { DataEnvelope } from '../../http/paging.ts';

export const MAX_BATCH = 1000;

export const IngestBody = Type.Array(
  Type.Object(
    { Counter: Type.String({ description: 'The counter name (case-insensitive).' }) },
    {
      additionalProperties: true,
      description:
        'One record: Counter, optional CreatedDate (ISO, not in the future) and the fields of that counter.',
    },
  ),
  { minItems: 1, maxItems: MAX_BATCH },
);

export const IngestResponse = DataEnvelope(
  Type.Object({ Accepted: Type.Integer() }),
  'AnalyticsIngestResult',
);

export const CounterParams = Type.Object({ counter: Type.String({ maxLength: 64 }) });

export const SummaryParams = Type.Object({
  counter: Type.String({ maxLength: 64 }),
  period: Type.String({ maxLength: 16, description: 'daily, weekly, monthly or yearly' }),
});

const OADate = (description: string) =>
  Type.Integer({ minimum: 1, maximum: 2_958_465, description });

export const LogsQuery = Type.Object(
  {
    OADate: Type.Optional(OADate('The day (OLE Automation date) in the tenant time zone.')),
    from: Type.Optional(
      Type.String({ format: 'date-time', description: 'Instead of OADate: from (inclusive).' }),
    ),
    to: Type.Optional(
      Type.String({ format: 'date-time', description: 'Instead of OADate: to (exclusive).' }),
    ),
    itemId: Type.Optional(Type.Integer({ minimum: -2_147_483_648, maximum: 2_147_483_647 })),
    storeId: Type.Optional(Type.Integer({ minimum: -2_147_483_648, maximum: 2_147_483_647 })),
    physicalDeviceId: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    continuationKey: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
    take: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
  },
  { additionalProperties: false },
);

export const LogsResponse = Type.Object(
  {
    ContinuationToken: Type.Union([Type.String(), Type.Null()]),
    Logs: Type.Array(Type.Object({}, { additionalProperties: true })),
  },
  { title: 'AnalyticsLogPage' },
);

export const SummaryQuery = Type.Object(
  {
    startOADate: OADate('First day (inclusive).'),
    endOADate: OADate('Last day (inclusive).'),
  },
  { additionalProperties: false },
);

export const SummaryResponse = Type.Array(
  Type.Object({
    Year: Type.Integer(),
    Month: Type.Optional(Type.Integer()),
    WeekOfYear: Type.Optional(Type.Integer()),
    Day: Type.Optional(Type.Integer()),
    TotalCount: Type.Integer(),
  }),
);

export const TrendingWeight = Type.Object(
  { Counter: Type.String({ maxLength: 64 }), ImpactValue: Type.Number() },
  { additionalProperties: false },
);
export const TrendingWeights = Type.Array(TrendingWeight, { maxItems: 32 });

export const AnalyticsSettings = Type.Object(
  { TimeZone: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false, title: 'AnalyticsSettings' },
);

export const TrendingQuery = Type.Object(
  { date: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' }) },
  { additionalProperties: false },
);
export const TrendingAccepted = Type.Object({ Date: Type.String() });

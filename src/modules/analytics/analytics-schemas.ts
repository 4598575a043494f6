import { Type } from 'typebox';
import { documentedEnum } from '../../http/documented-only.ts';
import { DataEnvelope } from '../../http/paging.ts';
import { COUNTERS, ITEM_ACTION_COUNTERS } from './analytics-counters.ts';

export const MAX_BATCH = 1000;

const names = (counters: readonly { name: string }[]) => counters.map((counter) => counter.name);
/** Counters whose records are ingested (OmniShare as its four directions; not TrendingItem). */
const INGESTED = names(COUNTERS.filter((counter) => counter.ingested));
const PERIODS = ['daily', 'weekly', 'monthly', 'yearly'];
/** The zone names the server takes: UTC and the IANA zones of its ICU data. */
const TIME_ZONES = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')];

const CounterName = (description: string, counters: readonly string[]) =>
  Type.String({ maxLength: 64, description, ...documentedEnum(counters) });
const PeriodName = () =>
  Type.String({
    maxLength: 16,
    description: 'daily, weekly, monthly or yearly (any case; 400 InvalidAnalyticsQuery otherwise)',
    ...documentedEnum(PERIODS),
  });

export const IngestBody = Type.Array(
  Type.Object(
    {
      Counter: Type.String({
        description: 'The counter name (any case; 400 InvalidAnalyticsRecord otherwise).',
        ...documentedEnum(INGESTED),
      }),
    },
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

const PathCounter = () =>
  CounterName('The counter (any case; 404 UnknownCounter otherwise).', names(COUNTERS));
export const CounterParams = Type.Object({ counter: PathCounter() });

export const SummaryParams = Type.Object({ counter: PathCounter(), period: PeriodName() });

/** An item or store id as records carry it: any integer a JSON number holds exactly. */
const LoggedId = () =>
  Type.Integer({ minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER });

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
    itemId: Type.Optional(LoggedId()),
    storeId: Type.Optional(LoggedId()),
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
  {
    Counter: CounterName(
      'A counter whose records name an item (any case; 400 InvalidTrendingActionTypes otherwise).',
      names(ITEM_ACTION_COUNTERS),
    ),
    ImpactValue: Type.Number(),
  },
  { additionalProperties: false },
);
export const TrendingWeights = Type.Array(TrendingWeight, { maxItems: 32 });

export const AnalyticsSettings = Type.Object(
  {
    TimeZone: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'UTC or an IANA zone name (400 InvalidTimeZone otherwise).',
      ...documentedEnum(TIME_ZONES),
    }),
  },
  { additionalProperties: false, title: 'AnalyticsSettings' },
);

export const TrendingQuery = Type.Object(
  { date: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' }) },
  { additionalProperties: false },
);
export const TrendingAccepted = Type.Object({ Date: Type.String() });

export const AllSummaryParams = Type.Object({ period: PeriodName() });

const SummaryPeriod = SummaryResponse.items;

export const AllSummaryResponse = Type.Array(
  Type.Object({
    Counter: Type.String({
      description: 'An ingested counter (OmniShare as its four directions).',
      ...documentedEnum(INGESTED),
    }),
    Periods: Type.Array(SummaryPeriod, { description: 'Only periods with records, in order.' }),
  }),
  { title: 'CounterSummaries' },
);

export const TopTrendingQuery = Type.Object(
  {
    OADate: Type.Optional(
      OADate('The newest day to look at (default: today in the tenant time zone).'),
    ),
    days: Type.Integer({
      minimum: 1,
      maximum: 366,
      default: 7,
      description: 'How many days, ending with OADate, to look back for a computed day.',
    }),
    take: Type.Integer({ minimum: 1, maximum: 1000, default: 10 }),
  },
  { additionalProperties: false },
);

export const TopTrendingResponse = Type.Object(
  {
    Date: Type.Union([Type.String(), Type.Null()], {
      description: 'The day (YYYY-MM-DD, tenant time zone) the items are of; null when none.',
    }),
    OADate: Type.Union([Type.Integer(), Type.Null()]),
    Items: Type.Array(
      Type.Object({
        ItemId: Type.Integer(),
        ItemTitle: Type.Union([Type.String(), Type.Null()], {
          description: 'The title the latest action recorded (not read from the catalog).',
        }),
        TotalTimeImpactValue: Type.Number({
          description: 'The score: weighted actions, halved per day of age, over the stores.',
        }),
        TotalActionTypeImpactValue: Type.Number({ description: 'Weighted actions, undecayed.' }),
        TotalActionCount: Type.Integer({ description: 'Actions of the seven days.' }),
      }),
    ),
  },
  { title: 'TopTrendingItems' },
);

// /analytics/logs (ingestion), /private/analytics/servercounters/{counter}/logs|summary,
// /management/configuration/trendingactiontypes|analytics, /management/analytics/trending.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IF_MATCH_NOTE, IfMatchHeaders, ifMatch, setEtag } from '../../http/etag.ts';
import type { OpenApiTag } from '../../http/openapi-operations.ts';
import { ETAG, withHeaders } from '../../http/response-headers.ts';
import { inDataEnvelope } from '../../http/paging.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { counterNamed } from './analytics-counters.ts';
import { invalidQuery, unknownCounter } from './analytics-errors.ts';
import {
  AllSummaryParams,
  AllSummaryResponse,
  AnalyticsSettings,
  CounterParams,
  IngestBody,
  IngestResponse,
  LogsQuery,
  LogsResponse,
  SummaryParams,
  SummaryQuery,
  SummaryResponse,
  TopTrendingQuery,
  TopTrendingResponse,
  TrendingAccepted,
  TrendingQuery,
  TrendingWeights,
} from './analytics-schemas.ts';
import type { AnalyticsService, Period } from './analytics-service.ts';
import type { TrendingService } from './analytics-trending.ts';

export const TRENDING_QUEUE = 'analytics-trending';

export const analyticsTag: OpenApiTag = {
  name: 'Analytics',
  description:
    'Records of what shoppers and devices do (item views, likes, shares, carts, wishlists…), ' +
    'their pages and summaries per period, the trending items computed from them, and the ' +
    "tenant's analytics settings.",
};
const tags = [analyticsTag.name];
const stale = { 412: { $ref: 'ErrorBody#' } };
const PERIODS = new Set<Period>(['daily', 'weekly', 'monthly', 'yearly']);
const QUERY_NAMES = [
  'OADate',
  'from',
  'to',
  'itemId',
  'storeId',
  'physicalDeviceId',
  'continuationKey',
  'take',
  'startOADate',
  'endOADate',
  'days',
];
const CANONICAL = new Map(QUERY_NAMES.map((n) => [n.toLowerCase(), n]));

/** Query parameter names are matched case-insensitively (clients send oaDate and OADate). */
function canonicalQuery(request: FastifyRequest, _reply: unknown, done: () => void): void {
  const query = request.query as Record<string, unknown>;
  for (const key of Object.keys(query)) {
    const name = CANONICAL.get(key.toLowerCase());
    if (name && name !== key) {
      query[name] = query[key];
      delete query[key];
    }
  }
  done();
}

function periodOf(name: string): Period {
  const period = name.toLowerCase() as Period;
  if (!PERIODS.has(period))
    throw invalidQuery('period', 'must be daily, weekly, monthly or yearly');
  return period;
}

function counter(name: string) {
  const spec = counterNamed(name);
  if (!spec) throw unknownCounter(name);
  return spec;
}

export const analyticsRoutes: FastifyPluginAsync<{
  analytics: AnalyticsService;
  trending: TrendingService;
  jobs: JobQueue;
  bodyLimit: number;
}> = async (instance, { analytics, trending, jobs, bodyLimit }) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/analytics/logs',
    {
      bodyLimit,
      config: { unrecorded: true },
      schema: {
        tags,
        operationId: 'ingestAnalyticsLogs',
        summary: 'Ingest up to 1000 analytics records (all or nothing)',
        description:
          "Each record names its Counter and is validated against that counter's fields; any " +
          'invalid record is 400 InvalidAnalyticsRecord naming "[index].Field" and nothing is ' +
          'stored. An identity token stamps PhysicalDeviceId, PhysicalDeviceDescription and the ' +
          'store fields. Bodies up to 4 MiB. 202 with the count once stored.',
        body: IngestBody,
        response: { 202: IngestResponse },
      },
    },
    async (request, reply) => {
      const accepted = await analytics.ingest(request.tenant.id, request.body, request.principal);
      return reply.code(202).send(inDataEnvelope({ Accepted: accepted }));
    },
  );

  app.get(
    '/private/analytics/servercounters/:counter/logs',
    {
      preValidation: canonicalQuery,
      schema: {
        tags,
        operationId: 'listCounterLogs',
        summary: "One page of a counter's logs, oldest first",
        description:
          'Give OADate (a day in the tenant time zone) or from and to (400 ' +
          "InvalidAnalyticsQuery otherwise); take 1 to 1000 (default 100). The answer's " +
          'ContinuationToken, sent back as continuationKey with the same filters, gives the ' +
          'next page; it is null on the last. Parameter names are case-insensitive. 404 ' +
          'UnknownCounter.',
        params: CounterParams,
        querystring: LogsQuery,
        response: { 200: LogsResponse },
      },
    },
    async (request) => {
      const q = request.query;
      return analytics.logs(request.tenant.id, counter(request.params.counter), {
        take: q.take,
        ...(q.OADate !== undefined ? { oaDate: q.OADate } : {}),
        ...(q.from !== undefined ? { from: q.from } : {}),
        ...(q.to !== undefined ? { to: q.to } : {}),
        ...(q.itemId !== undefined ? { itemId: q.itemId } : {}),
        ...(q.storeId !== undefined ? { storeId: q.storeId } : {}),
        ...(q.physicalDeviceId !== undefined ? { physicalDeviceId: q.physicalDeviceId } : {}),
        ...(q.continuationKey !== undefined ? { continuationKey: q.continuationKey } : {}),
      });
    },
  );

  app.get(
    '/private/analytics/servercounters/:counter/summary/:period',
    {
      preValidation: canonicalQuery,
      schema: {
        tags,
        operationId: 'getCounterSummary',
        summary: 'Record counts per day, ISO week, month or year in the tenant time zone',
        description:
          'period is daily, weekly, monthly or yearly; startOADate and endOADate are included, ' +
          'at most ten years apart (400 InvalidAnalyticsQuery). Only periods with records, in ' +
          'order. 404 UnknownCounter.',
        params: SummaryParams,
        querystring: SummaryQuery,
        response: { 200: SummaryResponse },
      },
    },
    async (request) =>
      analytics.summary(
        request.tenant.id,
        counter(request.params.counter),
        periodOf(request.params.period),
        request.query.startOADate,
        request.query.endOADate,
      ),
  );

  app.get(
    '/private/analytics/summary/:period',
    {
      preValidation: canonicalQuery,
      schema: {
        tags,
        operationId: 'getCounterSummaries',
        summary: 'Record counts per period of every counter at once',
        description:
          'The summary of each counter records are ingested under, in one answer: ' +
          '[{Counter, Periods}] for the counters with records in the range, in the ' +
          "counters' order (OmniShare as its four OmniShareFrom… directions; TrendingItem left " +
          'out). period, startOADate and endOADate as in the summary of one counter (400 ' +
          'InvalidAnalyticsQuery).',
        params: AllSummaryParams,
        querystring: SummaryQuery,
        response: { 200: AllSummaryResponse },
      },
    },
    async (request) =>
      analytics.summaries(
        request.tenant.id,
        periodOf(request.params.period),
        request.query.startOADate,
        request.query.endOADate,
      ),
  );

  app.get(
    '/private/analytics/trendingitems',
    {
      preValidation: canonicalQuery,
      schema: {
        tags,
        operationId: 'getTopTrendingItems',
        summary: 'The top trending items of the newest computed day',
        description:
          'Looks for the newest day with TrendingItem records among the days days (default 7) ' +
          'that end with OADate (default today in the tenant time zone) and answers its top ' +
          'take items (default 10), each with its stores added up, highest score ' +
          '(TotalTimeImpactValue) first. Date is null and Items empty when no day in the range ' +
          'was computed.',
        querystring: TopTrendingQuery,
        response: { 200: TopTrendingResponse },
      },
    },
    async (request) =>
      trending.top(request.tenant.id, {
        days: request.query.days,
        take: request.query.take,
        ...(request.query.OADate !== undefined ? { oaDate: request.query.OADate } : {}),
      }),
  );

  app.get(
    '/management/configuration/trendingactiontypes',
    {
      schema: {
        tags,
        operationId: 'getTrendingWeights',
        summary: 'Trending action weights',
        description:
          "How much each counter's action counts towards an item's trending score, with the " +
          'ETag of the list.',
        response: { 200: withHeaders(TrendingWeights, ETAG) },
      },
    },
    async (request, reply) => {
      const { weights, version } = await trending.weights(request.tenant.id);
      setEtag(reply, version);
      return weights;
    },
  );
  app.put(
    '/management/configuration/trendingactiontypes',
    {
      schema: {
        tags,
        operationId: 'replaceTrendingWeights',
        summary: 'Replace the trending action weights (counters left out weigh nothing)',
        description:
          'Counters whose records name an item, ImpactValue −1000..1000 (400 ' +
          `InvalidTrendingActionTypes names the entry). Answers the list with its new ETag. ${IF_MATCH_NOTE}`,
        headers: IfMatchHeaders,
        body: TrendingWeights,
        response: { 200: withHeaders(TrendingWeights, ETAG), ...stale },
      },
    },
    async (request, reply) => {
      const { weights, version } = await trending.putWeights(
        request.tenant.id,
        request.body,
        ifMatch(request),
      );
      setEtag(reply, version);
      return weights;
    },
  );

  app.get(
    '/management/configuration/analytics',
    {
      schema: {
        tags,
        operationId: 'getAnalyticsSettings',
        summary: 'Analytics settings (time zone)',
        description:
          'The IANA time zone (UTC by default) that OADate days, summaries and trending days ' +
          'are counted in, with its ETag.',
        response: { 200: withHeaders(AnalyticsSettings, ETAG) },
      },
    },
    async (request, reply) => {
      const { TimeZone, version } = await analytics.settings(request.tenant.id);
      setEtag(reply, version);
      return { TimeZone };
    },
  );
  app.put(
    '/management/configuration/analytics',
    {
      schema: {
        tags,
        operationId: 'updateAnalyticsSettings',
        summary: 'Set the analytics time zone (IANA name)',
        description:
          '400 InvalidTimeZone for a name that is not an IANA zone. Answers the settings with ' +
          `their new ETag. ${IF_MATCH_NOTE}`,
        headers: IfMatchHeaders,
        body: AnalyticsSettings,
        response: { 200: withHeaders(AnalyticsSettings, ETAG), ...stale },
      },
    },
    async (request, reply) => {
      const { TimeZone, version } = await analytics.putSettings(
        request.tenant.id,
        request.body.TimeZone,
        ifMatch(request),
      );
      setEtag(reply, version);
      return { TimeZone };
    },
  );

  app.post(
    '/management/analytics/trending',
    {
      schema: {
        tags,
        operationId: 'computeTrending',
        summary: 'Compute the trending items of one day now (replaces that day)',
        description:
          'Queues the computation of that calendar day (YYYY-MM-DD, in the tenant time zone; ' +
          'at most a day ahead of now) and answers 202; its TrendingItem logs appear when the ' +
          'job ends. A daily job computes yesterday by itself.',
        querystring: TrendingQuery,
        response: { 202: TrendingAccepted },
      },
    },
    async (request, reply) => {
      const date = request.query.date;
      const parsed = new Date(`${date}T00:00:00Z`);
      if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== date)
        throw invalidQuery('date', 'must be a calendar date, YYYY-MM-DD');
      if (parsed.getTime() > Date.now() + 86_400_000)
        throw invalidQuery('date', 'may not be in the future');
      await jobs.send(TRENDING_QUEUE, { tenantId: request.tenant.id, date });
      return reply.code(202).send({ Date: date });
    },
  );
};

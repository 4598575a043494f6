// POST /private/catalog/items (the full item search) and GET /private/catalog/items/search (the
// simple one), both answered from the search engine of search-sql.ts.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { sendJsonText } from '../../../http/json-text.ts';
import { ItemList, ItemSearchQuery } from '../items/item-schemas.ts';
import { ItemSearchAnswer, ItemSearchBody } from './search-schemas.ts';
import type { SearchService } from './search-service.ts';

const tags = ['Items'];

export const searchRoutes: FastifyPluginAsync<{ search: SearchService }> = async (
  instance,
  { search },
) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/private/catalog/items',
    {
      config: { onlyReads: true },
      schema: {
        tags,
        summary: 'Search items: full text, filters, ordering and navigation counts',
        description:
          'Counts are over the filtered set; a navigation not asked for is null. Unknown CategoryId, BrandId, TagId, PriceTypeId or attribute TypeId is 400.',
        body: ItemSearchBody,
        response: { 200: ItemSearchAnswer },
      },
    },
    async (request, reply) =>
      sendJsonText(reply, await search.search(request.tenant.id, request.body)),
  );
  app.get(
    '/private/catalog/items/search',
    {
      schema: {
        tags,
        summary: 'Find items by simple filters',
        querystring: ItemSearchQuery,
        response: { 200: ItemList },
      },
    },
    async (request, reply) =>
      sendJsonText(reply, await search.simple(request.tenant.id, request.query)),
  );
};

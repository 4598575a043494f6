// POST /private/catalog/items (the full item search) and GET /private/catalog/items/search (the
// simple one), both answered from the search engine of search-sql.ts.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { sendJsonText } from '../../../http/json-text.ts';
import { itemsTag } from '../items/item-routes.ts';
import { ItemList, ItemSearchQuery } from '../items/item-schemas.ts';
import { ItemSearchAnswer, ItemSearchBody } from './search-schemas.ts';
import type { SearchService } from './search-service.ts';

const tags = [itemsTag.name];

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
        operationId: 'searchItems',
        summary: 'Search items: full text, filters, ordering and navigation counts',
        description:
          'Every body field is optional. Query matches every word in Title, Name, SKU, Model or ' +
          'the descriptions (the last word as a prefix, one typo forgiven in long words); ' +
          'CategoryId includes subcategories; passive items only with IncludePassiveItems. ' +
          'Ordered by relevance with a Query, else as OrderedPropertyName and OrderBy say, ties ' +
          'by Id. Paged by Skip (default 0) and Take (1 to 1000, default 20); TotalItemCount ' +
          'counts every match. Navigation counts are over the filtered set (a category counts its ' +
          'subcategories, as the CategoryId filter does); a navigation not asked for is null. ' +
          "IncludeDefaultImages adds the page items' default images. Unknown CategoryId, BrandId, TagId, PriceTypeId or attribute " +
          'TypeId is 400. It only reads: a member needs catalog:read.',
        body: ItemSearchBody,
        response: { 200: ItemSearchAnswer },
      },
    },
    async (request, reply) =>
      sendJsonText(
        reply,
        await search.search(request.tenant.id, request.body, request.tenant.baseUrl),
      ),
  );
  app.get(
    '/private/catalog/items/search',
    {
      schema: {
        tags,
        operationId: 'findItems',
        summary: 'Find items by simple filters',
        description:
          'The filters combine with AND; categoryId is that category only, and q matches words ' +
          'that Title, Name, SKU, Model or the descriptions start with. Passive items included; ' +
          'Id order, one page at a time (skip default 0, take 1 to 1000, default 20).',
        querystring: ItemSearchQuery,
        response: { 200: ItemList },
      },
    },
    async (request, reply) =>
      sendJsonText(reply, await search.simple(request.tenant.id, request.query)),
  );
};

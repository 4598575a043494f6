// POST /private/catalog/{item,brand,category}/{id}/history/{version}/restore: a resource back
// to a version of its change history, as one new change (docs/api.md, "Restoring").
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TSchema } from 'typebox';
import { errorResponses } from '../../../http/error-body.ts';
import {
  IF_MATCH_NOTE,
  IfMatchHeaders,
  ifMatchVersion,
  setVersionEtag,
  withVersionEtag,
} from '../../../http/etag.ts';
import { sendJsonText } from '../../../http/json-text.ts';
import { bodyOrEmpty } from '../../../http/optional-body.ts';
import { ETAG, withHeaders } from '../../../http/response-headers.ts';
import type { VersionCheck } from '../../../domain/version-check.ts';
import { brandsTag } from '../brands/brand-routes.ts';
import { Brand } from '../brands/brand-schemas.ts';
import type { BrandService } from '../brands/brand-service.ts';
import { categoriesTag } from '../categories/category-routes.ts';
import { Category } from '../categories/category-schemas.ts';
import type { CategoryService } from '../categories/category-service.ts';
import { itemsTag } from '../items/item-routes.ts';
import { Item } from '../items/item-schemas.ts';
import type { ItemService } from '../items/item-service.ts';
import { restoring, type VersionReader } from './history-versions.ts';
import { RestoreBody, RestoreParams } from './restore-schemas.ts';

export interface RestoreRoutesOptions {
  items: ItemService;
  brands: BrandService;
  categories: CategoryService;
}

type Restore = (
  tenantId: number,
  id: number,
  checkVersion: VersionCheck,
  versionOf: VersionReader,
) => Promise<{ json?: string; value?: unknown; version: number }>;

interface Restorable {
  resource: string;
  /** The resource's name in the path and in errors ("Item 12"), and in the operationId. */
  name: string;
  tag: string;
  answer: TSchema;
  restores: string;
  restore: Restore;
}

const DESCRIPTION =
  'The version (its Data in the history) becomes the current state, as one new change: the ' +
  'history records it with Action restored, RestoredFrom the version and the caller as its actor, ' +
  'and webhooks see an update. Answers the resource as its GET does, with its new ETag. 404 ' +
  'NotFound when the resource does not exist (a deleted one cannot be restored here), ' +
  'HistoryVersionNotFound when its history has no such version; 409 HistoryConflict when the ' +
  "body's ExpectedVersion is not the latest version, HistoryVersionNotRestorable for a delete's " +
  'version, RestoreReferenceMissing when the version names what no longer exists; nothing is ' +
  `written on any refusal. ${IF_MATCH_NOTE}`;

export const restoreRoutes: FastifyPluginAsync<RestoreRoutesOptions> = async (
  instance,
  { items, brands, categories },
) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const restorables: Restorable[] = [
    {
      resource: 'item',
      name: 'Item',
      tag: itemsTag.name,
      answer: Item,
      restores:
        'its fields, prices, dynamic attributes and tags (its variant group stays as it is); ' +
        '409 DuplicateSku when another item has its SKU now.',
      restore: (...args) => items.restore(...args),
    },
    {
      resource: 'brand',
      name: 'Brand',
      tag: brandsTag.name,
      answer: Brand,
      restores: 'its name; 409 DuplicateBrandName when another brand has it now.',
      restore: (...args) => brands.restore(...args),
    },
    {
      resource: 'category',
      name: 'Category',
      tag: categoriesTag.name,
      answer: Category,
      restores:
        'its name, descriptions, parent and metadata, with the rules of a move: 409 ' +
        'CategoryCycle, DuplicateCategoryName, 400 CategoryTooDeep.',
      restore: (...args) => categories.restore(...args),
    },
  ];
  for (const restorable of restorables) {
    app.post(
      `/private/catalog/${restorable.resource}/:id/history/:version/restore`,
      {
        // A request without a body restores whatever the latest version is.
        preValidation: bodyOrEmpty,
        schema: {
          tags: [restorable.tag],
          operationId: `restore${restorable.name}Version`,
          summary: `Restore ${restorable.resource === 'item' ? 'an' : 'a'} ${restorable.resource} to a version of its history`,
          description: `Restores ${restorable.restores} ${DESCRIPTION}`,
          params: RestoreParams,
          headers: IfMatchHeaders,
          body: RestoreBody,
          optionalBody: true,
          response: {
            200: withHeaders(restorable.answer, ETAG),
            ...errorResponses(409, 412),
          },
        },
      },
      async (request, reply) => {
        const { id, version } = request.params;
        const asked = {
          tenantId: request.tenant.id,
          resource: restorable.resource,
          id,
          what: `${restorable.name} ${id}`,
          version,
          expectedVersion: request.body.ExpectedVersion,
        };
        const restored = await restoring(asked, (versionOf) =>
          restorable.restore(request.tenant.id, id, ifMatchVersion(request), versionOf),
        );
        if (restored.json !== undefined) {
          setVersionEtag(reply, restored.version);
          return sendJsonText(reply, restored.json);
        }
        return withVersionEtag(reply, { value: restored.value, version: restored.version });
      },
    );
  }
};

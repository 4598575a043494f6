// Shared builders for the catalog tests: wire shapes, and price types, brands, categories, tags,
// dynamic attribute types and items created through the API the way a client would.
import { randomUUID } from 'node:crypto';
import { etagOf, expectStatus } from '../../support/expectations.ts';
import type { TestApi, TestTenant } from '../../support/test-api.ts';

export const CATALOG = '/private/catalog';

export interface Page<T> {
  Results: T[];
  TotalCount: number;
}

export interface PriceJson {
  PriceId: number;
  ItemId: number;
  NormalPrice: number;
  DiscountPrice: number | null;
  PriceTypeId: number;
  PriceTypeSymbol: string;
}

export interface DynamicAttributeJson {
  TypeId: number;
  TypeValueId: number;
  Value: string;
  TypeName: string;
}

export interface TagJson {
  Id: number;
  Name: string;
  Description: string | null;
}

export interface ItemJson {
  Id: number;
  SKU: string | null;
  RFID: string | null;
  UUID: string | null;
  Name: string | null;
  Title: string;
  Model: string | null;
  ShortDescription: string | null;
  LongDescription: string | null;
  ItemStatusId: number;
  CategoryId: number | null;
  BrandId: number | null;
  DefaultItemId: number | null;
  InStock: boolean;
  PublicWebLink: string | null;
  Rating: number | null;
  LikeCount: number;
  Prices: PriceJson[];
  DynamicAttributes: DynamicAttributeJson[];
  Tags: TagJson[];
  DateAdded: string;
  DateModified: string;
}

export interface PriceTypeJson {
  Id: number;
  Description: string;
  PriceTypeSymbol: string;
}

export interface BrandJson {
  Id: number;
  Name: string;
}

export interface MetadataJson {
  Key: string;
  Value: string;
}

export interface CategoryJson {
  Id: number;
  Name: string;
  ShortDescription: string | null;
  LongDescription: string | null;
  ParentCategoryId: number | null;
  ParentCategoryName: string | null;
  SubCategoryCount: number;
  CategoryMetadata: MetadataJson[];
}

export interface CategoryTreeItemJson {
  Id: number;
  Name: string;
  ShortDescription: string | null;
  LongDescription: string | null;
  CategoryMetadata: MetadataJson[];
  CategoryTreeItems: CategoryTreeItemJson[];
}

export interface AttributeTypeJson {
  Id: number;
  Description: string;
}

export interface VariantGroupJson {
  DefaultItemId: number;
  VariantIds: number[];
}

export interface ItemTagMappingJson {
  ItemId: number;
  TagId: number;
}

/** A name no other test of the run uses (names of brands, tags and types are unique per tenant). */
export const unique = (prefix: string) => `${prefix} ${randomUUID().slice(0, 8)}`;

async function post<T>(api: TestApi, tenant: TestTenant, url: string, body: unknown): Promise<T> {
  const response = await api.call({ method: 'POST', url: `${CATALOG}${url}`, tenant, body });
  expectStatus(response, 201);
  return response.json<T>();
}

export const createPriceType = (
  api: TestApi,
  tenant: TestTenant,
  body: Partial<{ Description: string; PriceTypeSymbol: string }> = {},
) =>
  post<PriceTypeJson>(api, tenant, '/pricetype', {
    Description: unique('Price type'),
    // Symbols are unique within a tenant: 'P' and 8 hex digits (16 characters at most).
    PriceTypeSymbol: unique('P'),
    ...body,
  });

export const createBrand = (api: TestApi, tenant: TestTenant, name = unique('Brand')) =>
  post<BrandJson>(api, tenant, '/brand', { Name: name });

export const createCategory = (
  api: TestApi,
  tenant: TestTenant,
  body: Partial<{
    Name: string;
    ShortDescription: string | null;
    LongDescription: string | null;
    ParentCategoryId: number | null;
  }> = {},
) => post<CategoryJson>(api, tenant, '/category', { Name: unique('Category'), ...body });

export const createTag = (
  api: TestApi,
  tenant: TestTenant,
  body: Partial<{ Name: string; Description: string | null }> = {},
) => post<TagJson>(api, tenant, '/tag', { Name: unique('Tag'), ...body });

export const createAttributeType = (
  api: TestApi,
  tenant: TestTenant,
  description = unique('Attribute'),
) => post<AttributeTypeJson>(api, tenant, '/dynamicattributetypes', { Description: description });

export const createItem = (api: TestApi, tenant: TestTenant, body: Record<string, unknown> = {}) =>
  post<ItemJson>(api, tenant, '/item', { Title: unique('Item'), ...body });

export async function getItem(api: TestApi, tenant: TestTenant, id: number): Promise<ItemJson> {
  const response = await api.call({ url: `${CATALOG}/item/${id}`, tenant });
  expectStatus(response, 200);
  return response.json<ItemJson>();
}

/** Fetches an item and returns its ETag. */
export async function itemEtag(api: TestApi, tenant: TestTenant, id: number): Promise<string> {
  return etagOf(await api.call({ url: `${CATALOG}/item/${id}`, tenant }));
}

/** Creates a Consumer (type 1, scope public) app of the tenant and returns a token of it. */
export async function consumerToken(api: TestApi, tenant: TestTenant): Promise<string> {
  const response = await api.call({
    method: 'POST',
    url: '/management/oauth/apps',
    tenant,
    body: { Name: unique('Consumer'), ApplicationTypeId: 1 },
  });
  expectStatus(response, 201);
  const app = response.json<{ ApplicationId: string; ApplicationSecret: string }>();
  return api.issueToken(tenant, app.ApplicationId, app.ApplicationSecret);
}

/** Creates a Private (type 2, scopes public private) app of the tenant and returns a token of it. */
export async function privateToken(api: TestApi, tenant: TestTenant): Promise<string> {
  const response = await api.call({
    method: 'POST',
    url: '/management/oauth/apps',
    tenant,
    body: { Name: unique('Private'), ApplicationTypeId: 2 },
  });
  expectStatus(response, 201);
  const app = response.json<{ ApplicationId: string; ApplicationSecret: string }>();
  return api.issueToken(tenant, app.ApplicationId, app.ApplicationSecret);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

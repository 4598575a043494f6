// The wire shapes the console reads, named after what they are: each is the generated client's
// type of the answer that carries it (clients/typescript, from the OpenAPI document), so a
// change of the document shows here at compile time.
import type { paths } from '@omnichannel/management-client';

/** The JSON answer of an operation with that status. */
type Json<
  Path extends keyof paths,
  Method extends 'get' | 'post' | 'put',
  Status extends number,
> = paths[Path][Method] extends {
  responses: { [S in Status]: { content: { 'application/json': infer Body } } };
}
  ? Body
  : never;

type ResultOf<Page> = Page extends { Results: (infer Row)[] } ? Row : never;

export type Item = Json<'/private/catalog/item/{id}', 'get', 200>;
export type SearchAnswer = Json<'/private/catalog/items', 'post', 200>;
export type SearchBody = NonNullable<
  paths['/private/catalog/items']['post']['requestBody']
>['content']['application/json'];
export type Facet = NonNullable<SearchAnswer['SearchResult']['StaticNavigation']>['Brands'][number];
export type Category = Json<'/private/catalog/categories', 'get', 200>['Categories'][number];
export type Brand = Json<'/private/catalog/brand/{id}', 'get', 200>;
export type Tag = Json<'/private/catalog/tag/{id}', 'get', 200>;
export type AttributeType = Json<'/private/catalog/dynamicattributetypes/{id}', 'get', 200>;
export type PriceType = Json<'/private/catalog/pricetype/{id}', 'get', 200>;
export type RelatedAsset = Json<'/private/catalog/items/{id}/image', 'get', 200>[number];
export type Store = Json<'/management/company/store/{id}', 'get', 200>;
export type PhysicalDevice = Json<
  '/management/company/physicaldevices/{physicalDeviceId}',
  'get',
  200
>;
export type App = Json<'/management/oauth/apps/{applicationId}', 'get', 200>;
export type Endpoint = Json<'/management/integration/endpoint', 'get', 200>;
export type Member = Json<'/management/security/members/{id}', 'get', 200>;
export type Role = ResultOf<Json<'/management/security/roles', 'get', 200>>;
export type HistoryPage = Json<'/management/history', 'get', 200>;
export type HistoryEntry = HistoryPage['Results'][number];
/** The filters of GET /management/history (its paging aside). */
export type HistoryFilters = Omit<
  NonNullable<paths['/management/history']['get']['parameters']['query']>,
  'Take' | 'Continuation'
>;

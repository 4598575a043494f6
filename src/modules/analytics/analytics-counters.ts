// The counters of contract §5.6 and the fields of their records (reference §9.3), with the
// v4 substitution of the API-user fields by PhysicalDeviceId/PhysicalDeviceDescription
// (docs/api.md, "Analytics", lists it per counter).

/**
 * 'id': the id of one of this API's items, stores, categories or brands, 64-bit;
 * 'int': any other integer, 32-bit as in v4.
 */
export type FieldType =
  'id' | 'int' | 'number' | 'bool' | 'string' | 'text' | 'uuid' | 'intArray' | 'profiles';

export interface FieldSpec {
  name: string;
  type: FieldType;
  required?: boolean;
}

/** Which fields the identity-token stamp writes the device's store into. */
export interface StoreFields {
  id: string;
  name: string;
}

export interface CounterSpec {
  /** The counter's number in the v4 enumeration (reference §9.2); stored in the table. */
  code: number;
  name: string;
  /** Ingested through POST /analytics/logs (OmniShare and TrendingItem are not). */
  ingested: boolean;
  fields: FieldSpec[];
  /** The field that fills the item_id filter column. */
  itemField?: string;
  store: StoreFields;
}

const f = (name: string, type: FieldType = 'string', required = false): FieldSpec =>
  required ? { name, type, required } : { name, type };

const device = [f('PhysicalDeviceId'), f('PhysicalDeviceDescription')];
const storeIdName = [f('StoreId', 'id'), f('StoreName')];

/**
 * The fields of a shopping-cart or wishlist item record: the reference lists the same fields for
 * both lists under the list's name, and the cart's added items also carry a Quantity.
 */
const listItem = (list: 'ShoppingCart' | 'Wishlist', kind: 'Added' | 'Removed'): FieldSpec[] => [
  f('UniqueKey', 'uuid'),
  f(`${list}Id`, 'int'),
  f(`${kind}${list}Name`),
  f('BluetoothId'),
  f(`${list}UniqueKey`, 'uuid'),
  f('ItemId', 'id', true),
  f('ItemTitle'),
  f('Longitude', 'number'),
  f('Latitude', 'number'),
  f(`${kind}StoreId`, 'id'),
  f(`${kind}StoreName`),
  f(`${list}OwnerName`),
  f(`${list}OwnerUserName`),
  f(`${list}OwnerUserTypeId`, 'int'),
  f(`${list}OwnerUserTypeDescription`),
  ...device,
  f(`${list}IsPublic`, 'bool'),
  f('CategoryName'),
  f('CategoryId', 'id'),
  f('BrandId', 'id'),
  f('BrandName'),
  ...(list === 'ShoppingCart' && kind === 'Added' ? [f('Quantity', 'int')] : []),
];

const omniShare: FieldSpec[] = [
  // SharedFromApiUserId/SharedFromApiUsername → PhysicalDeviceId/PhysicalDeviceDescription (the
  // device that shares and records); SharedToApiUser… → SharedToPhysicalDevice….
  ...device,
  f('SharedToPhysicalDeviceId'),
  f('SharedToPhysicalDeviceDescription'),
  f('PIIUserId', 'int'),
  f('PIIUsername'),
  f('OmniTicket', 'uuid', true),
  ...storeIdName,
];

const omni = (code: number, name: string): CounterSpec => ({
  code,
  name,
  ingested: true,
  fields: omniShare,
  store: { id: 'StoreId', name: 'StoreName' },
});

const list: CounterSpec[] = [
  {
    code: 1,
    name: 'WishlistByCreatedDate',
    ingested: true,
    fields: [
      f('Name'),
      f('IsPublic', 'bool'),
      f('WishlistOwnerUserId', 'int'),
      f('WishlistOwnerName'),
      f('WishlistOwnerUserName'),
      f('WishlistOwnerUserTypeId', 'int'),
      f('WishlistOwnerUserTypeDescription'),
      ...device,
      f('StoredId', 'id'),
      f('StoreName'),
      f('UniqueKey', 'uuid'),
    ],
    store: { id: 'StoredId', name: 'StoreName' },
  },
  {
    code: 2,
    name: 'WishlistByLastAccessedDate',
    ingested: true,
    fields: [
      f('WishlistName'),
      f('IsPublic', 'bool'),
      f('WishlistOwnerName'),
      f('WishlistOwnerUserName'),
      f('WishlistOwnerUserTypeId', 'int'),
      f('WishlistOwnerUserTypeDescription'),
      f('WishlistOwnerUserId', 'int'),
      ...device,
      f('StoredId', 'id'),
      f('StoreName'),
      f('WishlistUniqueKey', 'uuid'),
      f('Longitude', 'number'),
      f('Latitude', 'number'),
    ],
    store: { id: 'StoredId', name: 'StoreName' },
  },
  {
    code: 3,
    name: 'AddedWishlistItem',
    ingested: true,
    fields: listItem('Wishlist', 'Added'),
    itemField: 'ItemId',
    store: { id: 'AddedStoreId', name: 'AddedStoreName' },
  },
  {
    code: 4,
    name: 'RemovedWishlistItem',
    ingested: true,
    fields: listItem('Wishlist', 'Removed'),
    itemField: 'ItemId',
    store: { id: 'RemovedStoreId', name: 'RemovedStoreName' },
  },
  {
    code: 5,
    name: 'ShoppingCartByCreatedDate',
    ingested: true,
    fields: [
      f('ShoppingCartName'),
      f('Name'),
      f('IsPublic', 'bool'),
      f('OwnerName'),
      f('OwnerUserName'),
      f('OwnerUserTypeId', 'int'),
      f('OwnerUserTypeDescription'),
      ...device,
      f('StoredId', 'id'),
      f('StoreName'),
      f('UniqueKey', 'uuid'),
    ],
    store: { id: 'StoredId', name: 'StoreName' },
  },
  {
    code: 6,
    name: 'ShoppingCartByLastAccessedDate',
    ingested: true,
    fields: [
      f('Name'),
      f('IsPublic', 'bool'),
      f('ShoppingCartOwnerName'),
      f('ShoppingCartOwnerUserName'),
      f('ShoppingCartOwnerUserTypeId', 'int'),
      f('ShoppingCartOwnerUserTypeDescription'),
      f('ShoppingCartOwnerUserId', 'int'),
      ...device,
      f('StoredId', 'id'),
      f('StoreName'),
      f('UniqueKey', 'uuid'),
      f('Longitude', 'number'),
      f('Latitude', 'number'),
    ],
    store: { id: 'StoredId', name: 'StoreName' },
  },
  {
    code: 7,
    name: 'AddedShoppingCartItem',
    ingested: true,
    fields: listItem('ShoppingCart', 'Added'),
    itemField: 'ItemId',
    store: { id: 'AddedStoreId', name: 'AddedStoreName' },
  },
  {
    code: 8,
    name: 'RemovedShoppingCartItem',
    ingested: true,
    fields: listItem('ShoppingCart', 'Removed'),
    itemField: 'ItemId',
    store: { id: 'RemovedStoreId', name: 'RemovedStoreName' },
  },
  {
    code: 9,
    name: 'ItemView',
    ingested: true,
    fields: [
      f('ItemId', 'id', true),
      f('ItemTitle'),
      f('BrandId', 'id'),
      f('CategoryId', 'id'),
      f('ItemName'),
      f('DefaultItemId', 'id'),
      f('Model'),
      ...device,
      ...storeIdName,
    ],
    itemField: 'ItemId',
    store: { id: 'StoreId', name: 'StoreName' },
  },
  {
    code: 10,
    name: 'ItemLike',
    ingested: true,
    fields: [
      f('TargetPlatform'),
      f('TargetPostId', 'int'),
      f('RelatedItemId', 'id', true),
      f('KnownPIIUserIds', 'intArray'),
      f('UnknownUserProfiles', 'profiles'),
      f('LikeCount', 'int'),
      ...device,
      ...storeIdName,
    ],
    itemField: 'RelatedItemId',
    store: { id: 'StoreId', name: 'StoreName' },
  },
  {
    code: 11,
    name: 'ItemShare',
    ingested: true,
    fields: [
      f('SocialPostId', 'int'),
      f('ItemId', 'id', true),
      f('ItemTitle'),
      f('CategoryId', 'id'),
      f('CategoryName'),
      f('BrandId', 'id'),
      f('BrandName'),
      f('SocialPostContent', 'text'),
      f('PIIUsername'),
      f('PIIUserId', 'int'),
      ...device,
      ...storeIdName,
    ],
    itemField: 'ItemId',
    store: { id: 'StoreId', name: 'StoreName' },
  },
  {
    code: 12,
    name: 'ItemShareResponse',
    ingested: true,
    fields: [
      f('TargetPostId', 'int'),
      f('Content', 'text'),
      f('AuthorName'),
      f('SocialPlatformId', 'int'),
      f('PlatformDependentId'),
      ...device,
      ...storeIdName,
    ],
    store: { id: 'StoreId', name: 'StoreName' },
  },
  {
    code: 13,
    name: 'ItemShareInteraction',
    ingested: true,
    fields: [
      f('TargetPostId', 'int'),
      f('RelatedItemId', 'id'),
      f('Content', 'text'),
      f('TargetCommentId', 'int'),
      ...device,
      ...storeIdName,
    ],
    itemField: 'RelatedItemId',
    store: { id: 'StoreId', name: 'StoreName' },
  },
  {
    code: 14,
    name: 'OmniShare',
    ingested: false,
    fields: omniShare,
    store: { id: 'StoreId', name: 'StoreName' },
  },
  omni(15, 'OmniShareFromCustomerDeviceToCustomerDevice'),
  omni(16, 'OmniShareFromCustomerDeviceToInStoreDevice'),
  omni(17, 'OmniShareFromInStoreDeviceToCustomerDevice'),
  omni(18, 'OmniShareFromInStoreDeviceToInStoreDevice'),
  {
    code: 19,
    name: 'TrendingItem',
    ingested: false,
    fields: [
      f('StoreId', 'id'),
      f('ItemId', 'id'),
      f('ItemTitle'),
      f('BrandId', 'id'),
      f('CategoryId', 'id'),
      f('ItemName'),
      f('DefaultItemId', 'id'),
      f('Model'),
      f('TotalActionTypeImpactValue', 'number'),
      f('TotalTimeImpactValue', 'number'),
      f('TotalActionCount', 'int'),
    ],
    itemField: 'ItemId',
    store: { id: 'StoreId', name: 'StoreName' },
  },
];

export const COUNTERS: readonly CounterSpec[] = list;
export const OMNI_SHARE = 14;
export const TRENDING_ITEM = 19;
export const OMNI_SHARE_DIRECTIONS = [15, 16, 17, 18];

const byLowerName = new Map(list.map((c) => [c.name.toLowerCase(), c]));
const byCode = new Map(list.map((c) => [c.code, c]));

/** The counter of a path or body name, case-insensitively. */
export function counterNamed(name: string): CounterSpec | undefined {
  return byLowerName.get(name.toLowerCase());
}

export function counterOf(code: number): CounterSpec {
  return byCode.get(code)!;
}

/** The stored counter codes that a read of this counter covers. */
export function storedCodes(counter: CounterSpec): number[] {
  return counter.code === OMNI_SHARE ? OMNI_SHARE_DIRECTIONS : [counter.code];
}

/** Counters whose records name an item: the ones trending weights may be given for. */
export const ITEM_ACTION_COUNTERS = list.filter((c) => c.ingested && c.itemField !== undefined);

/** Default trending weights (issue: view 1, like 3, share 5, cart add 4, wishlist add 2). */
export const DEFAULT_TRENDING_WEIGHTS: { Counter: string; ImpactValue: number }[] = [
  { Counter: 'ItemView', ImpactValue: 1 },
  { Counter: 'ItemLike', ImpactValue: 3 },
  { Counter: 'ItemShare', ImpactValue: 5 },
  { Counter: 'AddedShoppingCartItem', ImpactValue: 4 },
  { Counter: 'AddedWishlistItem', ImpactValue: 2 },
];

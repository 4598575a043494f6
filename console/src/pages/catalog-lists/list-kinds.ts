// Brands, tags, attribute types and price types: each a kind of list with the same page shape
// (a paged table, a create form, edit in place, delete), described here by its fields and its
// operations through the typed client.
import { call, client } from '../../api.ts';

export type Row = Record<string, string | number | null> & { Id: number };
export type Values = Record<string, string>;

export interface ListKind {
  title: string;
  singular: string;
  fields: { name: string; label: string; required?: boolean }[];
  /** The path of a row's own page (with its History tab), when the kind has one. */
  page?: string;
  /** The kind's operations, each through the typed client. */
  list(skip: number, take: number): Promise<{ Results: Row[]; TotalCount: number }>;
  create(values: Values): Promise<Row>;
  update(id: number, values: Values): Promise<unknown>;
  remove(id: number): Promise<unknown>;
}

/** A required field as typed; an optional one, null when left empty. */
const required = (values: Values, name: string) => values[name]?.trim() ?? '';
const optional = (values: Values, name: string) => values[name]?.trim() || null;

export const LISTS: Record<string, ListKind> = {
  brands: {
    title: 'Brands',
    singular: 'brand',
    fields: [{ name: 'Name', label: 'Name', required: true }],
    page: 'brands',
    list: (skip, take) =>
      call(client.GET('/private/catalog/brands', { params: { query: { skip, take } } })),
    create: (values) =>
      call(client.POST('/private/catalog/brand', { body: { Name: required(values, 'Name') } })),
    update: (id, values) =>
      call(
        client.PUT('/private/catalog/brand/{id}', {
          params: { path: { id } },
          body: { Name: required(values, 'Name') },
        }),
      ),
    remove: (id) =>
      call(client.DELETE('/private/catalog/brand/{id}', { params: { path: { id } } })),
  },
  tags: {
    title: 'Tags',
    singular: 'tag',
    fields: [
      { name: 'Name', label: 'Name', required: true },
      { name: 'Description', label: 'Description' },
    ],
    list: (skip, take) =>
      call(client.GET('/private/catalog/tags', { params: { query: { skip, take } } })),
    create: (values) =>
      call(
        client.POST('/private/catalog/tag', {
          body: { Name: required(values, 'Name'), Description: optional(values, 'Description') },
        }),
      ),
    update: (id, values) =>
      call(
        client.PUT('/private/catalog/tag/{id}', {
          params: { path: { id } },
          body: { Name: required(values, 'Name'), Description: optional(values, 'Description') },
        }),
      ),
    remove: (id) => call(client.DELETE('/private/catalog/tag/{id}', { params: { path: { id } } })),
  },
  attributes: {
    title: 'Attribute types',
    singular: 'attribute type',
    fields: [{ name: 'Description', label: 'Description', required: true }],
    list: (skip, take) =>
      call(
        client.GET('/private/catalog/dynamicattributetypes', { params: { query: { skip, take } } }),
      ),
    create: (values) =>
      call(
        client.POST('/private/catalog/dynamicattributetypes', {
          body: { Description: required(values, 'Description') },
        }),
      ),
    update: (id, values) =>
      call(
        client.PUT('/private/catalog/dynamicattributetypes/{id}', {
          params: { path: { id } },
          body: { Description: required(values, 'Description') },
        }),
      ),
    remove: (id) =>
      call(
        client.DELETE('/private/catalog/dynamicattributetypes/{id}', { params: { path: { id } } }),
      ),
  },
  pricetypes: {
    title: 'Price types',
    singular: 'price type',
    fields: [
      { name: 'Description', label: 'Description', required: true },
      { name: 'PriceTypeSymbol', label: 'Symbol', required: true },
    ],
    list: (skip, take) =>
      call(client.GET('/private/catalog/pricetypes', { params: { query: { skip, take } } })),
    create: (values) =>
      call(
        client.POST('/private/catalog/pricetype', {
          body: {
            Description: required(values, 'Description'),
            PriceTypeSymbol: required(values, 'PriceTypeSymbol'),
          },
        }),
      ),
    update: (id, values) =>
      call(
        client.PUT('/private/catalog/pricetype/{id}', {
          params: { path: { id } },
          body: {
            Description: required(values, 'Description'),
            PriceTypeSymbol: required(values, 'PriceTypeSymbol'),
          },
        }),
      ),
    remove: (id) =>
      call(client.DELETE('/private/catalog/pricetype/{id}', { params: { path: { id } } })),
  },
};

// Asset relations (contract §5.3) of items, brands and categories × image, video, document:
// add, list, update IsDefault, remove; one default per entity and kind, also under concurrent
// requests; deleting the entity removes its relations, not the assets. The blob store does not
// take part (relations are rows), so these run on the disk store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestTenant } from '../../../support/test-api.ts';
import {
  CATALOG,
  consumerToken,
  createBrand,
  createCategory,
  createItem,
} from '../catalog-fixtures.ts';
import { expectError, expectStatus } from '../../../support/expectations.ts';
import {
  createAsset,
  jpeg,
  mp4,
  pdf,
  png,
  startStorageApi,
  type AssetJson,
  type StorageTestApi,
} from '../../storage/storage-fixtures.ts';

let api: StorageTestApi;
let acme: TestTenant;
let other: TestTenant;
let image: AssetJson;
let video: AssetJson;
let document: AssetJson;

beforeAll(async () => {
  api = await startStorageApi('disk');
  acme = await api.createTenant('acme');
  other = await api.createTenant('other');
  image = await createAsset(api, acme, png(), 'image/png', 'a.png');
  video = await createAsset(api, acme, mp4(), 'video/mp4', 'a.mp4');
  document = await createAsset(api, acme, pdf(), 'application/pdf', 'a.pdf');
});
afterAll(() => api.close());

type Entity = 'items' | 'brands' | 'categories';
const ENTITIES: Entity[] = ['items', 'brands', 'categories'];

async function createEntity(entity: Entity, tenant = acme): Promise<number> {
  if (entity === 'items') return (await createItem(api, tenant)).Id;
  if (entity === 'brands') return (await createBrand(api, tenant)).Id;
  return (await createCategory(api, tenant)).Id;
}

const url = (entity: Entity, id: number, kind: string) => `${CATALOG}/${entity}/${id}/${kind}`;
const relate = (path: string, assetId: number | string, isDefault?: boolean, tenant = acme) =>
  api.call({
    method: 'POST',
    url: `${path}?assetId=${assetId}${isDefault === undefined ? '' : `&isDefault=${isDefault}`}`,
    tenant,
  });
const list = (path: string, tenant = acme) => api.call({ url: path, tenant });
const setDefault = (path: string, body: unknown, tenant = acme) =>
  api.call({ method: 'PUT', url: path, tenant, body });
const unrelate = (path: string, assetId: number | string, tenant = acme) =>
  api.call({ method: 'DELETE', url: `${path}?assetId=${assetId}`, tenant });

const defaults = async (path: string) =>
  (await list(path))
    .json<{ AssetId: number; IsDefault: boolean }[]>()
    .filter((r) => r.IsDefault)
    .map((r) => r.AssetId);

describe('POST /private/catalog/{items|brands|categories}/{id}/{image|video|document}', () => {
  it.each(ENTITIES)('relates assets of each kind to %s: 201', async (entity) => {
    const id = await createEntity(entity);
    for (const [kind, asset] of [
      ['image', image],
      ['video', video],
      ['document', document],
    ] as const) {
      const response = await relate(url(entity, id, kind), asset.Id, kind === 'image');
      expectStatus(response, 201);
      expect(response.json()).toEqual({
        AssetId: asset.Id,
        RelatedId: id,
        IsDefault: kind === 'image',
      });
      expect(response.headers.location).toBe(url(entity, id, kind));
    }
  });

  it('makes the new default the only one', async () => {
    const id = await createEntity('items');
    const second = await createAsset(api, acme, jpeg(), 'image/jpeg', 'b.jpg');
    const path = url('items', id, 'image');
    expectStatus(await relate(path, image.Id, true), 201);
    expectStatus(await relate(path, second.Id, true), 201);
    expect(await defaults(path)).toEqual([second.Id]);
  });

  it('answers 409 when the MIME family differs from the kind', async () => {
    const id = await createEntity('brands');
    expectError(await relate(url('brands', id, 'video'), image.Id), 409, 'AssetTypeMismatch');
    expectError(await relate(url('brands', id, 'image'), document.Id), 409, 'AssetTypeMismatch');
    expectError(await relate(url('brands', id, 'document'), video.Id), 409, 'AssetTypeMismatch');
    expect((await list(url('brands', id, 'image'))).json()).toEqual([]);
  });

  it('answers 409 for a relation that exists', async () => {
    const id = await createEntity('categories');
    expectStatus(await relate(url('categories', id, 'image'), image.Id), 201);
    expectError(
      await relate(url('categories', id, 'image'), image.Id, true),
      409,
      'DuplicateAssetRelation',
    );
    expect(await defaults(url('categories', id, 'image'))).toEqual([]);
  });

  it.each(ENTITIES)('answers 404 for an unknown %s or asset', async (entity) => {
    const id = await createEntity(entity);
    expectError(await relate(url(entity, 99999999, 'image'), image.Id), 404, 'NotFound');
    expectError(await relate(url(entity, id, 'image'), 99999999), 404, 'NotFound');
  });

  it('refuses bad input with 400', async () => {
    const id = await createEntity('items');
    const path = url('items', id, 'image');
    expectError(
      await api.call({ method: 'POST', url: path, tenant: acme }),
      400,
      'ValidationFailed',
    );
    expectError(await relate(path, 'abc'), 400, 'ValidationFailed');
    expectError(await relate(path, image.Id, 'maybe' as unknown as boolean), 400);
    expectError(await relate(url('items', 0, 'image'), image.Id), 400);
  });

  it('keeps tenants apart: 401 for a foreign token, 404 for ids of another tenant, 403 without private scope', async () => {
    const id = await createEntity('items');
    const path = url('items', id, 'image');
    expectError(await relate(path, image.Id, false, { ...acme, token: other.token }), 401);
    // acme's item and asset ids on other's host: other has neither.
    expectError(await relate(path, image.Id, false, other), 404);
    const otherItem = await createEntity('items', other);
    expectError(await relate(url('items', otherItem, 'image'), image.Id, false, other), 404);
    const consumer = await consumerToken(api, acme);
    expectError(await relate(path, image.Id, false, { ...acme, token: consumer }), 403);
  });
});

describe('GET /private/catalog/{items|brands|categories}/{id}/{image|video|document}', () => {
  it('lists the related assets of the kind', async () => {
    const id = await createEntity('brands');
    const second = await createAsset(api, acme, jpeg(30), 'image/jpeg', 'b.jpg');
    await relate(url('brands', id, 'image'), image.Id, false);
    await relate(url('brands', id, 'image'), second.Id, true);
    await relate(url('brands', id, 'document'), document.Id, false);
    const response = await list(url('brands', id, 'image'));
    expectStatus(response, 200);
    expect(response.json()).toEqual([
      {
        AssetId: image.Id,
        AssetUrl: image.AssetUrl,
        MimeType: 'image/png',
        FileName: 'a.png',
        IsDefault: false,
      },
      {
        AssetId: second.Id,
        AssetUrl: second.AssetUrl,
        MimeType: 'image/jpeg',
        FileName: 'b.jpg',
        IsDefault: true,
      },
    ]);
    expect((await list(url('brands', id, 'video'))).json()).toEqual([]);
  });

  it("answers 404 for an unknown entity and for another tenant's entity", async () => {
    expectError(await list(url('categories', 99999999, 'image')), 404);
    const id = await createEntity('categories');
    expectError(await list(url('categories', id, 'image'), other), 404);
    expectError(await list(url('categories', id, 'image'), { ...acme, token: other.token }), 401);
  });
});

describe('PUT /private/catalog/{items|brands|categories}/{id}/{image|video|document}', () => {
  it('makes a relation the default, clearing the previous one, and can clear it', async () => {
    const id = await createEntity('items');
    const path = url('items', id, 'video');
    const second = await createAsset(api, acme, mp4(99), 'video/mp4', 'b.mp4');
    await relate(path, video.Id, true);
    await relate(path, second.Id, false);
    const response = await setDefault(path, { AssetId: second.Id, IsDefault: true });
    expectStatus(response, 200);
    expect(response.json()).toEqual({ AssetId: second.Id, RelatedId: id, IsDefault: true });
    expect(await defaults(path)).toEqual([second.Id]);
    expectStatus(
      await setDefault(path, { AssetId: second.Id, RelatedId: id, IsDefault: false }),
      200,
    );
    expect(await defaults(path)).toEqual([]);
  });

  it('answers 404 for an asset not related and for an unknown entity', async () => {
    const id = await createEntity('brands');
    expectError(
      await setDefault(url('brands', id, 'image'), { AssetId: image.Id, IsDefault: true }),
      404,
    );
    expectError(
      await setDefault(url('brands', 99999999, 'image'), { AssetId: image.Id, IsDefault: true }),
      404,
    );
    await relate(url('brands', id, 'image'), image.Id);
    expectError(
      await setDefault(url('brands', id, 'image'), { AssetId: image.Id, IsDefault: true }, other),
      404,
    );
  });

  it('refuses bad bodies with 400', async () => {
    const id = await createEntity('items');
    const path = url('items', id, 'image');
    await relate(path, image.Id);
    expectError(await setDefault(path, { AssetId: image.Id }), 400, 'ValidationFailed');
    expectError(
      await setDefault(path, { AssetId: image.Id, IsDefault: true, Url: 'x' }),
      400,
      'ValidationFailed',
    );
    expectError(
      await setDefault(path, { AssetId: image.Id, RelatedId: id + 1, IsDefault: true }),
      400,
      'IdMismatch',
    );
  });

  it('leaves exactly one default under concurrent changes', async () => {
    const id = await createEntity('categories');
    const path = url('categories', id, 'image');
    const assets: AssetJson[] = [];
    for (let i = 0; i < 8; i++)
      assets.push(await createAsset(api, acme, png(i + 1, 3), 'image/png', `${i}.png`));
    for (const asset of assets.slice(0, 4)) expectStatus(await relate(path, asset.Id, false), 201);
    const responses = await Promise.all([
      ...assets
        .slice(0, 4)
        .map((asset) => setDefault(path, { AssetId: asset.Id, IsDefault: true })),
      ...assets.slice(4).map((asset) => relate(path, asset.Id, true)),
    ]);
    for (const response of responses) expect([200, 201]).toContain(response.statusCode);
    expect(await defaults(path)).toHaveLength(1);
    expect((await list(path)).json()).toHaveLength(8);
  });
});

describe('DELETE /private/catalog/{items|brands|categories}/{id}/{image|video|document}', () => {
  it('removes the relation, not the asset', async () => {
    const id = await createEntity('items');
    const path = url('items', id, 'document');
    await relate(path, document.Id, true);
    expectStatus(await unrelate(path, document.Id), 204);
    expect((await list(path)).json()).toEqual([]);
    expectError(await unrelate(path, document.Id), 404);
    expectStatus(
      await api.call({ url: `/management/storage/asset/${document.Id}`, tenant: acme }),
      200,
    );
  });

  it('answers 404 for an unknown entity, 400 without assetId, 404 on another tenant', async () => {
    expectError(await unrelate(url('brands', 99999999, 'image'), image.Id), 404);
    const id = await createEntity('brands');
    await relate(url('brands', id, 'image'), image.Id);
    expectError(
      await api.call({ method: 'DELETE', url: url('brands', id, 'image'), tenant: acme }),
      400,
    );
    expectError(await unrelate(url('brands', id, 'image'), image.Id, other), 404);
    expect((await list(url('brands', id, 'image'))).json()).toHaveLength(1);
  });
});

describe('deleting related things', () => {
  it.each([
    ['items', 'item'],
    ['brands', 'brand'],
    ['categories', 'category'],
  ] as const)(
    'deleting one of the %s removes its relations, not the assets',
    async (entity, path) => {
      const asset = await createAsset(api, acme, png(7, 7), 'image/png', 'x.png');
      const id = await createEntity(entity);
      await relate(url(entity, id, 'image'), asset.Id, true);
      expectStatus(
        await api.call({ method: 'DELETE', url: `${CATALOG}/${path}/${id}`, tenant: acme }),
        204,
      );
      expectStatus(
        await api.call({ url: `/management/storage/asset/${asset.Id}`, tenant: acme }),
        200,
      );
      // No relation left: the asset deletes without force.
      expectStatus(
        await api.call({
          method: 'DELETE',
          url: `/management/storage/asset/${asset.Id}`,
          tenant: acme,
        }),
        204,
      );
    },
  );

  it('refuses to delete a related asset (409) unless force=true, which removes the relations', async () => {
    const asset = await createAsset(api, acme, png(5, 9), 'image/png', 'y.png');
    const item = await createEntity('items');
    const brand = await createEntity('brands');
    await relate(url('items', item, 'image'), asset.Id, true);
    await relate(url('brands', brand, 'image'), asset.Id);
    const assetPath = `/management/storage/asset/${asset.Id}`;
    expectError(
      await api.call({ method: 'DELETE', url: assetPath, tenant: acme }),
      409,
      'AssetInUse',
    );
    expectError(
      await api.call({ method: 'DELETE', url: `${assetPath}?force=false`, tenant: acme }),
      409,
    );
    expectStatus(
      await api.call({ method: 'DELETE', url: `${assetPath}?force=true`, tenant: acme }),
      204,
    );
    expect((await list(url('items', item, 'image'))).json()).toEqual([]);
    expect((await list(url('brands', brand, 'image'))).json()).toEqual([]);
    expectError(await api.call({ url: assetPath, tenant: acme }), 404);
  });
});

// The item's images as the editor holds them until Save: uploaded files are assets already (the
// storage area), but an image is related to the item, removed from it or made its default only
// when the item is saved (a new item gets its images right after it is created), so that Save
// and leaving without saving mean the same for images as for every other field.
import { call, client } from '../../../api.ts';
import type { RelatedAsset } from '../../../types.ts';

export interface StagedImage {
  assetId: number;
  url: string;
  fileName: string;
  isDefault: boolean;
}

const IMAGES = '/private/catalog/items/{id}/image';

export const stagedOf = (related: RelatedAsset[]): StagedImage[] =>
  related.map((r) => ({
    assetId: r.AssetId,
    url: r.AssetUrl,
    fileName: r.FileName,
    isDefault: r.IsDefault,
  }));

export async function loadImages(id: number): Promise<StagedImage[]> {
  return stagedOf(await call(client.GET(IMAGES, { params: { path: { id } } })));
}

/** The images with `assetId` the default (one default at most). */
export const withDefault = (images: StagedImage[], assetId: number) =>
  images.map((image) => ({ ...image, isDefault: image.assetId === assetId }));

/**
 * Makes the item's related images what the editor holds: relates the new ones, removes the
 * dropped ones, then sets the default. Answers the images as the API then has them.
 */
export async function saveImages(
  id: number,
  before: StagedImage[],
  after: StagedImage[],
): Promise<StagedImage[]> {
  const path = { id };
  const had = new Set(before.map((i) => i.assetId));
  const keeps = new Set(after.map((i) => i.assetId));
  for (const image of before.filter((i) => !keeps.has(i.assetId)))
    await call(client.DELETE(IMAGES, { params: { path, query: { assetId: image.assetId } } }));
  for (const image of after.filter((i) => !had.has(i.assetId)))
    await call(
      client.POST(IMAGES, {
        params: { path, query: { assetId: image.assetId, isDefault: image.isDefault } },
      }),
    );
  const chosen = after.find((i) => i.isDefault);
  const was = before.find((i) => i.isDefault);
  if (chosen && had.has(chosen.assetId) && chosen.assetId !== was?.assetId)
    await call(
      client.PUT(IMAGES, { params: { path }, body: { AssetId: chosen.assetId, IsDefault: true } }),
    );
  return loadImages(id);
}

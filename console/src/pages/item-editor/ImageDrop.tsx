// An item's images: the related images with their default, and a drop zone (or file picker)
// that uploads each file as an asset with visible progress, then relates it to the item.
import { useState, type DragEvent } from 'react';
import { call, client, uploadAsset } from '../../api.ts';
import { ErrorMessage, Progress, useAction, useLoad } from '../../components.tsx';

export function ImageDrop({ itemId, editable }: { itemId: number; editable: boolean }) {
  const imagesPath = '/private/catalog/items/{id}/image';
  const path = { id: itemId };
  const images = useLoad(() => call(client.GET(imagesPath, { params: { path } })), [itemId]);
  const [uploads, setUploads] = useState<{ name: string; progress: number }[]>([]);
  const [over, setOver] = useState(false);
  const action = useAction();

  const send = (files: File[]) =>
    action.run(async () => {
      let hasDefault = (images.data ?? []).some((i) => i.IsDefault);
      for (const file of files) {
        setUploads((u) => [...u, { name: file.name, progress: 0 }]);
        const asset = await uploadAsset(file, (progress) =>
          setUploads((u) => u.map((x) => (x.name === file.name ? { ...x, progress } : x))),
        );
        await call(
          client.POST(imagesPath, {
            params: { path, query: { assetId: asset.Id, isDefault: !hasDefault } },
          }),
        );
        hasDefault = true;
        setUploads((u) => u.filter((x) => x.name !== file.name));
      }
      images.reload();
    });

  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (!editable) return;
    void send([...event.dataTransfer.files]);
  };

  const remove = (assetId: number) =>
    action.run(async () => {
      await call(client.DELETE(imagesPath, { params: { path, query: { assetId } } }));
      images.reload();
    });
  const makeDefault = (assetId: number) =>
    action.run(async () => {
      await call(
        client.PUT(imagesPath, { params: { path }, body: { AssetId: assetId, IsDefault: true } }),
      );
      images.reload();
    });

  return (
    <div>
      <ErrorMessage error={images.error ?? action.error} />
      <ul className="images">
        {(images.data ?? []).map((image) => (
          <li key={image.AssetId}>
            <img src={image.AssetUrl} alt={image.FileName} width={96} height={96} />
            <span>
              {image.FileName}
              {image.IsDefault && ' (default)'}
            </span>
            {editable && (
              <span>
                {!image.IsDefault && (
                  <button type="button" onClick={() => void makeDefault(image.AssetId)}>
                    Make default
                  </button>
                )}
                <button type="button" onClick={() => void remove(image.AssetId)}>
                  Remove {image.FileName}
                </button>
              </span>
            )}
          </li>
        ))}
      </ul>
      {editable && (
        <div
          className={over ? 'dropzone over' : 'dropzone'}
          onDragOver={(event) => {
            event.preventDefault();
            setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={drop}
        >
          <p>Drop images here, or</p>
          <label className="button">
            Choose images
            <input
              type="file"
              accept="image/*"
              multiple
              className="visually-hidden"
              onChange={(event) => {
                void send([...(event.target.files ?? [])]);
                event.target.value = '';
              }}
            />
          </label>
        </div>
      )}
      {uploads.map((u) => (
        <Progress key={u.name} value={u.progress} label={`Uploading ${u.name}`} />
      ))}
    </div>
  );
}

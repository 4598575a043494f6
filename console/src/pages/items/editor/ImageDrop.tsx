// The item's images in its form: the images it will have once saved (make default, remove), and
// a drop zone (or file picker) that uploads each file as an asset with visible progress; what
// is shown here is related to the item by Save (item-images.ts).
import { useState, type DragEvent } from 'react';
import { uploadAsset } from '../../../api.ts';
import { ErrorMessage, Progress, Section, errorText } from '../../../components.tsx';
import { withDefault, type StagedImage } from './item-images.ts';

export function ImageDrop(props: {
  images: StagedImage[];
  onChange: (images: StagedImage[]) => void;
  editable: boolean;
  isNew: boolean;
}) {
  const { images, onChange, editable } = props;
  const [uploads, setUploads] = useState<{ name: string; progress: number }[]>([]);
  const [over, setOver] = useState(false);
  const [failure, setFailure] = useState<string>();

  const send = async (files: File[]) => {
    setFailure(undefined);
    let next = images;
    for (const file of files) {
      setUploads((u) => [...u, { name: file.name, progress: 0 }]);
      try {
        const asset = await uploadAsset(file, (progress) =>
          setUploads((u) => u.map((x) => (x.name === file.name ? { ...x, progress } : x))),
        );
        next = [
          ...next,
          {
            assetId: asset.Id,
            url: asset.AssetUrl,
            fileName: asset.FileName,
            isDefault: !next.some((i) => i.isDefault),
          },
        ];
        onChange(next);
      } catch (error) {
        setFailure(errorText(error));
      } finally {
        setUploads((u) => u.filter((x) => x.name !== file.name));
      }
    }
  };
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (editable) void send([...event.dataTransfer.files]);
  };
  const remove = (assetId: number) => {
    const left = images.filter((i) => i.assetId !== assetId);
    // The first one left becomes the default when the default goes.
    const first = left[0];
    onChange(first && !left.some((i) => i.isDefault) ? withDefault(left, first.assetId) : left);
  };

  return (
    <Section title="Images">
      <ErrorMessage error={failure} />
      <p className="muted">
        {props.isNew
          ? 'Add images now: they are related to the item when you create it.'
          : 'Changes to the images are saved with the item.'}
      </p>
      <ul className="images">
        {images.map((image) => (
          <li key={image.assetId}>
            <img src={image.url} alt={image.fileName} width={96} height={96} />
            <span>
              {image.fileName}
              {image.isDefault && ' (default)'}
            </span>
            {editable && (
              <span>
                {!image.isDefault && (
                  <button
                    type="button"
                    onClick={() => onChange(withDefault(images, image.assetId))}
                  >
                    Make default
                  </button>
                )}
                <button type="button" onClick={() => remove(image.assetId)}>
                  Remove {image.fileName}
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
    </Section>
  );
}

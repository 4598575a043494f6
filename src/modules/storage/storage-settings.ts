// The storage module's settings, from the environment (src/config.ts composes every module's).
import { ConfigError } from '../../config/config-error.ts';
import { integer, read, type Env } from '../../config/env-readers.ts';

export interface StorageSettings {
  /** Largest asset upload in bytes (contract §4: 25 MiB). */
  assetMaxBytes: number;
  /**
   * Most ranges (after combining overlapping and adjacent ones) that one request for an asset's
   * bytes may ask for; a Range with more is ignored and the whole asset is served.
   */
  assetMaxRanges: number;
  /** An S3-compatible blob store; without it blobs stay under DATA_DIR/blobs. */
  s3: S3Settings | undefined;
}

/** Where S3_URL points. The secret is never logged (see s3Url). */
export interface S3Settings {
  /** The service's URL; undefined for AWS itself (s3://…), which the SDK finds from the region. */
  endpoint: string | undefined;
  bucket: string;
  region: string;
  /** undefined: the SDK's default credential chain (environment, instance role …). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  forcePathStyle: boolean;
}

const S3_URL_FORMAT =
  'must be http(s)://KEY:SECRET@host[:port]/bucket[?region=…&forcePathStyle=true|false] or s3://KEY:SECRET@bucket[?region=…]';

/**
 * The text without its leading and trailing slashes. A scan, not `/^\/+|\/+$/g`: that expression
 * tries `\/+$` at every slash of a run, quadratic in the run's length (issue 52).
 */
export function trimSlashes(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text[start] === '/') start++;
  while (end > start && text[end - 1] === '/') end--;
  return text.slice(start, end);
}

/** S3_URL, validated; an error shows the URL with its credentials masked. */
function s3Url(env: Env, name: string): S3Settings | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    // reported below
  }
  const fail = (expectation: string) => {
    const masked = url
      ? `${url.protocol}//${url.username || url.password ? '***:***@' : ''}${url.host}${url.pathname}${url.search}`
      : '(unparseable URL)';
    return new ConfigError(name, expectation, masked);
  };
  if (!url || !['http:', 'https:', 's3:'].includes(url.protocol)) throw fail(S3_URL_FORMAT);
  const aws = url.protocol === 's3:';
  const bucket = aws ? url.hostname : trimSlashes(url.pathname);
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw fail(
      `${S3_URL_FORMAT}; the bucket name must be 3..63 lowercase letters, digits, dots or hyphens`,
    );
  }
  if (Boolean(url.username) !== Boolean(url.password)) {
    throw fail('must carry both the access key and the secret, or neither');
  }
  for (const key of url.searchParams.keys()) {
    if (key !== 'region' && key !== 'forcePathStyle')
      throw fail(`${S3_URL_FORMAT} (unknown parameter ${key})`);
  }
  const pathStyle = url.searchParams.get('forcePathStyle');
  if (pathStyle !== null && pathStyle !== 'true' && pathStyle !== 'false') {
    throw fail('forcePathStyle must be true or false');
  }
  return {
    endpoint: aws ? undefined : `${url.protocol}//${url.host}`,
    bucket,
    region: url.searchParams.get('region') ?? 'us-east-1',
    credentials: url.username
      ? {
          accessKeyId: decodeURIComponent(url.username),
          secretAccessKey: decodeURIComponent(url.password),
        }
      : undefined,
    // Path-style addressing works with every S3-compatible server; AWS itself takes either.
    forcePathStyle: pathStyle === null ? !aws : pathStyle === 'true',
  };
}

export function storageSettings(env: Env): StorageSettings {
  return {
    assetMaxBytes: integer(env, 'ASSET_MAX_BYTES', 26_214_400, 1, 5_368_709_120),
    assetMaxRanges: integer(env, 'ASSET_MAX_RANGES', 16, 1, 1000),
    s3: s3Url(env, 'S3_URL'),
  };
}

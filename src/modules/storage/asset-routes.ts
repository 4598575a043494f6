// /management/storage/asset, /management/storage/asset/raw, /management/storage/assets, and the
// asset content under {tenant base URL}/storage/blobs/{key}.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Readable } from 'node:stream';
import { IF_MATCH_NOTE, IfMatchHeaders, ifMatch, setEtag } from '../../http/etag.ts';
import { ETAG, withHeaders } from '../../http/response-headers.ts';
import { ApiError } from '../../http/errors.ts';
import type { OpenApiTag } from '../../http/openapi-operations.ts';
import { PagingQuery } from '../../http/paging.ts';
import { BlobMissingError, type BlobStore } from './blob-store.ts';
import { sendAssetContent } from './asset-content.ts';
import {
  AssetContentResponses,
  Asset,
  AssetBody,
  AssetIdParams,
  AssetKeyParams,
  AssetList,
  DeleteAssetQuery,
  RawUploadQuery,
  UPLOAD_MEDIA_TYPES,
} from './asset-schemas.ts';
import { ASSET_CONTENT_PATH, type AssetService } from './asset-service.ts';
import { assetContentNotFound, assetTooLarge, invalidFileBody } from './storage-errors.ts';

export const assetsTag: OpenApiTag = {
  name: 'Assets',
  description:
    'Uploaded files (images, videos, documents, import and export files) and their bytes, ' +
    "served with no token at each asset's unguessable AssetUrl.",
};
const tags = [assetsTag.name];
// What a client may send to read an asset's bytes conditionally or in part.
const ContentRequestHeaders = Type.Object({
  'If-None-Match': Type.Optional(
    Type.String({ description: 'The ETag read before: 304 with no body when it still matches.' }),
  ),
  Range: Type.Optional(
    Type.String({
      description: 'bytes=… ranges (RFC 9110 §14): 206 with them, 416 when none is satisfiable.',
    }),
  ),
  'If-Range': Type.Optional(
    Type.String({ description: 'The ETag read before: Range applies only while it matches.' }),
  ),
});
const BASE = '/management/storage';
const created = { 201: Asset, 400: { $ref: 'ErrorBody#' }, 413: { $ref: 'ErrorBody#' } };
const URL_KEY = /^[A-Za-z0-9_-]{43}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export interface AssetRouteOptions {
  assets: AssetService;
  store: BlobStore;
  /** ASSET_MAX_RANGES: most ranges one request for an asset's bytes may ask for. */
  maxRanges: number;
}

/** Decodes FileBody: standard base64, line breaks allowed; 413 past the limit. */
function decodeFileBody(text: string, maxBytes: number): Buffer {
  const compact = /\s/.test(text) ? text.replace(/\s+/g, '') : text;
  if (compact.length % 4 !== 0 || !BASE64.test(compact)) throw invalidFileBody();
  const padding = compact.endsWith('==') ? 2 : compact.endsWith('=') ? 1 : 0;
  if ((compact.length / 4) * 3 - padding > maxBytes) throw assetTooLarge(maxBytes);
  return Buffer.from(compact, 'base64');
}

export const assetRoutes: FastifyPluginAsync<AssetRouteOptions> = async (
  instance,
  { assets, store, maxRanges },
) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const maxBytes = assets.maxBytes;

  app.post(
    `${BASE}/asset`,
    {
      // base64 is 4/3 of the bytes, plus the JSON around it.
      bodyLimit: Math.ceil(maxBytes / 3) * 4 + 64 * 1024,
      schema: {
        tags,
        operationId: 'uploadAsset',
        summary: 'Upload an asset as JSON with a base64 FileBody',
        description:
          'FileBody is the file in standard base64. Images are checked against their first ' +
          'bytes (400 ContentDoesNotMatchMimeType); empty files are 400 EmptyAsset; 413 ' +
          'AssetTooLarge past ASSET_MAX_BYTES. Answers 201 with the asset, its AssetUrl and its ' +
          'Location. For large files, POST /management/storage/asset/raw streams instead.',
        body: AssetBody,
        response: created,
      },
    },
    async (request, reply) => {
      const { FileName, MimeType, FileBody } = request.body;
      const declared = assets.checkDeclared({ fileName: FileName, mimeType: MimeType });
      const asset = await assets.createFromBuffer(
        request.tenant.id,
        request.tenant.baseUrl,
        declared,
        decodeFileBody(FileBody, maxBytes),
      );
      return reply.code(201).header('Location', `${BASE}/asset/${asset.Id}`).send(asset);
    },
  );

  // The raw upload takes any content type and streams the body to the blob store.
  await app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    raw.withTypeProvider<TypeBoxTypeProvider>().post(
      `${BASE}/asset/raw`,
      {
        schema: {
          tags,
          operationId: 'uploadRawAsset',
          summary: 'Upload an asset as the raw request body',
          description:
            'The file is the body and its MIME type the Content-Type header (415 ' +
            'MissingContentType without). The body is streamed to storage, never held in ' +
            'memory; 413 AssetTooLarge past ASSET_MAX_BYTES. Checks as for POST ' +
            '/management/storage/asset. Answers 201 with the asset and its Location.',
          querystring: RawUploadQuery,
          rawBody: {
            description:
              "The file, of any media type type/subtype (its Content-Type is the asset's MimeType): " +
              'the common ones are listed, then a range for each top-level type.',
            required: true,
            mediaTypes: UPLOAD_MEDIA_TYPES,
          },
          response: { ...created, 415: { $ref: 'ErrorBody#' } },
        },
      },
      async (request, reply) => {
        const mimeType = request.headers['content-type'];
        if (mimeType === undefined || request.body === undefined) {
          throw new ApiError(
            415,
            'MissingContentType',
            'Send the file as the body with its MIME type as Content-Type.',
          );
        }
        const declared = assets.checkDeclared({ fileName: request.query.fileName, mimeType });
        const length = Number(request.headers['content-length']);
        if (Number.isFinite(length) && length > maxBytes) throw assetTooLarge(maxBytes);
        const asset = await assets.createFromStream(
          request.tenant.id,
          request.tenant.baseUrl,
          declared,
          request.body as Readable,
        );
        return reply.code(201).header('Location', `${BASE}/asset/${asset.Id}`).send(asset);
      },
    );
  });

  app.get(
    `${BASE}/asset/:id`,
    {
      schema: {
        tags,
        operationId: 'getAsset',
        summary: 'Fetch an asset',
        description:
          'Its file name, MIME type, size and AssetUrl (where its bytes are), with its ETag. ' +
          '404 for an unknown id.',
        params: AssetIdParams,
        response: { 200: withHeaders(Asset, ETAG) },
      },
    },
    async (request, reply) => {
      const { asset, version } = await assets.get(
        request.tenant.id,
        request.params.id,
        request.tenant.baseUrl,
      );
      setEtag(reply, version);
      return asset;
    },
  );

  app.delete(
    `${BASE}/asset/:id`,
    {
      schema: {
        tags,
        operationId: 'deleteAsset',
        summary: 'Delete an asset (409 while related, unless force=true)',
        description:
          '409 AssetInUse while items, brands or categories relate it, unless force=true ' +
          `removes those relations too. Its AssetUrl stops answering. Answers 204. ${IF_MATCH_NOTE}`,
        params: AssetIdParams,
        querystring: DeleteAssetQuery,
        headers: IfMatchHeaders,
        response: { 204: Type.Null(), 409: { $ref: 'ErrorBody#' }, 412: { $ref: 'ErrorBody#' } },
      },
    },
    async (request, reply) => {
      await assets.delete(request.tenant.id, request.params.id, {
        force: request.query.force,
        checkVersion: ifMatch(request),
      });
      return reply.code(204).send(null);
    },
  );

  app.get(
    `${BASE}/assets`,
    {
      schema: {
        tags,
        operationId: 'listAssets',
        summary: 'List assets',
        description:
          'One page at a time: skip (default 0) and take (1 to 1000, default 20); TotalCount ' +
          'counts them all.',
        querystring: PagingQuery,
        response: { 200: AssetList },
      },
    },
    async (request) => assets.list(request.tenant.id, request.query, request.tenant.baseUrl),
  );

  // GET and HEAD in one route: Fastify's automatic HEAD route would answer Content-Length: 0.
  app.route({
    method: ['GET', 'HEAD'],
    url: `${ASSET_CONTENT_PATH}/:key`,
    config: { access: 'anonymous', unversioned: true },
    schema: {
      tags,
      operationId: 'getAssetContent',
      summary: "An asset's bytes (its AssetUrl); no token",
      description:
        'ETag (304 on If-None-Match), Cache-Control, Range (206; several ranges as ' +
        'multipart/byteranges, overlapping and adjacent ones combined; more than ASSET_MAX_RANGES ' +
        '(16) left: the whole asset, 200; 416 when none is satisfiable), If-Range. HTML, XHTML, ' +
        'SVG, XML and JavaScript are sent as attachments; a JavaScript asset that a page of the ' +
        'same origin loads as a script (Sec-Fetch-Site: same-origin, Sec-Fetch-Dest: script or a ' +
        'worker) is 403 AssetNotScriptSource.',
      params: AssetKeyParams,
      headers: ContentRequestHeaders,
      response: AssetContentResponses,
    },
    handler: async (request, reply) => {
      const { key } = request.params;
      const content = URL_KEY.test(key) ? await assets.content(request.tenant.id, key) : undefined;
      if (!content) throw assetContentNotFound();
      try {
        return await sendAssetContent(request, reply, store, content, { maxRanges });
      } catch (error) {
        if (!(error instanceof BlobMissingError)) throw error;
        // Deleted (on another instance, within the lookup cache's seconds) and collected.
        assets.forgetContent(request.tenant.id, key);
        throw assetContentNotFound();
      }
    },
  });
};

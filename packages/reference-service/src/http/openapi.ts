/** The OpenAPI 3.1 document, generated from the same domain schemas that validate requests. */
import {
  endpoints,
  ENDPOINT_IDS,
  ApiErrorBody,
  extensionEndpoints,
  IDEMPOTENCY_HONOURED,
  IDEMPOTENCY_SUPPORT_HEADER,
  QUICKLOOK_VARIANTS,
  SIGNED_URL_PARAMS,
  VISUALIZATION_PNG_HEADERS,
  VisualizationIdParams,
  VisualizationPngRequest,
} from '@eo/domain';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

function toSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const s = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as JsonSchema;
  delete s.$schema;
  return s;
}

function parameters(schema: z.ZodType | undefined, where: 'path' | 'query') {
  if (!schema) return [];
  const js = toSchema(schema, 'input') as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(js.properties ?? {}).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || (js.required ?? []).includes(name),
    schema: s,
    ...(typeof s.description === 'string' ? { description: s.description } : {}),
  }));
}

/** The capability header, on every response (shown on creates, where it matters). */
const idempotencySupport = {
  [IDEMPOTENCY_SUPPORT_HEADER]: {
    description:
      'This service honours Idempotency-Key on every create: a repeat with the same key and body replays the first response and creates nothing. Sent on every response; a client resends a create that may have reached the service only when it has seen it.',
    schema: { type: 'string', const: IDEMPOTENCY_HONOURED },
  },
};

const idempotencyKeyParam = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', maxLength: 200 },
  description:
    'Repeat a create safely: the same key and body return the first response (kept 24 h).',
};

type Paths = Record<string, Record<string, unknown>>;
type ErrorResponse = { description: string; content: Record<string, unknown> };

/** Adds one operation under its path (a path may hold several methods). */
function addOperation(paths: Paths, template: string, method: string, op: unknown): void {
  const path = template.replace(/:([a-z_]+)/g, '{$1}');
  paths[path] = { ...(paths[path] ?? {}), [method.toLowerCase()]: op };
}

export function buildOpenApiDocument(serverUrl?: string) {
  const errorResponse: ErrorResponse = {
    description: 'Error',
    content: { 'application/json': { schema: toSchema(ApiErrorBody, 'output') } },
  };
  const paths: Paths = {};
  addSpecOperations(paths, errorResponse);
  addExtensionOperations(paths, errorResponse);
  addIndexPngOperation(paths, errorResponse);
  addSignedFileOperations(paths, errorResponse);
  return {
    openapi: '3.1.0',
    info: {
      title: 'EO imagery service (EO Field Desk reference implementation)',
      version: '0',
      description:
        'Every endpoint of the EO imagery API spec, plus the reads, the index PNG and the quicklook files tagged as extensions. Choices where the spec is open are listed in packages/reference-service/README.md.',
    },
    servers: serverUrl ? [{ url: serverUrl }] : [],
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'Authorization' } },
    },
    paths,
  };
}

/** Every endpoint of the spec, from the endpoint table. */
function addSpecOperations(paths: Paths, errorResponse: ErrorResponse): void {
  for (const id of ENDPOINT_IDS) {
    const def = endpoints[id] as (typeof endpoints)[typeof id] & {
      params?: z.ZodType;
      query?: z.ZodType;
      body?: z.ZodType;
    };
    const op: Record<string, unknown> = {
      operationId: id,
      summary: def.summary,
      security: [{ apiKey: [] }],
      parameters: [
        ...parameters(def.params, 'path'),
        ...parameters(def.query, 'query'),
        ...(def.kind === 'create' ? [idempotencyKeyParam] : []),
      ],
      responses: {
        [String(def.status)]: {
          description: def.status === 201 ? 'Created' : 'OK',
          ...(def.kind === 'create' ? { headers: idempotencySupport } : {}),
          content: { 'application/json': { schema: toSchema(def.response, 'output') } },
        },
        '400': errorResponse,
        '401': errorResponse,
        ...(def.params ? { '404': errorResponse } : {}),
        ...(def.kind === 'create' ? { '409': errorResponse } : {}),
      },
    };
    if (def.body && def.method === 'POST' && id !== 'createJob') {
      op.requestBody = {
        required: true,
        content: { 'application/json': { schema: toSchema(def.body, 'input') } },
      };
    }
    addOperation(paths, def.path, def.method, op);
  }
}

/**
 * Our reads (and the downloads' creates) beyond the spec, tagged so a reader knows another
 * service may not offer them.
 */
function addExtensionOperations(paths: Paths, errorResponse: ErrorResponse): void {
  for (const [id, def] of Object.entries(extensionEndpoints)) {
    const create = def.kind === 'create';
    const op = {
      operationId: id,
      summary: def.summary,
      tags: ['extension (not in the spec)'],
      security: [{ apiKey: [] }],
      parameters: [
        ...parameters('params' in def ? def.params : undefined, 'path'),
        ...parameters('query' in def ? def.query : undefined, 'query'),
        ...(create ? [idempotencyKeyParam] : []),
      ],
      ...('body' in def
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: toSchema(def.body, 'input') } },
            },
          }
        : {}),
      responses: {
        [String(def.status)]: {
          description: create ? 'Created' : 'OK',
          ...(create ? { headers: idempotencySupport } : {}),
          content: { 'application/json': { schema: toSchema(def.response, 'output') } },
        },
        ...(create ? { '400': errorResponse } : {}),
        '401': errorResponse,
        '404': errorResponse,
        ...(create ? { '409': errorResponse } : {}),
      },
    };
    addOperation(paths, def.path, def.method, op);
  }
}

/** From the provider's real service (not our spec): the index PNG of a visualization. */
function addIndexPngOperation(paths: Paths, errorResponse: ErrorResponse): void {
  paths['/v0/aois/{aoi_id}/visualizations/{visualization_id}/png'] = {
    post: {
      operationId: 'generateIndexPng',
      summary:
        "A visualization's index as a PNG (extension: from the real service, not in the spec)",
      tags: ['extension (not in the spec)'],
      security: [{ apiKey: [] }],
      parameters: parameters(VisualizationIdParams, 'path'),
      requestBody: {
        required: true,
        content: { 'application/json': { schema: toSchema(VisualizationPngRequest, 'input') } },
      },
      responses: {
        '200': {
          description: 'RGBA PNG, transparent outside the AOI',
          headers: Object.fromEntries(
            Object.values(VISUALIZATION_PNG_HEADERS).map((h) => [
              h,
              { schema: { type: 'string' } },
            ]),
          ),
          content: { 'image/png': { schema: { type: 'string', format: 'binary' } } },
        },
        '400': errorResponse,
        '401': errorResponse,
        '404': errorResponse,
      },
    },
  };
}

/** The signature's query parameters of a signed URL; `required` says which must be there. */
const signatureParams = (required: (name: string) => boolean) =>
  Object.values(SIGNED_URL_PARAMS).map((name) => ({
    name,
    in: 'query',
    required: required(name),
    schema: { type: 'string' },
  }));

/** An optional request header (conditional and range requests of the signed files). */
const header = (name: string) => ({
  name,
  in: 'header',
  required: false,
  schema: { type: 'string' },
});

/**
 * The files behind signed URLs: no API key, the signature is the permission. Quicklooks behind
 * asset hrefs, scene COGs behind a download's signed_url (imagery/cog), and a download's
 * manifest when it holds several scenes (downloads/files.ts).
 */
function addSignedFileOperations(paths: Paths, errorResponse: ErrorResponse): void {
  paths['/quicklooks/{source}/{id}/{file}'] = {
    get: {
      operationId: 'getQuicklook',
      summary: 'A quicklook behind a signed asset href (extension: not in the spec)',
      tags: ['extension (not in the spec)'],
      parameters: [
        { name: 'source', in: 'path', required: true, schema: { enum: ['archive', 'catalog'] } },
        { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
        {
          name: 'file',
          in: 'path',
          required: true,
          schema: { enum: QUICKLOOK_VARIANTS.map((v) => `${v}.png`) },
        },
        ...signatureParams((name) => name !== SIGNED_URL_PARAMS.org),
        header('Range'),
        header('If-None-Match'),
      ],
      responses: {
        '200': {
          description: 'PNG (strong ETag, immutable)',
          content: { 'image/png': { schema: { type: 'string', format: 'binary' } } },
        },
        '206': { description: 'One byte range' },
        '304': { description: 'Not modified' },
        '403': errorResponse,
        '404': errorResponse,
        '416': errorResponse,
      },
    },
  };
  paths['/rasters/{source}/{id}/{file}'] = {
    get: {
      operationId: 'getSceneCog',
      summary: "A scene's Cloud-Optimized GeoTIFF behind a signed URL (extension: not in the spec)",
      tags: ['extension (not in the spec)'],
      parameters: [
        { name: 'source', in: 'path', required: true, schema: { enum: ['archive', 'catalog'] } },
        { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
        { name: 'file', in: 'path', required: true, schema: { enum: ['scene.tif'] } },
        ...signatureParams(() => true),
        header('Range'),
        header('If-Range'),
        header('If-None-Match'),
      ],
      responses: {
        '200': {
          description: 'The COG (strong ETag, immutable); HEAD answers the same headers',
          content: {
            'image/tiff; application=geotiff; profile=cloud-optimized': {
              schema: { type: 'string', format: 'binary' },
            },
          },
        },
        '206': { description: 'One byte range, or several as multipart/byteranges' },
        '304': { description: 'Not modified' },
        '403': errorResponse,
        '404': errorResponse,
        '416': errorResponse,
        '503': errorResponse,
      },
    },
  };
  paths['/downloads/{download_id}/manifest.json'] = {
    get: {
      operationId: 'getDownloadManifest',
      summary:
        "A download's manifest: each scene's file and its signed URL (extension: behind a download's signed_url)",
      tags: ['extension (not in the spec)'],
      parameters: [
        { name: 'download_id', in: 'path', required: true, schema: { type: 'string' } },
        ...signatureParams(() => true),
        header('Range'),
      ],
      responses: {
        '200': { description: 'JSON manifest (strong ETag)', content: { 'application/json': {} } },
        '206': { description: 'One byte range' },
        '304': { description: 'Not modified' },
        '403': errorResponse,
        '404': errorResponse,
        '416': errorResponse,
      },
    },
  };
}

/**
 * `buildApp(config)`: the whole service as a Fastify instance that is not listening yet
 * (tests use `app.inject` or listen on 127.0.0.1:0; `server.ts` listens for real).
 */
import { IDEMPOTENCY_HONOURED, IDEMPOTENCY_SUPPORT_HEADER, LIMITS } from '@eo/domain';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { resolveConfig, type ServerConfig } from './config';
import type { AppContext } from './context';
import { openDatabase } from './db/client';
import { makeRouter } from './http/endpoint';
import {
  clientErrorHandler,
  frameworkErrors,
  installErrorHandling,
  MAX_PATH_PARAM_LENGTH,
} from './http/errors';
import { installCompression } from './http/compression';
import { installQuietClose } from './http/quiet-close';
import { watchClosing } from './http/closing';
import { buildOpenApiDocument } from './http/openapi';
import { seedPresetIndices } from './indices/presets';
import { registerDeliveryRoutes } from './deliveries/routes';
import { registerDownloadRoutes } from './downloads/routes';
import { registerIndexRoutes } from './indices/routes';
import { registerAoiRoutes } from './aois/routes';
import { registerVisualizationRoutes } from './visualizations/routes';
import { registerVisualizationPngRoute } from './visualizations/png-route';
import { registerJobPackageRoutes } from './jobs/packages';
import { registerJobRoutes } from './jobs/routes';
import { registerOrderRoutes } from './orders/routes';
import { registerArchiveRoutes } from './archive/routes';
import { registerCatalogRoutes } from './catalog/routes';
import { registerReferenceRoutes } from './reference/routes';
import { Worker } from './worker/worker';
import { registerQuicklookRoutes } from './imagery/routes';
import { loadSigningSecret, UrlSigner } from './imagery/signing';
import { QuicklookStore } from './imagery/store';
import { makeSceneLookup, registerRasterRoutes, SceneCogs } from './imagery/cog';
import { RenderPool } from './render/pool';

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}

export async function buildApp(
  partial: Partial<ServerConfig> & { dataDir: string },
): Promise<FastifyInstance> {
  const config = resolveConfig(partial);
  const database = openDatabase(config.dbFile);
  // Presets are shared by every organisation: present in every database, seeded or not.
  seedPresetIndices(database.sqlite, Math.round(config.now()) * 1000);
  const app = Fastify({
    logger:
      config.logLevel === false
        ? false
        : { level: config.logLevel, redact: ['req.headers.authorization'] },
    bodyLimit: LIMITS.maxBodyBytes,
    // Never log the Authorization header; request ids for correlating logs.
    requestIdHeader: 'x-request-id',
    // Every answer in our error shape, Fastify's and Node's own included (http/errors.ts).
    frameworkErrors,
    clientErrorHandler,
    return503OnClosing: false,
    routerOptions: { maxParamLength: MAX_PATH_PARAM_LENGTH },
  });
  const worker = new Worker(database.sqlite, {
    stepDelayMs: config.stepDelayMs,
    tickMs: config.workerTickMs,
    nowMs: config.now,
    log: (msg, err) => app.log.warn({ err }, msg),
  });
  const signer = new UrlSigner(loadSigningSecret(config.dataDir), config.now, config.assetOrigin);
  const render = new RenderPool(config.renderPool);
  const cogs = new SceneCogs({
    dir: path.join(config.dataDir, 'rasters'),
    budgetBytes: config.rasterCacheBytes,
    run: (owner, job) => render.run(owner, 'sceneTiles', job, { wait: true }),
    inFlight: render.limits.threads + 1,
    sign: (pathname, org) => signer.sign(pathname, undefined, org),
    lookup: makeSceneLookup(database),
    log: (msg, err) => app.log.warn({ err }, msg),
    now: config.now,
  });
  const ctx: AppContext = {
    sqlite: database.sqlite,
    db: database.db,
    config,
    worker,
    imagery: {
      signer,
      store: new QuicklookStore(config.dataDir, render, (msg, err) => app.log.warn({ err }, msg)),
      cogs,
    },
    render,
    nowUs: () => Math.round(config.now()) * 1000,
  };
  app.decorate('ctx', ctx);

  // JSON only: anything else (text/plain included) is a 415.
  app.removeContentTypeParser(['text/plain']);
  const closing = watchClosing(app);
  installErrorHandling(app, closing);
  installQuietClose(app, closing);
  // Every create honours Idempotency-Key (http/endpoint.ts). Said on every response, errors
  // included, so a client knows it from its first read, before it must decide whether a
  // create that may have reached us can be sent again (packages/reference-service/README.md, Idempotency).
  app.addHook('onSend', (_request, reply, payload, done) => {
    void reply.header(IDEMPOTENCY_SUPPORT_HEADER, IDEMPOTENCY_HONOURED);
    done(null, payload);
  });
  installCompression(app);

  const openapi = buildOpenApiDocument();
  app.get('/v0/openapi.json', { logLevel: 'warn' }, async () => openapi);
  await app.register(swagger, { mode: 'static', specification: { document: openapi as never } });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/healthz', async () => ({ ok: true }));
  // The provider's connectivity check: a JSON string, no key needed (as /healthz).
  app.get('/ping', { logLevel: 'warn' }, async (_request, reply) =>
    reply.type('application/json').send(JSON.stringify('pong')),
  );

  const router = makeRouter(app, ctx);
  registerIndexRoutes(router, ctx);
  registerAoiRoutes(router, ctx);
  registerVisualizationRoutes(router, ctx);
  registerJobRoutes(router, ctx);
  registerJobPackageRoutes(router, app, ctx);
  registerOrderRoutes(router, ctx);
  registerDeliveryRoutes(router, ctx);
  registerDownloadRoutes(router, app, ctx);
  registerArchiveRoutes(router, ctx);
  registerCatalogRoutes(router, ctx);
  registerReferenceRoutes(router, ctx);
  registerQuicklookRoutes(app, ctx);
  registerRasterRoutes(app, ctx);
  registerVisualizationPngRoute(app, ctx);

  app.addHook('onReady', async () => worker.start());
  // Before the server waits for the requests in flight: a request waiting for a render would
  // hold the close until the whole queue rendered (tens of seconds with a full queue). Closing the
  // pool fails the renders waiting and under way at once (503, retry), their temp files go; its
  // threads end while the server closes (not awaited here: the server listens until then).
  let renderClosed: Promise<void> = Promise.resolve();
  app.addHook('preClose', async () => {
    cogs.close();
    renderClosed = render.close();
  });
  app.addHook('onClose', async () => {
    await renderClosed;
    await cogs.settled();
    worker.stop();
    database.close();
  });
  return app;
}

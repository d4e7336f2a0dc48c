/**
 * The package graph of CONTRIBUTING.md is enforced by eslint.config.js. These tests lint probe
 * snippets as if they were files of each package, so a config change that silently stops
 * enforcing a rule fails here.
 */
import { describe, expect, it } from 'vitest';
import { ruleIds } from './lint-probe';

describe('package graph lint', () => {
  it('domain may not import node built-ins, other packages, or use DOM/Node globals', async () => {
    const file = 'packages/domain/src/probe.ts';
    expect(await ruleIds(file, "import fs from 'node:fs';\nexport const a = fs;\n")).toContain(
      'no-restricted-imports',
    );
    expect(await ruleIds(file, "import path from 'path';\nexport const a = path;\n")).toContain(
      'no-restricted-imports',
    );
    expect(
      await ruleIds(file, "import { x } from '@eo/api-client';\nexport const a = x;\n"),
    ).toContain('no-restricted-imports');
    expect(await ruleIds(file, 'export const a = window.location;\n')).toContain(
      'no-restricted-globals',
    );
    expect(await ruleIds(file, 'export const a = process.env;\n')).toContain(
      'no-restricted-globals',
    );
    expect(await ruleIds(file, "import { z } from 'zod';\nexport const a = z;\n")).toEqual([]);
  });

  it('no package imports another by relative path or deep into its src', async () => {
    expect(
      await ruleIds(
        'packages/sync/src/probe.ts',
        "import { a } from '../../api-client/src/client';\nexport const b = a;\n",
      ),
    ).toContain('no-restricted-imports');
    expect(
      await ruleIds(
        'packages/reference-service/src/probe.ts',
        "import { a } from '@eo/domain/src/enums';\nexport const b = a;\n",
      ),
    ).toContain('no-restricted-imports');
  });

  it('the arrows point one way: domain <- api-client <- sync <- desktop; domain <- catalog-store <- reference-service, sync', async () => {
    const imp = (pkg: string) => `import { a } from '${pkg}';\nexport const b = a;\n`;
    expect(await ruleIds('packages/api-client/src/probe.ts', imp('@eo/domain'))).toEqual([]);
    expect(await ruleIds('packages/api-client/src/probe.ts', imp('@eo/sync'))).toContain(
      'no-restricted-imports',
    );
    expect(await ruleIds('packages/sync/src/probe.ts', imp('@eo/api-client'))).toEqual([]);
    expect(await ruleIds('packages/sync/src/probe.ts', imp('@eo/reference-service'))).toContain(
      'no-restricted-imports',
    );
    expect(
      await ruleIds('packages/reference-service/src/probe.ts', imp('@eo/api-client')),
    ).toContain('no-restricted-imports');
    expect(await ruleIds('packages/reference-service/src/probe.ts', imp('@eo/domain'))).toEqual([]);
    // catalog-store sits between domain and its two users, server and sync
    expect(await ruleIds('packages/catalog-store/src/probe.ts', imp('@eo/domain'))).toEqual([]);
    for (const pkg of ['@eo/reference-service', '@eo/sync', '@eo/api-client']) {
      expect(await ruleIds('packages/catalog-store/src/probe.ts', imp(pkg)), pkg).toContain(
        'no-restricted-imports',
      );
    }
    expect(
      await ruleIds('packages/reference-service/src/probe.ts', imp('@eo/catalog-store')),
    ).toEqual([]);
    expect(await ruleIds('packages/sync/src/probe.ts', imp('@eo/catalog-store'))).toEqual([]);
    expect(await ruleIds('packages/api-client/src/probe.ts', imp('@eo/catalog-store'))).toContain(
      'no-restricted-imports',
    );
    // apps/server is the eo-server command line over the service package: no package imports
    // it, and it imports nothing but the service and domain
    expect(await ruleIds('apps/server/src/probe.ts', imp('@eo/reference-service'))).toEqual([]);
    for (const pkg of ['@eo/sync', '@eo/catalog-store', '@eo/fixtures'])
      expect(await ruleIds('apps/server/src/probe.ts', imp(pkg)), pkg).toContain(
        'no-restricted-imports',
      );
    for (const file of ['packages/sync/src/probe.ts', 'packages/sync/bench/probe.ts'])
      expect(await ruleIds(file, imp('@eo/server')), file).toContain('no-restricted-imports');
    // tests of client packages may start the real reference service
    expect(
      await ruleIds(
        'packages/api-client/src/__tests__/probe.spec.ts',
        imp('@eo/reference-service'),
      ),
    ).toEqual([]);
  });

  it('bench-kit and fixtures: imported by tests and benchmarks; the service only by tests and benchmarks of packages', async () => {
    const imp = (pkg: string) => `import { a } from '${pkg}';\nexport const b = a;\n`;
    const restricted = async (file: string, pkg: string) =>
      (await ruleIds(file, imp(pkg))).includes('no-restricted-imports');
    // bench-kit imports no workspace package; only tests and benchmarks import it
    expect(await restricted('tools/bench-kit/src/probe.ts', '@eo/domain')).toBe(true);
    expect(await restricted('tools/bench-kit/src/probe.ts', 'node:net')).toBe(false);
    for (const file of [
      'packages/sync/src/probe.ts',
      'packages/api-client/src/probe.ts',
      'packages/reference-service/src/probe.ts',
      'apps/desktop/src/backend/probe.ts',
      'apps/desktop/src/main/probe.ts',
      'apps/desktop/src/renderer/probe.ts',
    ])
      expect(await restricted(file, '@eo/bench-kit'), file).toBe(true);
    for (const file of [
      'packages/sync/bench/probe.ts',
      'packages/api-client/bench/probe.ts',
      'packages/api-client/src/__tests__/probe.spec.ts',
      'packages/reference-service/bench/probe.ts',
      'apps/desktop/bench/probe.ts',
    ])
      expect(await restricted(file, '@eo/bench-kit'), file).toBe(false);
    // fixtures: domain only; the service's seed and every package's tests use them
    expect(await restricted('packages/fixtures/src/probe.ts', '@eo/domain')).toBe(false);
    expect(await restricted('packages/fixtures/src/probe.ts', '@eo/reference-service')).toBe(true);
    expect(await restricted('packages/reference-service/src/probe.ts', '@eo/fixtures')).toBe(false);
    expect(await restricted('packages/sync/src/probe.ts', '@eo/fixtures')).toBe(true);
    expect(await restricted('packages/sync/src/pull/__tests__/probe.ts', '@eo/fixtures')).toBe(
      false,
    );
    expect(await restricted('packages/catalog-store/src/__tests__/probe.ts', '@eo/fixtures')).toBe(
      false,
    );
    // the running reference service: tests and benchmarks of api-client and sync, never src
    expect(await restricted('packages/sync/bench/probe.ts', '@eo/reference-service')).toBe(false);
    expect(
      await restricted('packages/sync/src/pull/__tests__/probe.ts', '@eo/reference-service'),
    ).toBe(false);
    expect(await restricted('packages/api-client/test/probe.ts', '@eo/reference-service')).toBe(
      false,
    );
    expect(await restricted('packages/api-client/src/probe.ts', '@eo/reference-service')).toBe(
      true,
    );
    expect(
      await restricted('packages/catalog-store/src/__tests__/probe.ts', '@eo/reference-service'),
    ).toBe(true);
  });

  it('formats: imports only domain, no DOM; sync and the desktop Node side may use it, nothing else', async () => {
    const imp = (pkg: string) => `import { a } from '${pkg}';\nexport const b = a;\n`;
    const file = 'packages/formats/src/probe.ts';
    expect(await ruleIds(file, imp('@eo/domain'))).toEqual([]);
    expect(await ruleIds(file, imp('node:fs'))).toEqual([]);
    expect(await ruleIds(file, imp('@xmldom/xmldom'))).toEqual([]);
    for (const pkg of [
      '@eo/sync',
      '@eo/api-client',
      '@eo/catalog-store',
      '@eo/reference-service',
      '@eo/desktop',
    ]) {
      expect(await ruleIds(file, imp(pkg)), pkg).toContain('no-restricted-imports');
    }
    expect(await ruleIds(file, 'export const a = new DOMParser();\n')).toContain(
      'no-restricted-globals',
    );
    expect(await ruleIds(file, 'export const a = document.title;\n')).toContain(
      'no-restricted-globals',
    );
    expect(await ruleIds('packages/sync/src/probe.ts', imp('@eo/formats'))).toEqual([]);
    expect(await ruleIds('apps/desktop/src/backend/probe.ts', imp('@eo/formats'))).toEqual([]);
    for (const user of [
      'packages/domain/src/probe.ts',
      'packages/api-client/src/probe.ts',
      'packages/catalog-store/src/probe.ts',
      'packages/reference-service/src/probe.ts',
      'apps/desktop/src/renderer/stores/probe.ts',
      'apps/desktop/src/shared/probe.ts',
    ]) {
      expect(await ruleIds(user, imp('@eo/formats')), user).toContain('no-restricted-imports');
    }
  });

  it('geotiff: pure like domain (Node only in its /node and /testing entries); used by server, sync, desktop and the renderer', async () => {
    const imp = (pkg: string) => `import { a } from '${pkg}';\nexport const b = a;\n`;
    const restricted = async (file: string, code: string) =>
      (await ruleIds(file, code)).includes('no-restricted-imports');
    const src = 'packages/geotiff/src/read/probe.ts';
    expect(await restricted(src, imp('@eo/domain'))).toBe(false);
    for (const pkg of ['node:zlib', 'fs', '@eo/sync', '@eo/formats', '@eo/reference-service'])
      expect(await restricted(src, imp(pkg)), pkg).toBe(true);
    expect(await ruleIds(src, 'export const a = Buffer.alloc(1);\n')).toContain(
      'no-restricted-globals',
    );
    expect(await ruleIds(src, 'export const a = document.title;\n')).toContain(
      'no-restricted-globals',
    );
    for (const file of [
      'packages/geotiff/src/node/probe.ts',
      'packages/geotiff/src/testing/probe.ts',
      'packages/geotiff/src/__tests__/probe.spec.ts',
    ])
      expect(await restricted(file, imp('node:zlib')), file).toBe(false);
    for (const user of [
      'packages/reference-service/src/imagery/probe.ts',
      'packages/sync/src/probe.ts',
      'apps/desktop/src/backend/probe.ts',
      'apps/desktop/src/renderer/stores/probe.ts',
    ])
      expect(await restricted(user, imp('@eo/geotiff')), user).toBe(false);
    for (const user of [
      'packages/domain/src/probe.ts',
      'packages/api-client/src/probe.ts',
      'packages/formats/src/probe.ts',
      'packages/catalog-store/src/probe.ts',
    ])
      expect(await restricted(user, imp('@eo/geotiff')), user).toBe(true);
    // the renderer decodes in a worker: the portable entry only, never zlib/files or GDAL
    for (const entry of ['@eo/geotiff/node', '@eo/geotiff/testing'])
      expect(
        await restricted('apps/desktop/src/renderer/workers/probe.ts', imp(entry)),
        entry,
      ).toBe(true);
    expect(await restricted('apps/desktop/src/backend/probe.ts', imp('@eo/geotiff/node'))).toBe(
      false,
    );
  });

  it('desktop: the renderer reaches the backend only through the contract; main has no DOM', async () => {
    const imp = (pkg: string) => `import { a } from '${pkg}';\nexport const b = a;\n`;
    const renderer = 'apps/desktop/src/renderer/stores/probe.ts';
    for (const pkg of [
      'node:fs',
      'fs',
      'electron',
      '@eo/sync',
      '@eo/reference-service',
      '@eo/api-client',
    ]) {
      expect(await ruleIds(renderer, imp(pkg)), pkg).toContain('no-restricted-imports');
    }
    expect(await ruleIds(renderer, imp('@eo/domain'))).toEqual([]);
    expect(await ruleIds(renderer, 'export const a = process.env;\n')).toContain(
      'no-restricted-globals',
    );
    expect(await ruleIds(renderer, 'export const a = window.location;\n')).toEqual([]);
    const main = 'apps/desktop/src/main/probe.ts';
    expect(await ruleIds(main, 'export const a = document.title;\n')).toContain(
      'no-restricted-globals',
    );
    expect(await ruleIds(main, imp('@eo/sync'))).toEqual([]);
    expect(await ruleIds('apps/desktop/src/backend/probe.ts', imp('electron'))).toContain(
      'no-restricted-imports',
    );
    expect(await ruleIds('apps/desktop/src/shared/probe.ts', imp('node:path'))).toContain(
      'no-restricted-imports',
    );
    expect(await ruleIds('apps/desktop/src/shared/probe.ts', imp('@eo/sync'))).toContain(
      'no-restricted-imports',
    );
  });

  it('desktop zones: renderer and shared never reach the Node side (or each other) by relative path', async () => {
    const imp = (spec: string) => `import { a } from '${spec}';\nexport const b = a;\n`;
    // the same climb to src/ from every depth of the renderer, its tests and its components
    const forbidden: Array<[string, string]> = [
      ['apps/desktop/src/renderer/probe.ts', '../backend/catalog'],
      ['apps/desktop/src/renderer/probe.ts', '../preload'],
      ['apps/desktop/src/renderer/stores/probe.ts', '../../backend/catalog'],
      ['apps/desktop/src/renderer/stores/probe.ts', '../../main/window'],
      ['apps/desktop/src/renderer/stores/probe.ts', '../../preload/index'],
      ['apps/desktop/src/renderer/stores/probe.ts', '../../browser-mode/server'],
      ['apps/desktop/src/renderer/stores/probe.ts', '../../../src/backend/catalog'],
      [
        'apps/desktop/src/renderer/components/jobs/__tests__/probe.spec.ts',
        '../../../../backend/x',
      ],
      ['apps/desktop/src/shared/probe.ts', '../backend/catalog'],
      ['apps/desktop/src/shared/probe.ts', '../renderer/stores/catalog'],
      ['apps/desktop/src/shared/probe.ts', '../main'],
      ['apps/desktop/src/shared/__tests__/probe.spec.ts', '../../preload/index'],
      ['apps/desktop/src/shared/__tests__/probe.spec.ts', '../../renderer/bridge'],
      // an area's handlers run in the backend: its contract, the shared contract and the
      // renderer never import them; an area's contract stays out of the Node side
      ['apps/desktop/src/renderer/stores/probe.ts', '../../areas/catalog/handlers'],
      ['apps/desktop/src/renderer/stores/probe.ts', '../../areas/handlers'],
      ['apps/desktop/src/shared/contract/probe.ts', '../../areas/catalog/handlers'],
      ['apps/desktop/src/areas/catalog/probe.ts', './handlers'],
      ['apps/desktop/src/areas/catalog/probe.ts', '../outbox/handlers'],
      ['apps/desktop/src/areas/catalog/probe.ts', '../../backend/catalog-view'],
      ['apps/desktop/src/areas/catalog/probe.ts', '../../renderer/bridge'],
      ['apps/desktop/src/areas/catalog/probe.ts', 'node:fs'],
      ['apps/desktop/src/areas/catalog/probe.ts', '@eo/sync'],
      ['apps/desktop/src/areas/catalog/handlers.ts', 'electron'],
      ['apps/desktop/src/areas/probe.ts', '../../../packages/sync/src/index'],
    ];
    for (const [file, spec] of forbidden) {
      expect(await ruleIds(file, imp(spec)), `${file} <- ${spec}`).toContain(
        'no-restricted-imports',
      );
    }
    const vue = `<script setup lang="ts">\nimport { a } from '../../backend/x';\nconsole.log(a);\n</script>\n`;
    expect(await ruleIds('apps/desktop/src/renderer/components/ProbeView.vue', vue)).toContain(
      'no-restricted-imports',
    );
    // what stays allowed: inside a zone, the renderer into shared, main into the backend
    const allowed: Array<[string, string]> = [
      ['apps/desktop/src/renderer/stores/probe.ts', '../../shared/contract'],
      ['apps/desktop/src/renderer/stores/probe.ts', '../format/units'],
      // renderer/main.ts is the renderer's own entry, not src/main
      ['apps/desktop/src/renderer/stores/probe.ts', '../main'],
      ['apps/desktop/src/renderer/probe.ts', './main'],
      ['apps/desktop/src/shared/probe.ts', './names'],
      ['apps/desktop/src/shared/__tests__/probe.spec.ts', '../contract'],
      ['apps/desktop/src/main/probe.ts', '../backend/catalog'],
      ['apps/desktop/src/main/probe.ts', '../shared/contract'],
      ['apps/desktop/src/renderer/stores/probe.ts', '../../areas/basket/contract'],
      ['apps/desktop/src/areas/catalog/probe.ts', '../../shared/contract/fields'],
      ['apps/desktop/src/areas/handover/contract.ts', '../outbox/contract'],
      ['apps/desktop/src/areas/catalog/handlers.ts', '../../backend/catalog-view'],
      ['apps/desktop/src/areas/catalog/handlers.ts', '@eo/sync'],
      ['apps/desktop/src/areas/handlers.ts', './packages/handlers'],
      ['apps/desktop/src/shared/contract/probe.ts', '../../areas/packages/contract'],
      ['apps/desktop/src/backend/probe.ts', '../areas/handlers'],
    ];
    for (const [file, spec] of allowed) {
      expect(await ruleIds(file, imp(spec)), `${file} <- ${spec}`).toEqual([]);
    }
  });
});

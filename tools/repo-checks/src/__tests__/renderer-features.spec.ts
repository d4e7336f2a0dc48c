/**
 * The renderer's slices (eslint.config.js, `sliceBlocks`): features (screens) do not import each
 * other; a capability (a part several screens embed) never imports a feature, and capabilities
 * import each other one way only (`CAPABILITY_ORDER`). What two use otherwise lives in ui/,
 * stores/, map/, format/ or forms/, layered one way (`SHARED_FOLDER_ORDER`). Probe snippets linted
 * as files of a slice or a shared folder show the rules hold at every depth and through every path.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ruleIds } from './lint-probe';

const root = path.resolve(import.meta.dirname, '../../../..');
const RENDERER = 'apps/desktop/src/renderer';
const FEATURES = `${RENDERER}/features`;
const CAPABILITIES = `${RENDERER}/capabilities`;
const imp = (from: string): string => `import { a } from '${from}';\nexport const b = a;\n`;
const vue = (from: string): string =>
  `<script setup lang="ts">\nimport { a } from '${from}';\nconst b = a;\n</script>\n<template><p>{{ b }}</p></template>\n`;
const refused = async (file: string, code: string): Promise<boolean> =>
  (await ruleIds(file, code)).includes('no-restricted-imports');

describe('renderer features lint', () => {
  it('refuses a feature importing another one, at any depth and by any path', async () => {
    expect(await refused(`${FEATURES}/jobs/probe.ts`, imp('../catalog/catalog-layers'))).toBe(true);
    expect(await refused(`${FEATURES}/jobs/parts/probe.ts`, imp('../../catalog/x'))).toBe(true);
    expect(await refused(`${FEATURES}/jobs/a/b/probe.ts`, imp('../../../orders/x'))).toBe(true);
    expect(await refused(`${FEATURES}/jobs/probe.ts`, imp('../../features/catalog/x'))).toBe(true);
    expect(
      await refused(`${FEATURES}/jobs/probe.ts`, imp('../../../renderer/features/aois/x')),
    ).toBe(true);
    expect(await refused(`${FEATURES}/jobs/Probe.vue`, vue('../catalog/MapView.vue'))).toBe(true);
  });

  it('lets a feature import itself and the shared folders', async () => {
    const file = `${FEATURES}/jobs/parts/probe.ts`;
    expect(await refused(file, imp('./x'))).toBe(false);
    expect(await refused(file, imp('../job-words'))).toBe(false);
    expect(await refused(file, imp('../../jobs/job-words'))).toBe(false);
    expect(await refused(file, imp('../../../stores/outbox-store'))).toBe(false);
    expect(await refused(file, imp('../../../ui/StatusBadge.vue'))).toBe(false);
    expect(await refused(`${FEATURES}/jobs/Probe.vue`, vue('../../forms/form-flow'))).toBe(false);
  });

  it("keeps the renderer's other rules in feature files", async () => {
    expect(await refused(`${FEATURES}/jobs/probe.ts`, imp('node:fs'))).toBe(true);
    expect(await refused(`${FEATURES}/jobs/probe.ts`, imp('../../../backend/dispatch'))).toBe(true);
  });

  it('lets a feature import capabilities', async () => {
    const file = `${FEATURES}/jobs/parts/probe.ts`;
    expect(await refused(file, imp('../../../capabilities/file-export/export-file'))).toBe(false);
    expect(await refused(`${FEATURES}/jobs/Probe.vue`, vue('../../capabilities/x/X.vue'))).toBe(
      false,
    );
  });

  it('leaves tests free to mount several features', async () => {
    const file = `${FEATURES}/jobs/__tests__/probe.spec.ts`;
    expect(await refused(file, imp('../../catalog/MapView.vue'))).toBe(false);
  });

  it('refuses a capability importing a feature, at any depth and by any path', async () => {
    const at = `${CAPABILITIES}/file-export`;
    expect(await refused(`${at}/probe.ts`, imp('../../features/orders/x'))).toBe(true);
    expect(await refused(`${at}/parts/probe.ts`, imp('../../../features/aois/x'))).toBe(true);
    expect(await refused(`${at}/probe.ts`, imp('../../../renderer/features/aois/x'))).toBe(true);
    expect(await refused(`${at}/Probe.vue`, vue('../../features/catalog/MapView.vue'))).toBe(true);
  });

  it('lets a capability import itself and the shared folders, keeping the renderer rules', async () => {
    const file = `${CAPABILITIES}/file-export/parts/probe.ts`;
    expect(await refused(file, imp('../export-file'))).toBe(false);
    expect(await refused(file, imp('../../file-export/export-file'))).toBe(false);
    expect(await refused(file, imp('../../../stores/errors'))).toBe(false);
    expect(await refused(file, imp('../../../ui/download-file'))).toBe(false);
    expect(await refused(file, imp('node:fs'))).toBe(true);
    expect(await refused(file, imp('../../../../backend/dispatch'))).toBe(true);
    const test = `${CAPABILITIES}/file-export/__tests__/probe.spec.ts`;
    expect(await refused(test, imp('../../../features/catalog/MapView.vue'))).toBe(false);
  });

  it('has every capability in CAPABILITY_ORDER, and nothing else', async () => {
    const config = (await import(pathToFileURL(path.join(root, 'eslint.config.js')).href)) as {
      CAPABILITY_ORDER: string[];
    };
    const folders = fs
      .readdirSync(path.join(root, CAPABILITIES), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect([...config.CAPABILITY_ORDER].sort()).toEqual(folders.sort());
  });

  it('lets capabilities import each other one way only, down CAPABILITY_ORDER', async () => {
    const at = (c: string) => `${CAPABILITIES}/${c}/probe.ts`;
    // rasters -> field-packages -> file-import -> file-export: each may import those after it.
    expect(await refused(at('rasters'), imp('../file-import/FilePreviewPanel.vue'))).toBe(false);
    expect(await refused(at('rasters'), imp('../file-export/export-file'))).toBe(false);
    expect(await refused(at('file-import'), imp('../../capabilities/file-export/x'))).toBe(false);
    // ...and never one before it: no loop between capabilities.
    expect(await refused(at('file-export'), imp('../rasters/take-area'))).toBe(true);
    expect(await refused(at('file-export'), imp('../file-import/x'))).toBe(true);
    expect(await refused(at('file-import'), imp('../../capabilities/rasters/x'))).toBe(true);
    expect(await refused(`${CAPABILITIES}/field-packages/a/probe.ts`, imp('../../rasters/x'))).toBe(
      true,
    );
    expect(await refused(at('field-packages'), imp('../field-packages/x'))).toBe(false);
  });

  it('has every shared folder of the renderer in SHARED_FOLDER_ORDER, and nothing else', async () => {
    const config = (await import(pathToFileURL(path.join(root, 'eslint.config.js')).href)) as {
      SHARED_FOLDER_ORDER: string[];
    };
    const slices = ['features', 'capabilities', '__tests__'];
    const folders = fs
      .readdirSync(path.join(root, RENDERER), { withFileTypes: true })
      .filter((e) => e.isDirectory() && !slices.includes(e.name))
      .map((e) => e.name);
    expect([...config.SHARED_FOLDER_ORDER].sort()).toEqual(folders.sort());
  });

  it('keeps the shared folders layered: map -> ui -> forms -> stores -> format, no slice', async () => {
    const at = (folder: string, file = 'probe.ts') => `${RENDERER}/${folder}/${file}`;
    // each may import those after it, itself, and the renderer's root files
    expect(await refused(at('map'), imp('../ui/QuicklookThumb.vue'))).toBe(false);
    expect(await refused(at('map'), imp('../stores/catalog-store'))).toBe(false);
    expect(await refused(at('ui'), imp('../forms/form-flow'))).toBe(false);
    expect(await refused(at('forms', 'words/probe.ts'), imp('../../stores/errors'))).toBe(false);
    expect(await refused(at('stores'), imp('../format/units'))).toBe(false);
    expect(await refused(at('stores'), imp('../bridge'))).toBe(false);
    expect(await refused(at('map'), imp('../lazy-parts'))).toBe(false);
    expect(await refused(at('ui'), imp('./StatusBadge.vue'))).toBe(false);
    // ...and never one before it (the loop ui <-> map cannot come back), nor a slice
    expect(await refused(at('ui'), imp('../map/footprint-layer'))).toBe(true);
    expect(await refused(at('ui', 'Probe.vue'), vue('../map/NearMe.vue'))).toBe(true);
    expect(await refused(at('format'), imp('../stores/errors'))).toBe(true);
    expect(await refused(at('stores', 'a/probe.ts'), imp('../../forms/form-flow'))).toBe(true);
    expect(await refused(at('forms'), imp('../../renderer/ui/x'))).toBe(true);
    expect(await refused(at('stores'), imp('../features/orders/x'))).toBe(true);
    expect(await refused(at('ui'), imp('../capabilities/file-export/x'))).toBe(true);
    expect(await refused(at('format'), imp('node:fs'))).toBe(true);
    // tests may mount anything
    expect(await refused(at('ui', '__tests__/probe.spec.ts'), imp('../../map/x'))).toBe(false);
  });

  it("lets benchmark pages (apps/desktop/bench/pages) drive the renderer's parts, not the Node side", async () => {
    const page = 'apps/desktop/bench/pages/probe/page.ts';
    expect(await refused(page, imp('../../../src/renderer/map/footprint-layer'))).toBe(false);
    expect(await refused(page, imp('../../../src/backend/dispatch'))).toBe(true);
    expect(await refused(page, imp('node:fs'))).toBe(true);
  });
});

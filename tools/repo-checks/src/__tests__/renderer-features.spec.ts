/**
 * The renderer's slices (eslint.config.js, `sliceBlocks`): features (screens) do not import each
 * other; a capability (a part several screens embed) never imports a feature, and capabilities
 * import each other one way only (`CAPABILITY_ORDER`). What two use otherwise lives in ui/,
 * stores/, map/, format/ or forms/. Probe snippets linted as files of a slice show the rules hold
 * at every depth and through every path.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ruleIds } from './lint-probe';

const root = path.resolve(import.meta.dirname, '../../../..');
const FEATURES = 'apps/desktop/src/renderer/features';
const CAPABILITIES = 'apps/desktop/src/renderer/capabilities';
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

  it("lets benchmark pages (apps/desktop/bench/pages) drive the renderer's parts, not the Node side", async () => {
    const page = 'apps/desktop/bench/pages/probe/page.ts';
    expect(await refused(page, imp('../../../src/renderer/map/footprint-layer'))).toBe(false);
    expect(await refused(page, imp('../../../src/backend/dispatch'))).toBe(true);
    expect(await refused(page, imp('node:fs'))).toBe(true);
  });
});

/**
 * electron-builder cannot run here (no Electron binary; its native rebuild would replace the
 * Node build of better-sqlite3), so its config is checked against electron-builder's own JSON
 * schema, and the few settings packaging depends on are pinned.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const fromBuilder = createRequire(
  createRequire(path.join(appDir, 'package.json')).resolve('electron-builder/package.json'),
);
const libPkg = fromBuilder.resolve('app-builder-lib/package.json');
const fromLib = createRequire(libPkg);
const yaml = fromLib('js-yaml') as { load(s: string): unknown };
const Ajv = fromLib('ajv') as new (o: object) => {
  validate(schema: unknown, data: unknown): boolean;
  errors: unknown;
};

const config = yaml.load(
  fs.readFileSync(path.join(appDir, 'electron-builder.yml'), 'utf8'),
) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('electron-builder.yml', () => {
  it("is valid against electron-builder's schema", () => {
    const schema = JSON.parse(
      fs.readFileSync(path.join(path.dirname(libPkg), 'scheme.json'), 'utf8'),
    ) as unknown;
    const ajv = new Ajv({ allErrors: true, strict: false });
    const ok = ajv.validate(schema, config);
    expect(ajv.errors ?? null, JSON.stringify(ajv.errors)).toBeNull();
    expect(ok).toBe(true);
  });

  it('builds AppImage, deb, NSIS and dmg, with better-sqlite3 rebuilt and unpacked', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.win.target).toEqual(['nsis']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.npmRebuild).toBe(true);
    expect(config.asarUnpack).toContain('**/node_modules/better-sqlite3/**');
    expect(config.files).toContain('out/**');
  });

  it('ships what the bundle leaves external', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(appDir, 'package.json'), 'utf8')) as {
      main: string;
      dependencies: Record<string, string>;
    };
    expect(pkg.main).toBe('out/main/index.cjs');
    for (const dep of ['better-sqlite3', 'fastify', 'drizzle-orm', 'zod']) {
      expect(pkg.dependencies[dep], dep).toBeDefined();
    }
    expect(pkg.dependencies.electron).toBeUndefined();
  });
});

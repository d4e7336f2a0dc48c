// @ts-check
// One flat config for the whole monorepo. Besides the usual recommended rules it
// enforces the package graph written down in CONTRIBUTING.md:
//   domain <- api-client <- sync <- desktop;  domain <- catalog-store <- reference-service, sync;
//   fixtures <- reference-service, desktop (its embedded demo) and every package's tests and benches;
//   bench-kit <- tests and benches only;
//   reference-service <- apps/server (the eo-server CLI), desktop, and the tests and benches of
//   api-client and sync (the running reference service). No package imports an app.
//   domain <- formats <- sync, desktop (Node side).
//   domain <- geotiff <- reference-service, sync, desktop (Node side, and the renderer: it decodes rasters in a worker).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import pluginVue from 'eslint-plugin-vue';
import { builtinModules } from 'node:module';
import fs from 'node:fs';

/** A table of @eo/sync's mirror named in a string: `mirror_*`, its sync state, outbox, catalog. */
const MIRROR_SQL =
  '/\\bmirror_[a-z]|\\b(from|join|into|update|table)\\s+(outbox|sync_state|sync_drift|sync_incremental|catalog_records|catalog_rtree)\\b/i';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

/** Relative imports that climb out of one package into another are never allowed. */
const crossPackageRelative = {
  // (The desktop's `packages` area, src/areas/packages/, is a folder inside the app.)
  group: [
    '**/packages/**',
    '!**/areas/packages/**',
    '!./packages/**',
    '**/apps/**',
    '../../*/src/**',
  ],
  message: 'Import another workspace package by its name (@eo/...), never by relative path.',
};
/** Reaching into another package's internals is never allowed. */
const deepWorkspaceImport = {
  group: ['@eo/*/src/**', '@eo/*/src'],
  message: "Import a workspace package through its public entry ('@eo/x' or a documented subpath).",
};

/**
 * @param {string[]} allowedWorkspace workspace packages this one may import
 * @param {{ node?: boolean, patterns?: any[] }} [opts] `patterns`: more forbidden import patterns
 */
function importRules(allowedWorkspace, opts = {}) {
  const all = [
    '@eo/domain',
    '@eo/catalog-store',
    '@eo/api-client',
    '@eo/formats',
    '@eo/geotiff',
    '@eo/sync',
    '@eo/reference-service',
    '@eo/server',
    '@eo/desktop',
    '@eo/fixtures',
    '@eo/bench-kit',
  ];
  const forbidden = all.filter((p) => !allowedWorkspace.includes(p));
  /** @type {any[]} */
  const patterns = [crossPackageRelative, deepWorkspaceImport, ...(opts.patterns ?? [])];
  if (forbidden.length > 0) {
    patterns.push({
      group: forbidden.flatMap((p) => [p, `${p}/*`]),
      message: `This package may import only: ${allowedWorkspace.join(', ') || 'no workspace package'} (see CONTRIBUTING.md).`,
    });
  }
  /** @type {any[]} */
  const paths = [];
  if (opts.node === false) {
    for (const name of nodeBuiltins) {
      paths.push({ name, message: 'This package must run anywhere: no Node built-in modules.' });
    }
  }
  return { 'no-restricted-imports': ['error', { paths, patterns }] };
}

/**
 * Zones inside apps/desktop/src. The renderer and the shared contract never reach the Node side
 * (backend, main, preload, browser mode) by relative path, and shared reaches into no zone.
 */
const desktopNodeZones = ['backend', 'main', 'preload', 'browser-mode'];
const rendererZoneMessage =
  "The renderer reaches the Node side only through the typed contract (src/shared/contract/, the areas' contract.ts) and window.eo.";
const sharedZones = [...desktopNodeZones, 'renderer'];
const sharedZoneMessage =
  'src/shared is imported by every side and imports none of them (only @eo/domain).';
/**
 * An area's handlers (src/areas/<area>/handlers.ts, and areas/handlers.ts combining them) run in
 * the backend: the renderer, the shared contract and the areas' contracts never import them.
 */
const areaHandlersPattern = {
  regex: '(^|/)areas/([^/]+/)?handlers$',
  message:
    "An area's handlers run in the backend: import the area's contract (or src/shared/contract), never its handlers.",
};
/** Deepest folder level under a zone that gets its own block (deeper files keep the `src/` guard). */
const DESKTOP_ZONE_DEPTH = 8;

/**
 * Forbidden relative paths for a file `depth` folders below apps/desktop/src. A pattern sees only
 * the specifier, and `../main` means src/main from renderer/x.ts but renderer/main from
 * renderer/stores/x.ts, so each depth gets the exact climb back to src.
 * @param {number} depth
 * @param {string[]} zones
 * @param {string} message
 */
function desktopZonePatterns(depth, zones, message) {
  const up = '../'.repeat(depth);
  return [
    { group: zones.flatMap((z) => [`${up}${z}`, `${up}${z}/**`]), message },
    throughSrc(zones, message),
  ];
}

/**
 * Climbing further and back down through src/ (e.g. ../../src/backend), at any depth.
 * @param {string[]} zones
 * @param {string} message
 */
function throughSrc(zones, message) {
  return { regex: `(^|/)src/(${zones.join('|')})(/|$)`, message };
}

/**
 * One flat-config block per folder depth of a desktop zone (`files` of each depth, optionally
 * narrowed with an AND-ed glob), with the rules `rulesAt(depth)` gives.
 * @param {string} zone folder under apps/desktop/src
 * @param {(depth: number) => any} rulesAt
 * @param {{ also?: string, ignores?: string[] }} [opts]
 */
function desktopZoneBlocks(zone, rulesAt, opts = {}) {
  return Array.from({ length: DESKTOP_ZONE_DEPTH }, (_, i) => i + 1).map((depth) => {
    const glob = `apps/desktop/src/${zone}/${'*/'.repeat(depth - 1)}*.{ts,vue}`;
    return {
      files: [opts.also ? [glob, opts.also] : glob],
      ...(opts.ignores ? { ignores: opts.ignores } : {}),
      rules: rulesAt(depth),
    };
  });
}

/**
 * The renderer's imports: no Node, no Electron, no workspace package but @eo/domain.
 * @param {any[]} zonePatterns forbidden relative paths into the desktop's Node side
 */
function rendererImportRules(zonePatterns) {
  return {
    'no-restricted-imports': [
      'error',
      {
        paths: [
          ...nodeBuiltins.map((name) => ({
            name,
            message: 'The renderer has no Node: ask the backend through the contract.',
          })),
          {
            name: 'electron',
            message: 'The renderer reaches Electron only through window.eo (the preload).',
          },
        ],
        patterns: [
          crossPackageRelative,
          deepWorkspaceImport,
          {
            group: [
              '@eo/catalog-store',
              '@eo/catalog-store/*',
              '@eo/api-client',
              '@eo/api-client/*',
              '@eo/formats',
              '@eo/formats/*',
              '@eo/geotiff/node',
              '@eo/geotiff/testing',
              '@eo/sync',
              '@eo/sync/*',
              '@eo/reference-service',
              '@eo/reference-service/*',
              '@eo/desktop',
              '@eo/desktop/*',
              '@eo/fixtures',
              '@eo/fixtures/*',
              '@eo/bench-kit',
              '@eo/bench-kit/*',
            ],
            message:
              'The renderer talks to the backend only through the typed contract (src/shared/contract/); it may import @eo/domain, and @eo/geotiff (not its /node or /testing entries) to decode rasters in a worker.',
          },
          ...zonePatterns,
          areaHandlersPattern,
        ],
      },
    ],
  };
}

/**
 * The renderer's slices. A feature (features/<name>/) is one screen, a route in router.ts; a
 * capability (capabilities/<name>/) is a part several screens embed (the file import, the
 * exports, offline rasters, field packages). Features do not import each other; a feature may
 * import capabilities; a capability never imports a feature, and imports other capabilities one
 * way only, down `CAPABILITY_ORDER`. What two use otherwise lives in ui/, stores/, map/, format/
 * or forms/. Tests may mount several slices.
 * @param {string} folder under apps/desktop/src/renderer
 */
const sliceNames = (folder) => {
  const url = new URL(`./apps/desktop/src/renderer/${folder}`, import.meta.url);
  if (!fs.existsSync(url)) return [];
  return fs
    .readdirSync(url, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
};
const rendererFeatures = sliceNames('features');
const rendererCapabilities = sliceNames('capabilities');
const featureMessage =
  'Features do not import each other: what several screens embed is a capability (capabilities/); what two use otherwise moves into ui/, stores/, map/, format/ or forms/.';
const capabilityFeatureMessage =
  'A capability never imports a feature (a screen): the screen passes it what it needs, or takes it (stores/handoff.ts).';
const capabilityOrderMessage =
  'Capabilities import each other one way only: a capability imports those after it in CAPABILITY_ORDER (eslint.config.js).';

/**
 * The capabilities, each importing only those after it (so they never form a loop). Every folder
 * of capabilities/ has its place here (tools/repo-checks' renderer-features.spec.ts).
 * @type {string[]}
 */
export const CAPABILITY_ORDER = ['rasters', 'field-packages', 'file-import', 'file-export'];

/** @param {string} text */
const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Forbidden specifiers for a file `depth` folders below features/<feature>/ (0: in it): the
 * sibling folders reached by climbing exactly to features/, and any path through `features/`.
 * @param {string} feature
 * @param {number} depth
 */
function featurePatterns(feature, depth) {
  const other = `(?!${escapeRegex(feature)}/)`;
  return [
    { regex: `^(?:\\.\\./){${depth + 1}}${other}[\\w-]+/`, message: featureMessage },
    { regex: `(?:^|/)features/${other}[\\w-]+/`, message: featureMessage },
  ];
}

/**
 * Forbidden specifiers for a file `depth` folders below capabilities/<capability>/: any path
 * through `features/`, and the capabilities not after it in `CAPABILITY_ORDER`, reached by
 * climbing exactly to capabilities/ or through `capabilities/`.
 * @param {string} capability
 * @param {number} depth
 */
function capabilityPatterns(capability, depth) {
  const at = CAPABILITY_ORDER.indexOf(capability);
  const below = at < 0 ? [] : CAPABILITY_ORDER.slice(at + 1);
  const allowed = `(?!(?:${[capability, ...below].map(escapeRegex).join('|')})/)`;
  return [
    { regex: '(?:^|/)features/', message: capabilityFeatureMessage },
    { regex: `^(?:\\.\\./){${depth + 1}}${allowed}[\\w-]+/`, message: capabilityOrderMessage },
    { regex: `(?:^|/)capabilities/${allowed}[\\w-]+/`, message: capabilityOrderMessage },
  ];
}

/**
 * Blocks for the files of each slice of a renderer folder (tests aside), at each depth, with the
 * renderer's rules and the slice's own patterns.
 * @param {string} folder `features` or `capabilities`
 * @param {string[]} names its slices
 * @param {(name: string, depth: number) => any[]} patternsOf
 */
function sliceBlocks(folder, names, patternsOf) {
  const sliceDepth = 3; // renderer/<folder>/<slice>/x.ts is 3 folders below src
  return names.flatMap((name) =>
    Array.from({ length: DESKTOP_ZONE_DEPTH - sliceDepth + 1 }, (_, depth) => ({
      files: [`apps/desktop/src/renderer/${folder}/${name}/${'*/'.repeat(depth)}*.{ts,vue}`],
      ignores: ['**/__tests__/**'],
      rules: rendererImportRules([
        ...desktopZonePatterns(depth + sliceDepth, desktopNodeZones, rendererZoneMessage),
        ...patternsOf(name, depth),
      ]),
    })),
  );
}

/**
 * The renderer's shared folders, each importing only those after it (and the renderer's own
 * root files: bridge.ts, router.ts, lazy-parts.ts), never a feature or a capability: layers,
 * so they never form a loop. Every shared folder has its place here
 * (tools/repo-checks' renderer-features.spec.ts).
 * @type {string[]}
 */
export const SHARED_FOLDER_ORDER = ['map', 'ui', 'forms', 'stores', 'format'];
const sharedFolderMessage =
  "The renderer's shared folders are layers: each imports only those after it in SHARED_FOLDER_ORDER (eslint.config.js), never features/ or capabilities/.";

/**
 * Blocks for the files of each shared folder (tests aside), at each depth below it: the
 * renderer's rules, and no folder before it in the order, no slice.
 */
function sharedFolderBlocks() {
  const folderDepth = 2; // renderer/<folder>/x.ts is 2 folders below src
  return SHARED_FOLDER_ORDER.flatMap((folder, at) => {
    const allowed = `(?!(?:${SHARED_FOLDER_ORDER.slice(at).map(escapeRegex).join('|')})/)`;
    return Array.from({ length: DESKTOP_ZONE_DEPTH - folderDepth + 1 }, (_, depth) => ({
      files: [`apps/desktop/src/renderer/${folder}/${'*/'.repeat(depth)}*.{ts,vue}`],
      ignores: ['**/__tests__/**'],
      rules: rendererImportRules([
        ...desktopZonePatterns(depth + folderDepth, desktopNodeZones, rendererZoneMessage),
        { regex: `^(?:\\.\\./){${depth + 1}}${allowed}[\\w-]+/`, message: sharedFolderMessage },
        { regex: `(?:^|/)renderer/${allowed}[\\w-]+/`, message: sharedFolderMessage },
        { regex: '(?:^|/)(?:features|capabilities)/', message: sharedFolderMessage },
      ]),
    }));
  });
}

const browserOnlyGlobals = ['window', 'document', 'navigator', 'localStorage', 'HTMLElement'].map(
  (name) => ({ name, message: 'No DOM here: this code must run in Node and in the browser.' }),
);

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/out/**',
      '**/.turbo/**',
      '**/drizzle/**',
      '**/test-output/**',
      '**/coverage/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
      eqeqeq: ['error', 'smart'],
    },
  },
  // packages/domain: pure, portable: no Node, no DOM, no other workspace package.
  {
    files: ['packages/domain/src/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      ...importRules([], { node: false }),
      'no-restricted-globals': [
        'error',
        ...browserOnlyGlobals,
        { name: 'process', message: 'No Node globals in domain.' },
        { name: 'Buffer', message: 'No Node globals in domain.' },
      ],
    },
  },
  {
    files: ['packages/domain/src/**/__tests__/**/*.ts'],
    rules: { 'no-restricted-imports': 'off', 'no-restricted-globals': 'off' },
  },
  // api-client runs in Electron main and in Node: no Node built-ins or Node/DOM-only globals in src.
  {
    files: ['packages/api-client/**/*.ts'],
    rules: {
      ...importRules(['@eo/domain'], { node: false }),
      'no-restricted-globals': [
        'error',
        ...browserOnlyGlobals,
        { name: 'process', message: 'No Node globals in api-client src.' },
        { name: 'Buffer', message: 'No Node globals in api-client src.' },
      ],
    },
  },
  // catalog-store: the catalog table and search SQL shared by the service and the mirror.
  { files: ['packages/catalog-store/**/*.ts'], rules: importRules(['@eo/domain']) },
  // formats: pure parsers and writers (bytes in, bytes out) for the backend and the CLI; Node, no DOM
  // (XML is parsed with @xmldom/xmldom, never a browser DOMParser).
  {
    files: ['packages/formats/**/*.ts'],
    rules: {
      ...importRules(['@eo/domain']),
      'no-restricted-globals': [
        'error',
        ...browserOnlyGlobals.map((g) => ({
          ...g,
          message: 'No DOM in @eo/formats: it parses in the backend and the CLI.',
        })),
        { name: 'DOMParser', message: 'Parse XML with @xmldom/xmldom: there is no DOM here.' },
      ],
    },
  },
  // geotiff: the GeoTIFF/COG codec, pure like domain (the desktop renderer runs it in a Web
  // Worker); its /node entry (zlib, files) and /testing entry (GDAL) are the Node-only parts.
  {
    files: ['packages/geotiff/src/**/*.ts'],
    ignores: ['packages/geotiff/src/{node,testing}/**', 'packages/geotiff/src/**/__tests__/**'],
    languageOptions: { globals: {} },
    rules: {
      ...importRules(['@eo/domain'], { node: false }),
      'no-restricted-globals': [
        'error',
        ...browserOnlyGlobals,
        {
          name: 'process',
          message: 'No Node globals in @eo/geotiff: it runs in a browser worker too.',
        },
        {
          name: 'Buffer',
          message: 'No Node globals in @eo/geotiff: it runs in a browser worker too.',
        },
      ],
    },
  },
  {
    files: [
      'packages/geotiff/src/{node,testing}/**/*.ts',
      'packages/geotiff/src/**/__tests__/**/*.ts',
    ],
    rules: importRules(['@eo/domain']),
  },
  {
    files: ['packages/sync/**/*.ts'],
    rules: importRules([
      '@eo/domain',
      '@eo/catalog-store',
      '@eo/api-client',
      '@eo/formats',
      '@eo/geotiff',
    ]),
  },
  {
    files: ['packages/reference-service/**/*.ts'],
    rules: importRules(['@eo/domain', '@eo/catalog-store', '@eo/geotiff', '@eo/fixtures']),
  },
  // apps/server: the eo-server command line over the service package, nothing else.
  { files: ['apps/server/**/*.ts'], rules: importRules(['@eo/domain', '@eo/reference-service']) },
  // fixtures: demo data shared by the service's seed and every package's tests; no app.
  { files: ['packages/fixtures/**/*.ts'], rules: importRules(['@eo/domain']) },
  // bench-kit: the shaped link and the benchmark verdict; imports no workspace package.
  { files: ['tools/bench-kit/**/*.ts'], rules: importRules([]) },
  // Tests and benchmarks: fixtures and bench-kit, on top of what their package may import.
  {
    files: ['packages/reference-service/{bench,src/**/__tests__}/**/*.ts'],
    rules: importRules([
      '@eo/domain',
      '@eo/catalog-store',
      '@eo/geotiff',
      '@eo/fixtures',
      '@eo/bench-kit',
    ]),
  },
  {
    files: ['packages/catalog-store/src/**/__tests__/**/*.ts'],
    rules: importRules(['@eo/domain', '@eo/fixtures']),
  },
  {
    files: ['packages/formats/{bench,src/**/__tests__}/**/*.ts'],
    rules: importRules(['@eo/domain', '@eo/fixtures', '@eo/bench-kit']),
  },
  // Tests and benchmarks of client packages (only they) also start the running reference
  // service (@eo/reference-service: startServer, seedDemo, createApiKey), a devDependency: their
  // src never starts it.
  {
    files: ['packages/api-client/**/{__tests__,test,bench}/**/*.ts', 'packages/api-client/*.ts'],
    rules: {
      ...importRules(['@eo/domain', '@eo/reference-service', '@eo/fixtures', '@eo/bench-kit']),
      'no-restricted-globals': 'off',
    },
  },
  {
    files: ['packages/sync/**/{__tests__,test,bench}/**/*.ts'],
    rules: importRules([
      '@eo/domain',
      '@eo/catalog-store',
      '@eo/api-client',
      '@eo/formats',
      '@eo/geotiff',
      '@eo/reference-service',
      '@eo/fixtures',
      '@eo/bench-kit',
    ]),
  },
  // apps/desktop, Node side (main, preload, backend, browser mode): every package (fixtures for
  // the embedded service's demo organisation), no DOM.
  {
    files: ['apps/desktop/**/*.ts'],
    ignores: ['apps/desktop/src/renderer/**', 'apps/desktop/src/shared/**'],
    rules: {
      ...importRules([
        '@eo/domain',
        '@eo/catalog-store',
        '@eo/api-client',
        '@eo/formats',
        '@eo/geotiff',
        '@eo/sync',
        '@eo/reference-service',
        '@eo/fixtures',
      ]),
      'no-restricted-globals': [
        'error',
        ...browserOnlyGlobals.map((g) => ({
          ...g,
          message: 'No DOM on the Node side of the desktop app.',
        })),
      ],
    },
  },
  // The desktop's tests and benchmarks: fixtures and bench-kit too.
  {
    files: ['apps/desktop/{bench,src/**/__tests__}/**/*.ts'],
    ignores: ['apps/desktop/src/renderer/**', 'apps/desktop/src/shared/**'],
    rules: importRules([
      '@eo/domain',
      '@eo/catalog-store',
      '@eo/api-client',
      '@eo/formats',
      '@eo/geotiff',
      '@eo/sync',
      '@eo/reference-service',
      '@eo/fixtures',
      '@eo/bench-kit',
    ]),
  },
  // The backend and browser mode are plain Node (they also run without Electron).
  {
    files: [
      'apps/desktop/src/{backend,browser-mode}/**/*.ts',
      'apps/desktop/src/areas/handlers.ts',
      'apps/desktop/src/areas/*/handlers.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'electron',
              message: 'The backend and browser mode run without Electron: pass what they need in.',
            },
          ],
          patterns: [
            crossPackageRelative,
            deepWorkspaceImport,
            {
              group: ['@eo/desktop', '@eo/desktop/*'],
              message: 'Relative imports inside the app.',
            },
            {
              group: ['@eo/bench-kit', '@eo/bench-kit/*'],
              message: 'bench-kit is for tests and benchmarks only (see CONTRIBUTING.md).',
            },
          ],
        },
      ],
    },
  },
  // @eo/sync owns the mirror database: the app reads and changes it through `openMirror`, never
  // with SQL naming sync's tables (tests may set up states no user action reaches).
  {
    files: ['apps/desktop/src/**/*.{ts,vue}'],
    ignores: ['apps/desktop/src/**/__tests__/**', 'apps/desktop/src/e2e/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['Literal[value=', 'TemplateElement[value.raw='].map((node) => ({
          selector: `${node}${MIRROR_SQL}]`,
          message:
            "SQL on @eo/sync's tables: use the Mirror of `openMirror` (add what is missing there).",
        })),
      ],
    },
  },
  // The contract is shared by all sides: no Node, no DOM, only @eo/domain.
  {
    files: ['apps/desktop/src/shared/**/*.ts'],
    ignores: ['apps/desktop/src/shared/**/__tests__/**'],
    languageOptions: { globals: {} },
    rules: {
      ...importRules(['@eo/domain'], {
        node: false,
        patterns: [throughSrc(sharedZones, sharedZoneMessage), areaHandlersPattern],
      }),
      'no-restricted-globals': [
        'error',
        ...browserOnlyGlobals,
        { name: 'process', message: 'The contract runs in the renderer too.' },
        { name: 'Buffer', message: 'The contract runs in the renderer too.' },
      ],
    },
  },
  ...desktopZoneBlocks(
    'shared',
    (depth) =>
      importRules(['@eo/domain'], {
        node: false,
        patterns: [
          ...desktopZonePatterns(depth, sharedZones, sharedZoneMessage),
          areaHandlersPattern,
        ],
      }),
    { ignores: ['apps/desktop/src/shared/**/__tests__/**'] },
  ),
  // Each area's contract (src/areas/<area>/contract.ts and what it is built from) is part of the
  // contract: it runs in the renderer too, under the same rules as src/shared.
  {
    files: ['apps/desktop/src/areas/*/*.ts'],
    ignores: ['apps/desktop/src/areas/*/handlers.ts', 'apps/desktop/src/areas/__tests__/**'],
    languageOptions: { globals: {} },
    rules: {
      ...importRules(['@eo/domain'], {
        node: false,
        patterns: [
          ...desktopZonePatterns(2, sharedZones, sharedZoneMessage),
          areaHandlersPattern,
          // its own handlers, or another area's, by the short path inside src/areas
          { regex: '^\\.\\.?/([^/]+/)?handlers$', message: areaHandlersPattern.message },
        ],
      }),
      'no-restricted-globals': [
        'error',
        ...browserOnlyGlobals,
        { name: 'process', message: 'The contract runs in the renderer too.' },
        { name: 'Buffer', message: 'The contract runs in the renderer too.' },
      ],
    },
  },
  // Tests of the contract may use Node, but they too stay out of the other zones.
  ...desktopZoneBlocks(
    'shared',
    (depth) => ({
      'no-restricted-imports': [
        'error',
        { patterns: desktopZonePatterns(depth, sharedZones, sharedZoneMessage) },
      ],
    }),
    { also: 'apps/desktop/src/shared/**/__tests__/**' },
  ),
  // Vue single-file components (the desktop renderer): error-prevention rules only; prettier formats.
  ...pluginVue.configs['flat/essential'],
  {
    files: ['**/*.vue'],
    languageOptions: {
      parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.vue'] },
    },
  },
  // The renderer talks to the backend only through the contract: no Node, no Electron,
  // no @eo/sync / @eo/reference-service / @eo/api-client / @eo/catalog-store. It may use @eo/geotiff's
  // portable entry: full-resolution rasters are decoded in a Web Worker beside the map.
  {
    files: ['apps/desktop/src/renderer/**/*.{ts,vue}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...rendererImportRules([throughSrc(desktopNodeZones, rendererZoneMessage)]),
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'No Node globals in the renderer.' },
        { name: 'Buffer', message: 'No Node globals in the renderer.' },
        { name: 'require', message: 'No Node globals in the renderer.' },
      ],
    },
  },
  ...desktopZoneBlocks('renderer', (depth) =>
    rendererImportRules(desktopZonePatterns(depth, desktopNodeZones, rendererZoneMessage)),
  ),
  ...sliceBlocks('features', rendererFeatures, featurePatterns),
  ...sliceBlocks('capabilities', rendererCapabilities, capabilityPatterns),
  ...sharedFolderBlocks(),
  // Benchmark pages (apps/desktop/bench/pages): run in Chromium like the renderer and drive its
  // parts, which they import from src/renderer; never the Node side, never Node globals.
  {
    files: ['apps/desktop/bench/pages/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: rendererZoneMessage }],
          patterns: [
            throughSrc(desktopNodeZones, rendererZoneMessage),
            { regex: '^node:', message: 'Benchmark pages run in Chromium: no Node modules.' },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...['process', 'Buffer', 'require'].map((name) => ({
          name,
          message: 'Benchmark pages run in Chromium: no Node globals.',
        })),
      ],
    },
  },
  // Type-aware rules where a dropped promise loses work or hides a failure: the sync engine and
  // outbox, the desktop's Node side (backend, main) and the service (its package and CLI).
  // Scoped to these folders: typed linting builds each package's program, which costs far more
  // than the syntactic rules.
  {
    files: [
      'packages/sync/**/*.ts',
      'apps/desktop/src/{backend,main}/**/*.ts',
      'apps/desktop/src/areas/handlers.ts',
      'apps/desktop/src/areas/*/handlers.ts',
      'packages/reference-service/{src,bench}/**/*.ts',
      'apps/server/src/**/*.ts',
    ],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
);

// @ts-check
// One flat config for the whole monorepo. Besides the usual recommended rules it
// enforces the package graph written down in CONTRIBUTING.md:
//   domain <- api-client <- sync <- desktop;  domain <- catalog-store <- server, sync.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

/** Relative imports that climb out of one package into another are never allowed. */
const crossPackageRelative = {
  group: ['**/packages/**', '**/apps/**', '../../*/src/**'],
  message: 'Import another workspace package by its name (@eo/...), never by relative path.',
};
/** Reaching into another package's internals is never allowed. */
const deepWorkspaceImport = {
  group: ['@eo/*/src/**', '@eo/*/src'],
  message: "Import a workspace package through its public entry ('@eo/x' or a documented subpath).",
};

/**
 * @param {string[]} allowedWorkspace workspace packages this one may import
 * @param {{ node?: boolean }} [opts]
 */
function importRules(allowedWorkspace, opts = {}) {
  const all = [
    '@eo/domain',
    '@eo/catalog-store',
    '@eo/api-client',
    '@eo/sync',
    '@eo/server',
    '@eo/desktop',
  ];
  const forbidden = all.filter((p) => !allowedWorkspace.includes(p));
  /** @type {any[]} */
  const patterns = [crossPackageRelative, deepWorkspaceImport];
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
  {
    files: ['packages/sync/**/*.ts'],
    rules: importRules(['@eo/domain', '@eo/catalog-store', '@eo/api-client']),
  },
  { files: ['apps/server/**/*.ts'], rules: importRules(['@eo/domain', '@eo/catalog-store']) },
  // Tests of client packages run against the real reference service.
  {
    files: ['packages/api-client/**/{__tests__,test,bench}/**/*.ts', 'packages/api-client/*.ts'],
    rules: { ...importRules(['@eo/domain', '@eo/server']), 'no-restricted-globals': 'off' },
  },
  {
    files: ['packages/sync/**/{__tests__,test,bench}/**/*.ts'],
    rules: importRules(['@eo/domain', '@eo/catalog-store', '@eo/api-client', '@eo/server']),
  },
);

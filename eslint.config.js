import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import regexp from 'eslint-plugin-regexp';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'data/',
      'bench/results/',
      'coverage/',
      'console/dist/',
      'clients/typescript/dist/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      // Fastify handlers and plugins are async by contract, with or without an await inside.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  // Expressions whose time grows faster than their input (issue 52): the server runs them over
  // request data (headers, paths, bodies, file names, imports), where one slow match blocks the
  // event loop for every request. 'potential' reports what may be super-linear as well, not only
  // what certainly is: a linear rewrite or a small scanner costs less than proving a report wrong.
  {
    files: ['src/**/*.ts'],
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': ['error', { report: 'potential' }],
      'regexp/no-super-linear-move': ['error', { report: 'potential', ignorePartial: false }],
    },
  },
  // The direction of imports (docs/design.md, "Adding a module"): a module imports only its own
  // files and the shared layers; http/ and db/ import no module; db/ does not import jobs/; domain/
  // (the services' errors and shared notions) imports nothing but itself. Files at
  // src/ itself (config, the module contract, app wiring, CLI) are not elements: anyone may import
  // them, and they may import anything.
  {
    files: ['src/**/*.ts'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': [
        { type: 'module', pattern: 'src/modules/*', capture: ['name'] },
        { type: 'http', pattern: 'src/http' },
        { type: 'db', pattern: 'src/db' },
        { type: 'jobs', pattern: 'src/jobs' },
        { type: 'domain', pattern: 'src/domain' },
      ],
      'boundaries/include': ['src/**/*.ts'],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          message:
            '{{from.element.type}} {{from.element.captured.name}} must not import {{to.element.type}} {{to.element.captured.name}}: modules import only their own files and the shared layers (docs/design.md, "Adding a module")',
          policies: [
            {
              from: { element: { type: 'domain' } },
              allow: { to: { element: { types: { anyOf: ['domain'] } } } },
            },
            {
              from: { element: { type: 'db' } },
              allow: { to: { element: { types: { anyOf: ['db', 'domain'] } } } },
            },
            {
              from: { element: { type: 'http' } },
              allow: { to: { element: { types: { anyOf: ['http', 'db', 'domain'] } } } },
            },
            {
              from: { element: { type: 'jobs' } },
              allow: { to: { element: { types: { anyOf: ['jobs', 'db', 'domain'] } } } },
            },
            {
              from: { element: { type: 'module' } },
              allow: [
                {
                  to: {
                    element: {
                      type: 'module',
                      captured: { name: '{{from.element.captured.name}}' },
                    },
                  },
                },
                {
                  to: {
                    element: {
                      types: { anyOf: ['http', 'db', 'jobs', 'domain'] },
                    },
                  },
                },
              ],
            },
          ],
        },
      ],
    },
  },
  // A module's public surface is its <name>-module.ts: the wiring (module-wiring.ts), the server
  // (app.ts) and the CLI (main.ts) reach a module only through it, so its other files stay free to
  // move and change.
  {
    files: ['src/app.ts', 'src/module-wiring.ts', 'src/main.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\./modules/(?!([^/]+)/\\1-module\\.ts$)',
              message:
                'Import a module only through its src/modules/<name>/<name>-module.ts (export from there what is needed).',
            },
          ],
        },
      ],
    },
  },
  // Services speak in domain results and errors (src/domain); HTTP is translated once, at the
  // route edge. So within a module only its routes, schemas and module file import src/http.
  {
    files: ['src/modules/**/*.ts'],
    ignores: [
      'src/modules/**/*-routes.ts',
      'src/modules/**/*-schemas.ts',
      'src/modules/*/*-module.ts',
      // A host resolver run in the HTTP layer's onRequest hook: it reads the request's
      // X-Subscription-Key and sets the RateLimit headers of the reply.
      'src/modules/integration/gateway.ts',
      // The token endpoint's error handler: RFC 6749 error bodies are HTTP by nature.
      'src/modules/oauth/oauth-error-reply.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)http/',
              message:
                'Services import nothing from src/http: throw a DomainError (src/domain) and let the route edge translate it (docs/design.md, "Adding a module").',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['eslint.config.js'],
    ...tseslint.configs.disableTypeChecked,
  },
);

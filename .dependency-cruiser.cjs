/**
 * The layers of the code base, checked in CI (`npm run check:layers`; docs/architecture.md):
 *
 *   language core  shared/{errors,templating,mthds,codegen,tooling}, shared/version.ts
 *        ↑
 *   runtime        shared/runtime (ports to what it needs from outside)
 *        ↑
 *   adapters       shared/{inference,bundles,compute,methods,net,config,observability,lifecycle,storage,docgen,database}
 *   wire           shared/wire (the runtime's values in the API's shapes)
 *        ↑
 *   orchestration  shared/orchestration
 *        ↑
 *   HTTP           api/ (and the worker entry, worker/)
 *
 * The console (console/) stands apart: a browser application talking to the HTTP layer over HTTP only.
 *
 * No module imports a layer above its own (type imports included), and no import cycle exists anywhere.
 */
const CORE = '^shared/(errors|templating|mthds|codegen|tooling)/';
const RUNTIME = '^shared/runtime/';
const ADAPTERS =
  '^shared/(inference|bundles|compute|methods|net|config|observability|lifecycle|storage|docgen|database)/';
const WIRE = '^shared/wire/';
const ORCHESTRATION = '^shared/orchestration/';
const HTTP = '^(api|worker)/';
const INFRASTRUCTURE_PACKAGES =
  '^node_modules/(express|bullmq|ioredis|openai|@anthropic-ai|@google|@aws-sdk|undici|piscina|prom-client|pino)/';

/** A rule forbidding `from` to import any of `to`. */
const above = (name, comment, from, to) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from },
  to: { path: to },
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycle, type imports included.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    above('core-stays-core', 'The language core imports only itself.', CORE, [
      RUNTIME,
      ADAPTERS,
      WIRE,
      ORCHESTRATION,
      HTTP,
    ]),
    above('runtime-below-adapters', 'The runtime reaches the outside through its ports, never an adapter.', RUNTIME, [
      ADAPTERS,
      WIRE,
      ORCHESTRATION,
      HTTP,
      INFRASTRUCTURE_PACKAGES,
    ]),
    above(
      'adapters-below-orchestration',
      'Adapters know neither the wire shapes nor orchestration nor HTTP.',
      ADAPTERS,
      [WIRE, ORCHESTRATION, HTTP],
    ),
    above(
      'wire-below-orchestration',
      'The wire shapes render the runtime; they know neither orchestration nor HTTP.',
      WIRE,
      [ORCHESTRATION, HTTP],
    ),
    above(
      'wire-shapes-stay-in-wire',
      'The language core and the runtime return domain values; shared/wire alone maps them to wire shapes (a wire ' +
        'shape defined in them fails test/unit/architecture/wire-shapes.test.ts, which check:layers also runs).',
      '^shared/(runtime|mthds|codegen)/',
      WIRE,
    ),
    above('orchestration-below-http', 'Orchestration never imports api/ or worker/.', ORCHESTRATION, HTTP),
    above('worker-not-api', 'The worker entry does not import the API.', '^worker/', '^api/'),
    above(
      'console-talks-http',
      'The console (console/, docs/console.md) is a separate front end: it reaches the server over HTTP only and ' +
        'imports none of its modules.',
      '^console/',
      '^(api|worker|shared|test|bench|scripts)/',
    ),
    above('server-not-console', 'No server module imports the console.', '^(api|worker|shared)/', '^console/'),
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
  },
};

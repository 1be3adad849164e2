/**
 * The dashboards and alerts of `deploy/observability/` (docs/tracing.md): `promtool check rules` accepts the alerting
 * rules (skipped, with a message, where Debian's `prometheus` package is not installed), and every metric the dashboard
 * and the rules query is one the service exports — read from the registry of `shared/observability/metrics.ts`, a
 * histogram's `_bucket`, `_sum` and `_count` series included — or Prometheus's own `up`.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'chai';
import YAML from 'yaml';
import { Metrics } from '../../../shared/observability/index.js';
import { REPO_ROOT, repoFile } from '../../helpers/deploy-files.js';

const RULES = 'deploy/observability/alerts.yml';
const DASHBOARD = 'deploy/observability/grafana-dashboard.json';

/** Series Prometheus makes itself for each scrape target, which no process exports. */
const PROMETHEUS_SERIES = new Set(['up']);

interface Panel {
  title?: string;
  type: string;
  targets?: { expr: string }[];
}
interface Rules {
  groups: { name: string; rules: { alert?: string; expr: string }[] }[];
}

/**
 * The metric names an expression reads, with the service's prefixes or Prometheus's own: its grouping clauses, label
 * matchers and strings dropped first, so that label names are not taken for metrics.
 */
function metricNames(expression: string): string[] {
  const selectors = expression
    .replace(/"[^"]*"/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  return [...selectors.matchAll(/\b(mthds_\w+|gen_ai_\w+|up)\b/g)].map((match) => match[1] as string);
}

/** Every series name the service's registry exports. */
async function exportedNames(): Promise<Set<string>> {
  const metrics = await new Metrics().registry.getMetricsAsJSON();
  const names = new Set<string>();
  for (const metric of metrics) {
    names.add(metric.name);
    if (String(metric.type) === 'histogram')
      for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${metric.name}${suffix}`);
  }
  return names;
}

function dashboardExpressions(): string[] {
  const dashboard = JSON.parse(repoFile(DASHBOARD)) as { panels: Panel[] };
  return dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr));
}

function ruleExpressions(): string[] {
  const rules = YAML.parse(repoFile(RULES)) as Rules;
  return rules.groups.flatMap((group) => group.rules.map((rule) => rule.expr));
}

describe('deploy/observability: the dashboard and the alerting rules', () => {
  it('should pass promtool check rules', function () {
    const version = spawnSync('promtool', ['--version'], { encoding: 'utf8' });
    if (version.error) {
      process.stderr.write(
        '\n  promtool is not installed (Debian: apt-get install prometheus): skipping the rules check.\n\n',
      );
      this.skip();
    }
    const checked = spawnSync('promtool', ['check', 'rules', join(REPO_ROOT, RULES)], { encoding: 'utf8' });
    expect(checked.status, `${checked.stdout}${checked.stderr}`).to.equal(0);
    expect(checked.stdout).to.match(/SUCCESS: \d+ rules found/);
  });

  it('should query only metrics the service exports', async () => {
    const exported = await exportedNames();
    const expressions = [...dashboardExpressions(), ...ruleExpressions()];
    expect(expressions.length).to.be.above(20);
    const queried = new Set(expressions.flatMap(metricNames));
    expect(queried.size).to.be.above(15);
    const unknown = [...queried].filter((name) => !exported.has(name) && !PROMETHEUS_SERIES.has(name));
    expect(unknown).to.deep.equal([]);
  });

  it('should chart what the runbook names: runs, failures, queue, durations, providers, tokens, cost, callbacks, saturation', () => {
    const queried = new Set([...dashboardExpressions()].flatMap(metricNames));
    for (const name of [
      'mthds_runs_finished_total',
      'mthds_runs_failed_total',
      'mthds_queue_jobs',
      'mthds_queue_oldest_waiting_seconds',
      'mthds_run_duration_seconds_bucket',
      'mthds_pipe_duration_seconds_bucket',
      'gen_ai_client_operation_duration_seconds_bucket',
      'gen_ai_client_token_usage_sum',
      'mthds_inference_cost_usd_total',
      'mthds_inference_rate_limit_wait_seconds_bucket',
      'mthds_callback_deliveries_total',
      'mthds_worker_concurrency',
    ])
      expect(queried, name).to.include(name);
  });

  it('should find a metric name the service does not export', () => {
    expect(
      metricNames('sum by (gen_ai_x) (rate(mthds_not_a_metric_total{a="up"}[5m])) / sum(up{job="x"})'),
    ).to.deep.equal(['mthds_not_a_metric_total', 'up']);
  });
});

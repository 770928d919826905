import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Type } from 'typebox';
import type { Static } from 'typebox';
import { Value } from 'typebox/value';
import { repoRoot } from '../../src/config.ts';
import { call, startServer } from '../support/helpers.ts';
import { promtool } from '../support/promtool.ts';

/**
 * The monitoring files the release ships in deploy/monitoring (docs/operating.md, "Watching it"): the alert rules
 * checked and unit-tested by promtool, the Grafana dashboard checked against a schema of what Grafana reads and
 * against the metrics a running server exports.
 */
const rulesFile = path.join(repoRoot, 'deploy', 'monitoring', 'campus-alerts.yml');
const rulesTests = path.join(repoRoot, 'apps', 'server', 'test', 'fixtures', 'monitoring', 'campus-alerts.test.yml');
const dashboardFile = path.join(repoRoot, 'deploy', 'monitoring', 'campus-dashboard.json');

describe('the Prometheus alert rules', () => {
  it('pass promtool check rules', () => {
    const result = promtool(['check', 'rules', rulesFile]);
    expect(result.output).toContain('SUCCESS: 10 rules found');
    expect(result.status).toBe(0);
  });

  it('pass their promtool unit tests (sign-in failures, storage full, lock-outs, backup age)', () => {
    const result = promtool(['test', 'rules', rulesTests]);
    expect(result.output).toContain('SUCCESS');
    expect(result.status).toBe(0);
    // a day of samples a minute apart: about 15 s on an idle machine, more on a busy one
  }, 180_000);

  it('alert on every metric the operating guide names an alert threshold for', () => {
    const guide = fs.readFileSync(path.join(repoRoot, 'docs', 'operating.md'), 'utf8');
    const table = guide.slice(guide.indexOf('Alert on (suggested thresholds)'), guide.indexOf('**Logs.**'));
    const named = [...table.matchAll(/`(campus_[a-z_]+)/g)].map((match) => match[1]);
    expect(named.length).toBeGreaterThanOrEqual(5);
    // the expressions only: no comment, summary or description
    const expressions = fs.readFileSync(rulesFile, 'utf8').split('\n').filter((line) => !/^\s*(?:#|summary:|description:)/.test(line)).join('\n');
    for (const metric of named) expect(expressions, metric).toContain(metric);
  });

  it('load with the scrape jobs the operating guide shows (promtool check config)', () => {
    const guide = fs.readFileSync(path.join(repoRoot, 'docs', 'operating.md'), 'utf8');
    const section = guide.slice(guide.indexOf('**Prometheus and Grafana.**'));
    const config = /```yaml\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    expect(config).toContain('campus-alerts.yml');
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-prometheus-'));
    try {
      fs.copyFileSync(rulesFile, path.join(folder, 'campus-alerts.yml'));
      fs.writeFileSync(path.join(folder, 'prometheus.yml'), config);
      const result = promtool(['check', 'config', path.join(folder, 'prometheus.yml')]);
      expect(result.output).toContain('SUCCESS: 10 rules found');
      expect(result.status).toBe(0);
      // every job the rules select on is one the guide's configuration scrapes
      const jobs = new Set([...config.matchAll(/job_name: (\S+)/g)].map((match) => match[1]));
      for (const used of fs.readFileSync(rulesFile, 'utf8').matchAll(/job="([^"]+)"/g)) expect(jobs.has(used[1]), used[1]).toBe(true);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});

const Datasource = Type.Object({ type: Type.Literal('prometheus'), uid: Type.Literal('${datasource}') }, { additionalProperties: false });
const GridPos = Type.Object({
  x: Type.Integer({ minimum: 0, maximum: 23 }),
  y: Type.Integer({ minimum: 0 }),
  w: Type.Integer({ minimum: 1, maximum: 24 }),
  h: Type.Integer({ minimum: 1 }),
}, { additionalProperties: false });
const Target = Type.Object({
  refId: Type.String({ pattern: '^[A-Z]$' }),
  datasource: Datasource,
  expr: Type.String({ minLength: 1 }),
  legendFormat: Type.String(),
}, { additionalProperties: false });
const FieldConfig = Type.Object({ defaults: Type.Object({ unit: Type.Optional(Type.String()) }), overrides: Type.Array(Type.Unknown()) });
const QueryPanel = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  type: Type.Union([Type.Literal('timeseries'), Type.Literal('stat')]),
  title: Type.String({ minLength: 1 }),
  description: Type.String({ minLength: 1 }),
  datasource: Datasource,
  gridPos: GridPos,
  targets: Type.Array(Target, { minItems: 1 }),
  fieldConfig: FieldConfig,
  options: Type.Object({}),
}, { additionalProperties: false });
const RowPanel = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  type: Type.Literal('row'),
  title: Type.String({ minLength: 1 }),
  collapsed: Type.Literal(false),
  gridPos: GridPos,
  panels: Type.Array(Type.Never(), { maxItems: 0 }),
}, { additionalProperties: false });
const Variable = Type.Object({
  name: Type.String({ pattern: '^[a-z]+$' }),
  label: Type.String(),
  type: Type.Union([Type.Literal('datasource'), Type.Literal('query')]),
  query: Type.Union([Type.String(), Type.Object({ query: Type.String(), refId: Type.String() })]),
});
const DashboardSchema = Type.Object({
  uid: Type.String({ pattern: '^[a-z0-9-]{1,40}$' }),
  title: Type.String({ minLength: 1 }),
  description: Type.String(),
  tags: Type.Array(Type.String()),
  timezone: Type.String(),
  editable: Type.Boolean(),
  graphTooltip: Type.Integer({ minimum: 0, maximum: 2 }),
  // Grafana 10 and 11 write 36-39 and migrate anything older on load
  schemaVersion: Type.Integer({ minimum: 36 }),
  version: Type.Integer({ minimum: 1 }),
  refresh: Type.String({ pattern: '^\\d+[smh]$' }),
  time: Type.Object({ from: Type.String(), to: Type.String() }),
  templating: Type.Object({ list: Type.Array(Variable) }),
  annotations: Type.Object({ list: Type.Array(Type.Unknown()) }),
  panels: Type.Array(Type.Union([QueryPanel, RowPanel]), { minItems: 1 }),
}, { additionalProperties: false });
type Dashboard = Static<typeof DashboardSchema>;
type QueryPanelValue = Static<typeof QueryPanel>;

const promqlGrouping = /\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g;
const promqlKeywords = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'offset', 'bool', 'and', 'or', 'unless']);

/** The metric names a PromQL expression reads: identifiers outside label matchers, ranges and strings, not calls. */
function metricNamesOf(expr: string): string[] {
  const bare = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/\{[^}]*\}/g, ' ').replace(/\[[^\]]*\]/g, ' ').replace(promqlGrouping, ' ');
  return [...bare.matchAll(/(?<![\w.$])([a-zA-Z_:][\w:]*)(?!\s*\(|\w)/g)].map((match) => match[1] ?? '').filter((name) => !promqlKeywords.has(name));
}

/** What Grafana puts in for its variables, so promtool can parse the expression as Prometheus would receive it. */
function asSent(expr: string): string {
  return expr.replaceAll('$__rate_interval', '2m').replaceAll('$instance', '.*');
}

describe('the Grafana dashboard', () => {
  const dashboard = JSON.parse(fs.readFileSync(dashboardFile, 'utf8')) as Dashboard;
  const queryPanels = dashboard.panels.filter((panel): panel is QueryPanelValue => panel.type !== 'row');
  let families: Map<string, string>;

  beforeAll(async () => {
    const server = await startServer('sqlite', { env: { METRICS: 'on' } });
    try {
      const text = (await call(server, 'GET', '/metrics')).text;
      families = new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((match) => [match[1] ?? '', match[2] ?? '']));
    } finally {
      await server.close();
    }
  });

  it('matches the schema of a Grafana dashboard file', () => {
    expect([...Value.Errors(DashboardSchema, dashboard)].map((error) => `${error.instancePath} ${error.message}`)).toEqual([]);
  });

  it('has unique panel ids and refIds, and panels that fit the 24 columns without overlapping', () => {
    const ids = dashboard.panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    const cells = new Map<string, string>();
    for (const panel of dashboard.panels) {
      const { x, y, w, h } = panel.gridPos;
      expect(x + w, panel.title).toBeLessThanOrEqual(24);
      for (let row = y; row < y + h; row += 1) {
        for (let column = x; column < x + w; column += 1) {
          expect(cells.get(`${row}:${column}`), `${panel.title} overlaps`).toBeUndefined();
          cells.set(`${row}:${column}`, panel.title);
        }
      }
    }
    for (const panel of queryPanels) {
      const refIds = panel.targets.map((target) => target.refId);
      expect(new Set(refIds).size, panel.title).toBe(refIds.length);
    }
  });

  it('reads in every query only metrics the server exports', () => {
    const exported = (name: string) => {
      if (families.has(name)) return true;
      const base = name.replace(/_(?:bucket|sum|count)$/, '');
      return base !== name && ['histogram', 'summary'].includes(families.get(base) ?? '');
    };
    expect(families.size).toBeGreaterThan(20);
    for (const panel of queryPanels) {
      for (const target of panel.targets) {
        const names = metricNamesOf(target.expr);
        expect(names.length, `${panel.title}: ${target.expr}`).toBeGreaterThan(0);
        for (const name of names) expect(exported(name), `${panel.title} reads ${name}, which /metrics does not export`).toBe(true);
      }
    }
    // the metric name finder itself: it must not let a misspelt name through
    expect(metricNamesOf('sum by (le) (rate(campus_http_request_duration_seconds_bucket{instance=~"$instance"}[$__rate_interval])) * 60'))
      .toEqual(['campus_http_request_duration_seconds_bucket']);
    expect(exported('campus_sign_in_failure_total')).toBe(false);
  });

  it('uses only its own variables, and every query parses as PromQL (promtool check rules)', () => {
    const variables = new Set(['__rate_interval', ...dashboard.templating.list.map((variable) => variable.name)]);
    const rules = queryPanels.flatMap((panel) => panel.targets.map((target) => {
      for (const used of target.expr.matchAll(/\$\{?(\w+)/g)) expect(variables.has(used[1] ?? ''), `${panel.title} uses $${used[1]}`).toBe(true);
      return `      - record: dashboard:panel_${panel.id}_${target.refId}\n        expr: ${JSON.stringify(asSent(target.expr))}\n`;
    }));
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-dashboard-'));
    try {
      const file = path.join(folder, 'dashboard-queries.yml');
      fs.writeFileSync(file, `groups:\n  - name: dashboard\n    rules:\n${rules.join('')}`);
      const result = promtool(['check', 'rules', file]);
      expect(result.output).toContain(`SUCCESS: ${rules.length} rules found`);
      expect(result.status).toBe(0);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});

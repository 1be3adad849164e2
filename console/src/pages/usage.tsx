/**
 * Usage (`GET /v1/usage`, docs/api.md#usage): cost and tokens of the caller's ended runs over a range, by day, by
 * method and by model, as charts (Recharts) with the numbers in a table beside each.
 */
import { useState } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { api, query } from '../api';
import { Empty, Loading, ProblemView } from '../components/states';
import { useLoad } from '../use-load';
import type { UsageGroup } from '../wire';

const GROUPINGS = [
  { by: 'day', title: 'By day' },
  { by: 'method', title: 'By method' },
  { by: 'model', title: 'By model' },
] as const;

const DAY_MS = 24 * 60 * 60 * 1000;

function UsageChart({ by, title, days }: { by: string; title: string; days: number }) {
  const usage = useLoad(
    () =>
      api<{ groups: UsageGroup[] }>(
        `/v1/usage${query({ group_by: by, from: new Date(Date.now() - days * DAY_MS).toISOString() })}`,
      ),
    [by, days],
  );
  const rows = (usage.data?.groups ?? []).map((group) => ({
    key: group.key ?? '(no method)',
    tokens: group.input_tokens + group.output_tokens,
    cost: group.cost_usd ?? 0,
    runs: group.runs,
  }));
  return (
    <div className="card chart" data-testid={`usage-${by}`}>
      <h2>{title}</h2>
      {usage.error ? <ProblemView error={usage.error} /> : null}
      {usage.loading ? <Loading what="usage" /> : null}
      {usage.data && rows.length === 0 ? <Empty title="No ended run in this range" /> : null}
      {rows.length > 0 ? (
        <>
          <ResponsiveContainer width="100%" height={220}>
            <BarChart data={rows}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="key" />
              <YAxis yAxisId="tokens" />
              <YAxis
                yAxisId="cost"
                orientation="right"
                width={72}
                tickFormatter={(value: number) => `$${value.toPrecision(2)}`}
              />
              <Tooltip />
              <Legend />
              <Bar yAxisId="tokens" dataKey="tokens" name="Tokens" fill="#3b6fd8" isAnimationActive={false} />
              <Bar yAxisId="cost" dataKey="cost" name="Cost (USD)" fill="#d8863b" isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
          <table>
            <caption className="sr-only">{title}</caption>
            <thead>
              <tr>
                <th scope="col">{by}</th>
                <th scope="col">Runs</th>
                <th scope="col">Tokens</th>
                <th scope="col">Cost (USD)</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.key}>
                  <td>{row.key}</td>
                  <td>{row.runs}</td>
                  <td>{row.tokens}</td>
                  <td>{row.cost.toFixed(6)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </div>
  );
}

/** The usage page. */
export function UsagePage() {
  const [days, setDays] = useState(30);
  return (
    <section>
      <div className="page-head">
        <h1>Usage</h1>
        <label className="inline">
          Range
          <select value={days} onChange={(event) => setDays(Number(event.target.value))}>
            <option value={1}>Last day</option>
            <option value={7}>Last 7 days</option>
            <option value={30}>Last 30 days</option>
            <option value={90}>Last 90 days</option>
          </select>
        </label>
      </div>
      <div className="grid">
        {GROUPINGS.map((grouping) => (
          <UsageChart key={grouping.by} by={grouping.by} title={grouping.title} days={days} />
        ))}
      </div>
    </section>
  );
}

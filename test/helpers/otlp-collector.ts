/**
 * A fake OpenTelemetry collector: a real OTLP/HTTP traces receiver on 127.0.0.1 (`POST /v1/traces`) that decodes the
 * export as the SDK sends it — protobuf (`application/x-protobuf`, decoded with protobufjs against the subset of the
 * OTLP trace messages below) or JSON (`application/json`) — and keeps the spans, flattened, for the tests to assert.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import protobuf from 'protobufjs';

/**
 * The OTLP trace export messages this receiver reads (field numbers of `opentelemetry/proto/trace/v1` and
 * `common/v1`); fields it does not list are skipped by the decoder.
 */
const OTLP_TRACE_PROTO = `
syntax = "proto3";
package fakeotlp;
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
message Resource { repeated KeyValue attributes = 1; }
message ScopeSpans { repeated Span spans = 2; }
message Span {
  bytes trace_id = 1;
  bytes span_id = 2;
  bytes parent_span_id = 4;
  string name = 5;
  int32 kind = 6;
  fixed64 start_time_unix_nano = 7;
  fixed64 end_time_unix_nano = 8;
  repeated KeyValue attributes = 9;
  repeated Event events = 11;
  repeated Link links = 13;
  Status status = 15;
}
message Event { fixed64 time_unix_nano = 1; string name = 2; repeated KeyValue attributes = 3; }
message Link { bytes trace_id = 1; bytes span_id = 2; }
message Status { string message = 2; int32 code = 3; }
message KeyValue { string key = 1; AnyValue value = 2; }
message ArrayValue { repeated AnyValue values = 1; }
message AnyValue {
  oneof value {
    string string_value = 1;
    bool bool_value = 2;
    int64 int_value = 3;
    double double_value = 4;
    ArrayValue array_value = 5;
  }
}
`;

const REQUEST = protobuf.parse(OTLP_TRACE_PROTO).root.lookupType('fakeotlp.ExportTraceServiceRequest');

/** An attribute value as the tests compare it. */
export type AttributeValue = string | number | boolean | AttributeValue[];

/** One received span. Ids are lowercase hex; times nanoseconds since the epoch (as numbers, ms precision is kept). */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP span kind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  startNs: number;
  endNs: number;
  attributes: Record<string, AttributeValue>;
  events: { name: string; attributes: Record<string, AttributeValue> }[];
  links: { traceId: string; spanId: string }[];
  /** OTLP status code: 0 unset, 1 ok, 2 error. */
  statusCode: number;
}

/** A running fake collector. */
export interface FakeCollector {
  /** The base URL to give as `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  readonly endpoint: string;
  readonly spans: ReceivedSpan[];
  /** Content types of the exports received, in order. */
  readonly contentTypes: string[];
  close(): Promise<void>;
}

interface PlainValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: PlainValue[] };
}
interface PlainKeyValue {
  key: string;
  value?: PlainValue;
}
interface PlainSpan {
  traceId?: string;
  spanId?: string;
  parentSpanId?: string;
  name?: string;
  kind?: number;
  startTimeUnixNano?: number | string;
  endTimeUnixNano?: number | string;
  attributes?: PlainKeyValue[];
  events?: { name?: string; attributes?: PlainKeyValue[] }[];
  links?: { traceId?: string; spanId?: string }[];
  status?: { code?: number };
}
interface PlainRequest {
  resourceSpans?: { resource?: { attributes?: PlainKeyValue[] }; scopeSpans?: { spans?: PlainSpan[] }[] }[];
}

function attributeValue(value: PlainValue | undefined): AttributeValue {
  if (!value) return '';
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  return (value.arrayValue?.values ?? []).map(attributeValue);
}

function attributesOf(list: PlainKeyValue[] | undefined): Record<string, AttributeValue> {
  return Object.fromEntries((list ?? []).map((entry) => [entry.key, attributeValue(entry.value)]));
}

/** Protobuf `bytes` come as base64 from `toObject`; OTLP/JSON sends ids as hex already. */
function hexOf(id: string | undefined, fromBase64: boolean): string {
  if (!id) return '';
  return fromBase64 ? Buffer.from(id, 'base64').toString('hex') : id.toLowerCase();
}

function flatten(request: PlainRequest, fromBase64: boolean): ReceivedSpan[] {
  return (request.resourceSpans ?? []).flatMap((resourceSpans) => {
    const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name'] ?? '');
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        service,
        traceId: hexOf(span.traceId, fromBase64),
        spanId: hexOf(span.spanId, fromBase64),
        parentSpanId: hexOf(span.parentSpanId, fromBase64),
        name: span.name ?? '',
        kind: span.kind ?? 0,
        startNs: Number(span.startTimeUnixNano ?? 0),
        endNs: Number(span.endTimeUnixNano ?? 0),
        attributes: attributesOf(span.attributes),
        events: (span.events ?? []).map((event) => ({
          name: event.name ?? '',
          attributes: attributesOf(event.attributes),
        })),
        links: (span.links ?? []).map((link) => ({
          traceId: hexOf(link.traceId, fromBase64),
          spanId: hexOf(link.spanId, fromBase64),
        })),
        statusCode: span.status?.code ?? 0,
      })),
    );
  });
}

/** Start a fake collector on a free loopback port. */
export async function startFakeCollector(): Promise<FakeCollector> {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      const body = Buffer.concat(chunks);
      const type = String(req.headers['content-type'] ?? '');
      contentTypes.push(type);
      try {
        if (type.startsWith('application/x-protobuf')) {
          const decoded = REQUEST.toObject(REQUEST.decode(body), { longs: String, bytes: String, defaults: false });
          spans.push(...flatten(decoded as PlainRequest, true));
          res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
        } else {
          spans.push(...flatten(JSON.parse(body.toString('utf8')) as PlainRequest, false));
          res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        }
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    contentTypes,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// OpenTelemetry traces, only when OTEL_EXPORTER_OTLP_ENDPOINT is set: the SDK is
// imported then and only then. One server span per request (named by its route id, with the
// app's request id), and one client span per SQL statement inside it. No auto-instrumentation:
// it must be loaded before the modules it patches, which server.ts has already imported.
import type { Span, Tracer } from "@opentelemetry/api";
import { observeStatements } from "./signals.server";

export type RequestSpan = {
  /** Runs `fn` with the span as the active context (the statements it runs become its children). */
  run<T>(fn: () => T): T;
  end(attributes: { route: string; data: boolean; status: number; requestId: string | undefined }): void;
};

export type Tracing = {
  startRequest(method: string, path: string): RequestSpan;
  stop(): Promise<void>;
};

export async function startTracing(options: { serviceName: string }): Promise<Tracing> {
  const api = await import("@opentelemetry/api");
  const { NodeSDK } = await import("@opentelemetry/sdk-node");
  const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-http");
  // The exporter reads OTEL_EXPORTER_OTLP_ENDPOINT (and OTEL_EXPORTER_OTLP_HEADERS…) itself.
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME?.trim() || options.serviceName,
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [],
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  const tracer: Tracer = api.trace.getTracer("reseau-transmission");
  const stopStatements = observeStatements((event) => {
    const parent = api.trace.getSpan(api.context.active());
    if (!parent) return;
    const span = tracer.startSpan(
      "db.statement",
      { kind: api.SpanKind.CLIENT, startTime: event.startMs, attributes: { "db.system.name": "postgresql", "rt.db.pool": event.pool } },
      api.context.active(),
    );
    if (event.failed) span.setStatus({ code: api.SpanStatusCode.ERROR });
    span.end(event.startMs + event.seconds * 1000);
  });
  return {
    startRequest(method, path) {
      const span: Span = tracer.startSpan(method, {
        kind: api.SpanKind.SERVER,
        attributes: { "http.request.method": method, "url.path": path },
      });
      const active = api.trace.setSpan(api.context.active(), span);
      return {
        run: (fn) => api.context.with(active, fn),
        end({ route, data, status, requestId }) {
          span.updateName(`${method} ${route}${data ? " (.data)" : ""}`);
          span.setAttributes({ "http.route": route, "rt.route.data": data, "http.response.status_code": status });
          if (requestId) span.setAttribute("rt.request_id", requestId);
          if (status >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR });
          span.end();
        },
      };
    },
    async stop() {
      stopStatements();
      await sdk.shutdown();
    },
  };
}

import { context, createContextKey, metrics, propagation, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, ExportResultCode, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, TracerProvider, type SpanExporter } from '@opentelemetry/sdk-trace';

type Otel = typeof import('../../src/otel/index.js');

/** The states of a process an SDK call is measured in. */
export type OtelState = 'none' | 'sdk-only' | 'instrumented';

/** A context entered once, as another instrumentation would: the context manager is then in use. */
const IN_USE = ROOT_CONTEXT.setValue(createContextKey('bench: context in use'), true);

/** An exporter that drops what it gets: a real app's batches leave the process; here they cost nothing more. */
const DROPPING: SpanExporter = { export: (_spans, done) => done({ code: ExportResultCode.SUCCESS }), shutdown: async () => undefined };

/**
 * An app's OpenTelemetry set-up, switched between batches: `none` (no OpenTelemetry at all),
 * `sdk-only` (the AsyncLocalStorage context manager in use, W3C propagators, a tracer provider
 * with a BatchSpanProcessor and a meter provider registered, the SDK's instrumentation disabled:
 * what the app pays for OpenTelemetry whatever it instruments) and `instrumented` (the same, the
 * SDK's instrumentation enabled). The instrumentation is the built one (dist/otel).
 *
 * "In use": Node's AsyncLocalStorage hooks every promise and async resource of the process from
 * its first `run()` on, the first `context.with()` of any instrumentation (an HTTP server's, for
 * each request it serves). Were the SDK's instrumentation the first, the whole process's cost of
 * those hooks would be counted as its own.
 */
export async function otelVariants(distOtel: URL): Promise<{ set(state: OtelState): void; stop(): Promise<void> }> {
  const { AdminClientInstrumentation } = (await import(distOtel.href)) as Otel;
  const tracerProvider = new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter: DROPPING })] });
  const meterProvider = new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE), exportIntervalMillis: 600_000 })] });
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
  const instrumentation = new AdminClientInstrumentation({ enabled: false });
  return {
    set(state) {
      context.disable();
      if (state !== 'none') {
        context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
        context.with(IN_USE, () => undefined);
      }
      if (state === 'instrumented') instrumentation.enable();
      else instrumentation.disable();
    },
    async stop() {
      instrumentation.disable();
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
      context.disable();
      trace.disable();
      metrics.disable();
      propagation.disable();
    },
  };
}

import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader, type DataPoint, type MetricData } from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { AdminClientInstrumentation } from '../../../src/otel/index.js';

/** An app's OpenTelemetry set-up as a test sees it: every span and metric kept in memory. */
export interface OtelHarness {
  instrumentation: AdminClientInstrumentation;
  spans: InMemorySpanExporter;
  tracerProvider: TracerProvider;
  meterProvider: MeterProvider;
  /** The metrics recorded so far (cumulative), by name. */
  collect(): Promise<Map<string, MetricData>>;
  /** Forgets the spans exported so far. */
  reset(): void;
  /** Unregisters everything: the instrumentation, the global providers, context manager and propagator. */
  stop(): Promise<void>;
}

/**
 * Registers an AsyncLocalStorage context manager, the W3C propagators (trace context and baggage,
 * as the NodeSDK does by default), a tracer provider with an in-memory span exporter, a meter
 * provider with an in-memory metric exporter, and the SDK's instrumentation through
 * `registerInstrumentations` (plus `extra` instrumentations). `global: true` also registers the
 * providers globally (the instrumentation is then given none).
 */
export function startOtel(options: { global?: boolean; extra?: Parameters<typeof registerInstrumentations>[0]['instrumentations'] } = {}): OtelHarness {
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
  const spans = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })], spanLimits: { eventCountLimit: 1_000 } });
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const instrumentation = new AdminClientInstrumentation();
  let unload: () => void;
  if (options.global === true) {
    trace.setGlobalTracerProvider(tracerProvider);
    metrics.setGlobalMeterProvider(meterProvider);
    unload = registerInstrumentations({ instrumentations: [instrumentation, ...(options.extra ?? [])] });
  } else {
    unload = registerInstrumentations({ instrumentations: [instrumentation, ...(options.extra ?? [])], tracerProvider, meterProvider });
  }
  return {
    instrumentation,
    spans,
    tracerProvider,
    meterProvider,
    async collect() {
      await reader.forceFlush();
      const exported = metricExporter.getMetrics().at(-1);
      const byName = new Map<string, MetricData>();
      for (const scope of exported?.scopeMetrics ?? []) for (const metric of scope.metrics) byName.set(metric.descriptor.name, metric);
      return byName;
    },
    reset() {
      spans.reset();
    },
    async stop() {
      unload();
      instrumentation.disable();
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
      trace.disable();
      metrics.disable();
      propagation.disable();
      context.disable();
    },
  };
}

/** The spans named `name`. */
export function spansNamed(spans: readonly ReadableSpan[], name: string): ReadableSpan[] {
  return spans.filter((span) => span.name === name);
}

/** The span's parent span id (the field moved between SDK versions). */
export function parentOf(span: ReadableSpan): string | undefined {
  const withParent = span as ReadableSpan & { parentSpanContext?: { spanId: string }; parentSpanId?: string };
  return withParent.parentSpanContext?.spanId ?? withParent.parentSpanId;
}

/** The children of `parent` among `spans`. */
export function childrenOf(spans: readonly ReadableSpan[], parent: ReadableSpan): ReadableSpan[] {
  return spans.filter((span) => parentOf(span) === parent.spanContext().spanId);
}

/** A data point's attributes and value, for matching. */
export function points(metric: MetricData | undefined): Array<{ attributes: Record<string, unknown>; value: unknown }> {
  return (metric?.dataPoints ?? []).map((point: DataPoint<unknown>) => ({ attributes: { ...point.attributes }, value: point.value }));
}

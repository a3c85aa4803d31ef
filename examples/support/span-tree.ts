import { ExportResultCode, hrTimeToMilliseconds, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';

/** The attributes a line shows, when the span has them. */
const SHOWN = [
  'school_admin.method',
  'school_admin.lane',
  'school_admin.attempts',
  'school_admin.ran',
  'error.type',
  'http.response.status_code',
  'http.request.resend_count',
  'school_admin.wait.reason',
  'school_admin.budget.limit',
  'school_admin.budget.window_ms',
  'school_admin.rate_limit.count',
  'school_admin.job.row_count',
  'school_admin.job.outcome.created',
  'school_admin.job.outcome.already_granted',
  'school_admin.job.outcome.invalid',
  'school_admin.job.rate_limited_count',
];

/** The span's parent span id (the field's name differs between SDK versions). */
function parentOf(span: ReadableSpan): string | undefined {
  const withParent = span as ReadableSpan & { parentSpanContext?: { spanId: string }; parentSpanId?: string };
  return withParent.parentSpanContext?.spanId ?? withParent.parentSpanId;
}

/**
 * A span exporter for reading at a terminal: it keeps the spans and, at shutdown, prints each trace
 * as a tree, one line per span (name, start offset, duration, the attributes that matter here).
 */
export class SpanTreeExporter implements SpanExporter {
  readonly #spans: ReadableSpan[] = [];

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.#spans.push(...spans);
    done({ code: ExportResultCode.SUCCESS });
  }

  async shutdown(): Promise<void> {
    const ids = new Set(this.#spans.map((span) => span.spanContext().spanId));
    const roots = this.#spans.filter((span) => !ids.has(parentOf(span) ?? ''));
    for (const root of roots.sort((a, b) => hrTimeToMilliseconds(a.startTime) - hrTimeToMilliseconds(b.startTime))) {
      console.log(`\ntrace ${root.spanContext().traceId}`);
      this.#print(root, hrTimeToMilliseconds(root.startTime), '  ');
    }
  }

  async forceFlush(): Promise<void> {}

  #print(span: ReadableSpan, origin: number, indent: string): void {
    const start = hrTimeToMilliseconds(span.startTime) - origin;
    const duration = hrTimeToMilliseconds(span.duration);
    const shown = SHOWN.filter((name) => span.attributes[name] !== undefined).map((name) => `${name.replace(/^school_admin\./, '')}=${String(span.attributes[name])}`);
    const events = span.events.map((event) => event.name.replace(/^school_admin\./, '')).join(', ');
    console.log(`${indent}${span.name}  +${start.toFixed(0)} ms, ${duration.toFixed(1)} ms  ${shown.join(' ')}${events === '' ? '' : `  events: ${events}`}`);
    const children = this.#spans.filter((child) => parentOf(child) === span.spanContext().spanId);
    for (const child of children.sort((a, b) => hrTimeToMilliseconds(a.startTime) - hrTimeToMilliseconds(b.startTime))) this.#print(child, origin, `${indent}  `);
  }
}

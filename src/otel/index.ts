/**
 * school-admin-sdk/otel: the OpenTelemetry instrumentation of the SDK. Register it like any
 * instrumentation; every `AdminClient` of the process is then traced and measured, with no change
 * to how clients are made. Needs `@opentelemetry/api` (an optional peer dependency of this entry
 * only); the main entry never loads it.
 *
 * @example
 * ```ts
 * import { registerInstrumentations } from '@opentelemetry/instrumentation';
 * import { AdminClientInstrumentation } from 'school-admin-sdk/otel';
 *
 * registerInstrumentations({ instrumentations: [new AdminClientInstrumentation()] });
 * ```
 * @module school-admin-sdk/otel
 */
export { AdminClientInstrumentation, type AdminClientInstrumentationConfig } from './instrumentation.js';

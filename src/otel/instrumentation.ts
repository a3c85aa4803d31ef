import { metrics, trace, type MeterProvider, type TracerProvider } from '@opentelemetry/api';
import { setTelemetry } from '../client/events/telemetry.js';
import { SDK_VERSION } from '../client/options/version.js';
import { InvalidInputError } from '../errors/invalid-input-error.js';
import type { Recorder } from './call-trace.js';
import { Instruments, Tallies } from './instruments.js';
import { Observer } from './observer.js';
import { SCOPE_NAME } from './semantic.js';

/** Options of {@link AdminClientInstrumentation}, as every OpenTelemetry instrumentation takes them. */
export interface AdminClientInstrumentationConfig {
  /**
   * Whether it watches from the start. `registerInstrumentations` and the NodeSDK enable a disabled
   * one; `enable()` and `disable()` switch it later.
   * @default true
   */
  enabled?: boolean | undefined;
}

const CONFIG_KEYS: ReadonlySet<string> = new Set(['enabled']);

/**
 * The OpenTelemetry instrumentation of school-admin-sdk: every `AdminClient` of the process, made
 * before or after it was enabled, traces each call (a span per call, a CLIENT span per HTTP
 * attempt, spans for waits and 429 pauses, one span per bulk job), sends `traceparent` with each
 * request, and records metrics. It uses the tracer and meter providers it is given
 * (`registerInstrumentations` and the NodeSDK give theirs), the global ones otherwise. A client
 * made with `telemetry: false` is not seen. Without this entry point the SDK records nothing and
 * loads no OpenTelemetry code.
 *
 * @example
 * ```ts
 * import { registerInstrumentations } from '@opentelemetry/instrumentation';
 * import { AdminClientInstrumentation } from 'school-admin-sdk/otel';
 *
 * registerInstrumentations({ instrumentations: [new AdminClientInstrumentation()] });
 * // or: new NodeSDK({ instrumentations: [new AdminClientInstrumentation(), ...] }).start();
 * ```
 */
export class AdminClientInstrumentation {
  /** The instrumentation's name (also its tracer's and meter's). */
  readonly instrumentationName = SCOPE_NAME;
  /** The SDK's version. */
  readonly instrumentationVersion = SDK_VERSION;
  #config: AdminClientInstrumentationConfig & { enabled: boolean };
  /** The meter provider given; undefined: the global one, whichever is registered when a call starts. */
  #meterProvider: MeterProvider | undefined;
  /** The tracer (of the provider given, or the global proxy, which follows what is registered later) and the instruments. */
  #recorder: Recorder & { readonly meterProvider: MeterProvider };
  readonly #observer: Observer;

  /** @throws {InvalidInputError} for a config that is not an object of known options. */
  constructor(config: AdminClientInstrumentationConfig = {}) {
    this.#config = checkedConfig(config, 'create the instrumentation');
    const meterProvider = metrics.getMeterProvider();
    const tallies = new Tallies();
    this.#recorder = { tracer: trace.getTracer(SCOPE_NAME, SDK_VERSION), meterProvider, instruments: new Instruments(meterProvider.getMeter(SCOPE_NAME, SDK_VERSION), tallies), tallies };
    this.#observer = new Observer(() => this.#current(), tallies);
    // As OpenTelemetry's InstrumentationBase: enabled at once unless told otherwise.
    if (this.#config.enabled) this.enable();
  }

  /** Starts watching every client of the process (the one instrumentation that does; a later one takes over). */
  enable(): void {
    setTelemetry(this.#observer);
  }

  /** Stops watching; calls under way finish their spans. Another instrumentation enabled since stays. */
  disable(): void {
    setTelemetry(undefined, this.#observer);
  }

  /**
   * Traces with `tracerProvider`'s tracer from now on.
   * @throws {InvalidInputError} when it is not a TracerProvider (no `getTracer`).
   */
  setTracerProvider(tracerProvider: TracerProvider): void {
    if (typeof (tracerProvider as Partial<TracerProvider> | null | undefined)?.getTracer !== 'function') {
      throw refused('set the tracer provider', 'tracerProvider', 'pass an OpenTelemetry TracerProvider (one with getTracer), such as trace.getTracerProvider()');
    }
    this.#recorder = { ...this.#recorder, tracer: tracerProvider.getTracer(SCOPE_NAME, SDK_VERSION) };
  }

  /**
   * Records metrics with `meterProvider`'s meter from now on.
   * @throws {InvalidInputError} when it is not a MeterProvider (no `getMeter`).
   */
  setMeterProvider(meterProvider: MeterProvider): void {
    if (typeof (meterProvider as Partial<MeterProvider> | null | undefined)?.getMeter !== 'function') {
      throw refused('set the meter provider', 'meterProvider', 'pass an OpenTelemetry MeterProvider (one with getMeter), such as metrics.getMeterProvider()');
    }
    this.#meterProvider = meterProvider;
    this.#current();
  }

  /** The recorder of the providers in force: instruments made anew when the meter provider changed. */
  #current(): Recorder {
    const meterProvider = this.#meterProvider ?? metrics.getMeterProvider();
    const recorder = this.#recorder;
    if (meterProvider === recorder.meterProvider) return recorder;
    recorder.instruments.dispose();
    this.#recorder = { ...recorder, meterProvider, instruments: new Instruments(meterProvider.getMeter(SCOPE_NAME, SDK_VERSION), recorder.tallies) };
    return this.#recorder;
  }

  /**
   * Replaces the config (OpenTelemetry's contract: `enabled` is read by `registerInstrumentations`;
   * use `enable()` and `disable()` to switch it).
   * @throws {InvalidInputError} for a config that is not an object of known options.
   */
  setConfig(config: AdminClientInstrumentationConfig = {}): void {
    this.#config = checkedConfig(config, 'set the instrumentation\'s config');
  }

  /** The config, `enabled` filled in. */
  getConfig(): AdminClientInstrumentationConfig {
    return { ...this.#config };
  }
}

function checkedConfig(config: AdminClientInstrumentationConfig, action: string): AdminClientInstrumentationConfig & { enabled: boolean } {
  // A Map or a class instance has no own keys to refuse: only a plain object is a config.
  if (config === null || typeof config !== 'object' || ![Object.prototype, null].includes(Object.getPrototypeOf(config))) throw refused(action, 'config', 'pass an object such as { enabled: true }');
  for (const key of Object.keys(config)) if (!CONFIG_KEYS.has(key)) throw refused(action, key, `${key} is not an option of AdminClientInstrumentation (it takes enabled)`);
  const { enabled } = config;
  if (enabled !== undefined && typeof enabled !== 'boolean') throw refused(action, 'enabled', 'enabled must be true or false');
  return { ...config, enabled: enabled ?? true };
}

function refused(action: string, field: string, problem: string): InvalidInputError {
  return new InvalidInputError(`Failed to ${action}: ${problem}.`, { operation: 'AdminClientInstrumentation', field });
}

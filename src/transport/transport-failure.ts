import type { InvalidResponseProblem } from '../errors/invalid-response-error.js';

/**
 * Why an attempt produced no usable HTTP response. Raised inside the transport and turned into the
 * public error classes by the pipeline, which knows the operation and the redactor.
 */
export type TransportFailure =
  | { kind: 'network'; mayHaveReachedServer: boolean; cause: unknown }
  | { kind: 'timeout' }
  | { kind: 'body'; problem: InvalidResponseProblem; status: number }
  /** A redirect, never followed: `origin` of its target (undefined when unknown), never the whole Location. */
  | { kind: 'redirect'; status: number; origin: string | undefined };

/** Carries a {@link TransportFailure} through graphql-request, which re-throws what fetch throws. */
export class TransportFailureSignal extends Error {
  constructor(readonly failure: TransportFailure) {
    super(`transport failure: ${failure.kind}`);
  }
}

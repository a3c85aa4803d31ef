import type { InvalidResponseProblem } from '../errors/invalid-response-error.js';

/**
 * Why an attempt produced no usable HTTP response. Raised inside the transport and turned into the
 * public error classes by the pipeline, which knows the operation and the redactor.
 */
export type TransportFailure =
  | { kind: 'network'; mayHaveReachedServer: boolean; cause: unknown }
  | { kind: 'timeout' }
  | { kind: 'body'; problem: InvalidResponseProblem; status: number; headers: Headers }
  /** A redirect, never followed: `origin` of its target (undefined when unknown), never the whole Location. */
  | { kind: 'redirect'; status: number; origin: string | undefined; headers: Headers };

/** Carries a {@link TransportFailure} from the transport to the pipeline, which turns it into a public error. */
export class TransportFailureSignal extends Error {
  constructor(readonly failure: TransportFailure) {
    super(`transport failure: ${failure.kind}`);
  }

  /** The response the failure came with: a redirect, or a body the client cannot use. */
  get response(): { status: number; headers: Headers } | undefined {
    const { failure } = this;
    return failure.kind === 'body' || failure.kind === 'redirect' ? { status: failure.status, headers: failure.headers } : undefined;
  }
}

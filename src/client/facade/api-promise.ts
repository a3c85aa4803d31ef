import type { AnsweredAttempt, CallResponse } from '../../response/response-metadata.js';

/** A call's result together with what the client read of the HTTP response that brought it. */
export interface WithResponse<T, R extends CallResponse | undefined = CallResponse> {
  /** The result, exactly what awaiting the call gives. */
  data: T;
  /** The response's status, headers (credentials redacted) and request id, with the call's id and attempt. */
  response: R;
}

/** What a call resolved to before the caller chose how to read it. */
export interface CallAnswer<T> {
  data: T;
  /** The answered attempt; undefined only when nothing had to be sent (an empty bulk input). */
  response: AnsweredAttempt | undefined;
}

/**
 * What every `AdminClient` method returns: a `Promise` of the result, exactly as before (`await`
 * gives the result, `.then`/`.catch`/`.finally` work as on any promise), which can also give the
 * result with its HTTP response's metadata: `withResponse()`, in the manner of openai-node.
 *
 * @typeParam T - the result
 * @typeParam R - the response part: {@link CallResponse}, or `CallResponse | undefined` for the
 *   bulk methods (undefined when the input was empty and nothing was sent)
 * @example
 * ```ts
 * const { grant } = await admin.grantCoupon(couponId, { email }); // unchanged
 *
 * const { data, response } = await admin.grantCoupon(couponId, { email }).withResponse();
 * console.log(data.created, response.status, response.requestId, response.callId);
 * ```
 */
export class AdminApiPromise<T, R extends CallResponse | undefined = CallResponse> extends Promise<T> {
  readonly #answer: Promise<CallAnswer<T>>;

  /** @internal Built by the client: `answer` is the call in progress. */
  constructor(answer: Promise<CallAnswer<T>>) {
    // The base promise is never used: every way of reading this one goes through `then` below.
    super((resolve) => resolve(undefined as T));
    this.#answer = answer;
  }

  /** Promises derived from this one (`finally`, subclasses' `then`) are plain promises. */
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  /**
   * The result together with the response's status, headers (credentials redacted), request id
   * (from the client's `requestIdHeaders`; the spec does not name one), call id and attempt. For a
   * bulk call sent in chunks, the response of its last chunk. Rejects as the call does; the error
   * then carries the same metadata (`AdminApiError.status`, `headers`, `requestId`).
   */
  withResponse(): Promise<WithResponse<T, R>> {
    return this.#answer.then(({ data, response }) => ({ data, response: response?.callResponse() as R }));
  }

  /** As `Promise.prototype.then`, on the call's result. */
  override then<TResult1 = T, TResult2 = never>(
    onfulfilled?: ((value: T) => TResult1 | PromiseLike<TResult1>) | null,
    onrejected?: ((reason: unknown) => TResult2 | PromiseLike<TResult2>) | null,
  ): Promise<TResult1 | TResult2> {
    // Each reading derives from the answer directly, and only when made: a caller who only reads
    // withResponse() leaves no second, unhandled rejection, and a waiting call that is awaited
    // holds one promise less (thousands may wait in the queue).
    const read = typeof onfulfilled === 'function' ? (answer: CallAnswer<T>) => onfulfilled(answer.data) : (dataOf as (answer: CallAnswer<T>) => TResult1);
    return this.#answer.then(read, onrejected);
  }
}

function dataOf<T>(answer: CallAnswer<T>): T {
  return answer.data;
}

/**
 * Starts a call: `body` runs now, and an input it refuses (thrown synchronously) becomes the
 * promise's rejection, as it would from an `async` method.
 */
export function startCall<T, R extends CallResponse | undefined = CallResponse>(body: () => Promise<CallAnswer<T>>): AdminApiPromise<T, R> {
  let answer: Promise<CallAnswer<T>>;
  try {
    answer = body();
  } catch (error) {
    answer = Promise.reject(error);
  }
  return new AdminApiPromise<T, R>(answer);
}

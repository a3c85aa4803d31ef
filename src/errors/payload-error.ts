import { AdminApiError, type AdminApiErrorOptions } from './admin-api-error.js';
import type { SubscriptionUpdateReason } from './subscription-update-reason.js';

/** Fields of a {@link PayloadError}. */
export interface PayloadErrorOptions extends AdminApiErrorOptions {
  /** The payload's `errors` messages, as sent (without the API key). */
  messages: string[];
  /** A stable name for a documented updateSubscription message. */
  reason?: SubscriptionUpdateReason;
}

/**
 * The operation's payload came back with a non-empty `errors` list and no result object: a model
 * validation or lifecycle failure the server reports without a code. `updateSubscriptionPeriod`
 * failures carry a stable `reason` for each message the spec documents.
 *
 * @example
 * ```ts
 * try {
 *   await admin.updateSubscriptionPeriod(id, newEnd);
 * } catch (error) {
 *   if (error instanceof PayloadError && error.reason === 'pending_cancellation') {
 *     // cancel it instead
 *   }
 * }
 * ```
 */
export class PayloadError extends AdminApiError {
  override name = 'PayloadError';
  /** Refused as a whole: it did not run. */
  override readonly ran = 'no';
  /** The server's messages, as sent (without the API key). They may quote your input. */
  readonly messages: string[];
  /** A stable name for a documented updateSubscription message. */
  readonly reason: SubscriptionUpdateReason | undefined;

  constructor(message: string, options: PayloadErrorOptions) {
    super(message, options);
    this.messages = options.messages;
    this.reason = options.reason;
  }

  protected override jsonFields(): Record<string, unknown> {
    return { messages: this.redacted(this.messages), reason: this.reason };
  }
}

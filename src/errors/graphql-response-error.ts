import { AdminApiError, type AdminApiErrorOptions } from './admin-api-error.js';

/** Fields of a {@link GraphQLResponseError}. */
export interface GraphQLResponseErrorOptions extends AdminApiErrorOptions {
  messages: string[];
  /** `extensions.code` of the first error, when the server sent one. */
  serverCode?: string;
}

/**
 * Top-level GraphQL errors without a documented error code, e.g. a document the server's schema
 * rejects (a field that does not exist there) when using `request()`.
 */
export class GraphQLResponseError extends AdminApiError {
  override name = 'GraphQLResponseError';
  /** The server's messages (without the API key). They may quote your input. */
  readonly messages: string[];
  /** `extensions.code` of the first error, when there is one. */
  readonly serverCode: string | undefined;

  constructor(message: string, options: GraphQLResponseErrorOptions) {
    super(message, options);
    this.messages = options.messages;
    this.serverCode = options.serverCode;
  }

  protected override jsonFields(): Record<string, unknown> {
    return { messages: this.redacted(this.messages), serverCode: this.redacted(this.serverCode) };
  }
}

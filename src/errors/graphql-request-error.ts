import { GraphQLResponseError, type GraphQLResponseErrorOptions } from './graphql-response-error.js';

/** A field the document selects that the server's schema does not have. */
export interface MissingField {
  /** The type the field was selected on, e.g. `'AdminCoupon'`. */
  readonly type: string;
  /** The field's name, e.g. `'appliedCount'`. */
  readonly field: string;
}

/** Fields of a {@link GraphQLRequestError}. */
export interface GraphQLRequestErrorOptions extends GraphQLResponseErrorOptions {
  /** Fields the server's schema lacks, as its messages name them; `[]` when none. */
  missingFields?: readonly MissingField[];
}

/**
 * The server refused the request before running anything, and said why in GraphQL errors: a
 * document it cannot parse or that fails its schema's validation (a field it does not have), an
 * unknown or missing `operationName`, variables of the wrong type. Servers answer these with HTTP
 * 400 under `application/graphql-response+json` (the GraphQL-over-HTTP rule), some with 200 and no
 * `data` under `application/json`, a few with 422: the class is the same whatever the status and
 * media type (the status is kept in `status`).
 * Nothing ran, so it is never sent again; fix the document or its variables first.
 *
 * The typed methods send the SDK's own documents: there a request error means the deployed
 * server's schema differs from the one this SDK version was built for. When the server names a
 * field it lacks (`Cannot query field "appliedCount" on type "AdminCoupon".`, the wording of
 * graphql-js, Apollo Server and GraphQL Yoga alike), `missingFields` lists it and the message says
 * so.
 *
 * A subclass of {@link GraphQLResponseError}, so `instanceof GraphQLResponseError` still holds;
 * it is not an `HttpError`, even when its status is 400. Other 4xx (a wrong path's 404, a 413)
 * stay `HttpError`, their message naming the server's first GraphQL message when there is one.
 *
 * @example
 * ```ts
 * try {
 *   await admin.createCoupon(input);
 * } catch (error) {
 *   if (error instanceof GraphQLRequestError && error.missingFields.length > 0) {
 *     // e.g. [{ type: 'AdminCoupon', field: 'appliedCount' }]: the server runs an older schema.
 *   }
 * }
 * ```
 */
export class GraphQLRequestError extends GraphQLResponseError {
  override name = 'GraphQLRequestError';
  /**
   * Fields the document selects that the server's schema lacks, read from its messages (the only
   * place servers state it); empty when it named none. For the typed methods: the deployed
   * server is older (or newer) than this SDK version.
   */
  readonly missingFields: readonly MissingField[];

  constructor(message: string, options: GraphQLRequestErrorOptions) {
    super(message, { ...options, ran: 'no' });
    this.missingFields = options.missingFields ?? [];
  }

  protected override jsonFields(): Record<string, unknown> {
    return { ...super.jsonFields(), missingFields: this.redacted(this.missingFields) };
  }
}

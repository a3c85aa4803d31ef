import { validate, type GraphQLError, type GraphQLSchema } from 'graphql';
import { analyseDocument, type DocumentInfo } from './document-fields.js';

interface Entry {
  info: DocumentInfo;
  validation: readonly GraphQLError[] | undefined;
}

/**
 * Parsed and validated documents by query text, as real GraphQL servers keep them: clients send
 * the same few documents over and over, and parsing plus validation would otherwise dominate the
 * simulator's time per request (benchmarks push thousands through it).
 */
export class DocumentCache {
  readonly #entries = new Map<string, Entry>();

  /**
   * @param schema - the schema documents are validated against
   * @param capacity - documents kept; the least recently used goes first
   */
  constructor(
    private readonly schema: GraphQLSchema,
    private readonly capacity = 256,
  ) {}

  /** {@link analyseDocument}, cached. */
  analyse(query: string, operationName: string | undefined): DocumentInfo {
    return this.#entry(query, operationName).info;
  }

  /** graphql-js validation of an analysed document, cached with it. */
  validate(query: string, operationName: string | undefined): readonly GraphQLError[] {
    const entry = this.#entry(query, operationName);
    if (entry.info.document === null) return [];
    entry.validation ??= validate(this.schema, entry.info.document);
    return entry.validation;
  }

  #entry(query: string, operationName: string | undefined): Entry {
    const key = `${operationName ?? ''}\u0000${query}`;
    let entry = this.#entries.get(key);
    if (entry === undefined) {
      entry = { info: analyseDocument(query, operationName), validation: undefined };
      if (this.#entries.size >= this.capacity) this.#entries.delete(this.#entries.keys().next().value as string);
    } else {
      this.#entries.delete(key); // re-inserted below: most recently used last
    }
    this.#entries.set(key, entry);
    return entry;
  }
}

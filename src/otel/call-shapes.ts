import type { Attributes } from '@opentelemetry/api';
import type { TelemetryCall } from '../client/events/telemetry.js';
import type { Tallies, Tally } from './instruments.js';
import { readOperation } from './operation-names.js';
import { ATTR } from './semantic.js';

/**
 * What every call of one kind records alike (one document, `operationName`, SDK method, lane and
 * budget): its span's name and attributes, its metrics' attributes, its waiting count. Made once
 * per kind: the SDK's documents are the same strings at every call, and building attributes per
 * call was, in a profile, as costly as the spans themselves.
 */
export interface CallShape {
  /** `{type} {name}` as the GraphQL conventions name a span, `{type}`, or `GraphQL Operation`. */
  readonly spanName: string;
  /** The call span's attributes but its call id. */
  readonly spanAttributes: Attributes;
  /** Call duration of a call that succeeded (`school_admin.ran: 'yes'`). */
  readonly succeeded: Attributes;
  /** Call duration, before the outcome of a failed call is added. */
  readonly operation: Attributes;
  /** Lane and budget (permit waits add their reason). */
  readonly lane: Attributes;
  /** The 429 counter's attributes. */
  readonly rateLimited: Attributes;
  /** The count of waiting calls of this lane and budget. */
  readonly waiting: Tally;
}

/** Kinds of call remembered at most (`request()` may send any document). */
const MAX_REMEMBERED = 512;

/** The {@link CallShape} of each kind of call, made on first sight. */
export class CallShapes {
  readonly #byDocument = new Map<string, Map<string, CallShape>>();
  readonly #tallies: Tallies;
  #count = 0;

  constructor(tallies: Tallies) {
    this.#tallies = tallies;
  }

  of(call: TelemetryCall): CallShape {
    let kinds = this.#byDocument.get(call.document);
    if (kinds === undefined) {
      if (this.#count >= MAX_REMEMBERED) {
        this.#byDocument.clear();
        this.#count = 0;
      }
      kinds = new Map();
      this.#byDocument.set(call.document, kinds);
    }
    const key = `${call.operationName ?? ''}\u0000${call.operation}\u0000${call.priority}\u0000${call.operationType}`;
    let shape = kinds.get(key);
    if (shape === undefined) {
      shape = this.#shape(call);
      kinds.set(key, shape);
      this.#count += 1;
    }
    return shape;
  }

  #shape(call: TelemetryCall): CallShape {
    const { type, name, spanName } = readOperation(call.document, call.operationName);
    const graphql: Attributes = {};
    if (type !== undefined) graphql[ATTR.GRAPHQL_OPERATION_TYPE] = type;
    if (name !== undefined) graphql[ATTR.GRAPHQL_OPERATION_NAME] = name;
    const lane = { [ATTR.LANE]: call.priority, [ATTR.OPERATION_TYPE]: call.operationType };
    const operation = { ...graphql, [ATTR.METHOD]: call.operation, [ATTR.LANE]: call.priority };
    return {
      spanName,
      spanAttributes: { ...graphql, [ATTR.METHOD]: call.operation, ...lane },
      operation,
      succeeded: { ...operation, [ATTR.RAN]: 'yes' },
      lane,
      rateLimited: { ...lane, [ATTR.METHOD]: call.operation },
      waiting: this.#tallies.waitingOf(call.priority, call.operationType),
    };
  }
}

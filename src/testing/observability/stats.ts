import type { OperationType } from '../rate-limit/classify-operation.js';

/** Counters of one root field (e.g. `createCouponGrant`). */
export interface FieldStats {
  /** Requests naming the field that arrived (rate-limited and rejected ones included). */
  arrivals: number;
  /** Times its resolver ran (an executed mutation changed state unless it failed a rule). */
  executions: number;
  /** Arrivals answered with 429. */
  rateLimited: number;
}

/** What arrived at the simulator and what it did, for tests and benchmarks. */
export interface SimulatorStats {
  /** Arrivals per operation type (every request on `/admin/graphql`). */
  requests: Record<OperationType, number>;
  /** 429 answers per operation type. */
  rateLimited: Record<OperationType, number>;
  /** Requests refused for a missing or unknown key. */
  unauthenticated: number;
  /** Requests refused for a missing scope. */
  forbidden: number;
  /** Coded errors returned, by code. */
  codedErrors: Record<string, number>;
  /** Per root field. */
  fields: Record<string, FieldStats>;
}

/** One request of the simulator's request log. */
export interface RequestLogEntry {
  /** Epoch milliseconds when it counted as arrived. */
  arrivedAt: number;
  /** The budget it counted against: a mutation when the document starts with `mutation`. */
  operationType: OperationType;
  /** Root fields of the document (empty when it did not parse). */
  fields: string[];
  /** The HTTP status answered. */
  status: number;
  /** The id of the API key used (never the secret), or null for a missing or unknown key. */
  apiKeyId: string | null;
  /** The id sent back in the response's `x-request-id` header (what the client reports as `requestId`). */
  requestId: string;
}

function emptyStats(): SimulatorStats {
  return {
    requests: { mutations: 0, queries: 0 },
    rateLimited: { mutations: 0, queries: 0 },
    unauthenticated: 0,
    forbidden: 0,
    codedErrors: {},
    fields: {},
  };
}

/** Counts arrivals, outcomes and executions, and keeps a bounded request log. */
export class StatsRecorder {
  private stats = emptyStats();
  private entries: RequestLogEntry[] = [];

  constructor(private readonly logSize: number) {}

  private field(name: string): FieldStats {
    const existing = this.stats.fields[name];
    if (existing) return existing;
    const created = { arrivals: 0, executions: 0, rateLimited: 0 };
    this.stats.fields[name] = created;
    return created;
  }

  /** A request arrived. */
  arrival(operationType: OperationType, fields: readonly string[]): void {
    this.stats.requests[operationType] += 1;
    for (const name of fields) this.field(name).arrivals += 1;
  }

  /** A request was answered with 429. */
  rateLimited(operationType: OperationType, fields: readonly string[]): void {
    this.stats.rateLimited[operationType] += 1;
    for (const name of fields) this.field(name).rateLimited += 1;
  }

  /** A request was refused by authentication (`unauthenticated`) or authorisation (`forbidden`). */
  refused(kind: 'unauthenticated' | 'forbidden'): void {
    this.stats[kind] += 1;
  }

  /** A root field's resolver ran. */
  execution(field: string): void {
    this.field(field).executions += 1;
  }

  /** A coded error was returned. */
  codedError(code: string): void {
    this.stats.codedErrors[code] = (this.stats.codedErrors[code] ?? 0) + 1;
  }

  /** A request was answered. */
  answered(entry: RequestLogEntry): void {
    this.entries.push(entry);
    if (this.entries.length > this.logSize) this.entries.splice(0, this.entries.length - this.logSize);
  }

  /** A deep copy of the counters. */
  snapshot(): SimulatorStats {
    return structuredClone(this.stats);
  }

  /** The most recent requests, oldest first. */
  log(): RequestLogEntry[] {
    return this.entries.map((entry) => ({ ...entry, fields: [...entry.fields] }));
  }

  /** Zeroes the counters and empties the log. */
  reset(): void {
    this.stats = emptyStats();
    this.entries = [];
  }
}

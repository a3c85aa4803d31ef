/** An API key of the simulator: one school, a set of scopes. */
export interface ApiKeyRecord {
  /** Stable id for logs and stats (never the secret). */
  id: string;
  /** The secret, `sk_live_...`, as sent in `X-Service-API-Key`. */
  key: string;
  /** The school the key belongs to (every operation acts within it). */
  schoolId: string;
  /** The key's scopes, e.g. `coupons:write`. */
  scopes: string[];
}

/** Every scope the spec names. */
export const ALL_SCOPES = [
  'courses:write',
  'students:write',
  'members:write',
  'coupons:write',
  'coupons:read',
  'students:read',
] as const;

/** The keys the simulator accepts, by secret. */
export class ApiKeyRegistry {
  private readonly byKey = new Map<string, ApiKeyRecord>();

  /** Registers a key; keys must start with `sk_live_`. */
  add(record: ApiKeyRecord): void {
    if (!record.key.startsWith('sk_live_')) {
      throw new Error('Failed to add API key: live secret keys start with sk_live_. Use a key such as sk_live_demo_1.');
    }
    if (this.byKey.has(record.key)) throw new Error('Failed to add API key: the key is already registered. Use another key.');
    this.byKey.set(record.key, record);
  }

  /** The key record for a presented secret, if any. */
  find(key: string): ApiKeyRecord | undefined {
    return this.byKey.get(key);
  }

  /** Every registered key. */
  all(): ApiKeyRecord[] {
    return [...this.byKey.values()];
  }
}

import { describe, expect, it } from 'vitest';
import { AdminClient, InvalidInputError } from '../../src/index.js';
import { adminEndpointOf } from '../../src/client/options/base-url.js';

const create = (baseUrl: string) => () => new AdminClient({ apiKey: 'sk_live_base_url_test_key_0123456789', baseUrl });

describe('baseUrl: the school\'s base URL; the client adds /admin/graphql itself', () => {
  it.each([
    ['http://127.0.0.1:4010/admin/graphql', 'http://127.0.0.1:4010'],
    ['http://127.0.0.1:4010/admin/graphql/', 'http://127.0.0.1:4010'],
    ['https://school.example/Admin/GraphQL', 'https://school.example'],
    ['https://gateway.example/school-7/admin/graphql', 'https://gateway.example/school-7'],
  ])('a baseUrl ending in /admin/graphql (%s) is refused with InvalidInputError naming baseUrl, saying to drop the path', (baseUrl, base) => {
    expect(create(baseUrl)).toThrow(InvalidInputError);
    try {
      create(baseUrl)();
    } catch (error) {
      expect(error).toMatchObject({ field: 'baseUrl', operation: 'AdminClient' });
      expect((error as Error).message).toBe(
        `Failed to create the AdminClient: baseUrl ends with /admin/graphql, the path the client adds itself; drop the path and pass ${base}.`,
      );
    }
  });

  it.each([
    ['https://school.example', 'https://school.example/admin/graphql'],
    ['https://school.example/', 'https://school.example/admin/graphql'],
    ['https://gateway.example/school-7', 'https://gateway.example/school-7/admin/graphql'],
    ['https://school.example/admin', 'https://school.example/admin/admin/graphql'],
    ['https://school.example/graphql', 'https://school.example/graphql/admin/graphql'],
  ])('%s posts to %s', (baseUrl, endpoint) => {
    expect(adminEndpointOf(baseUrl, false)).toEqual({ endpoint });
    expect(create(baseUrl)).not.toThrow();
  });
});

import { Agent, request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_API_KEY, DEMO_IDS, startMockServer, type MockServer } from '../../src/testing/index.js';
import { smallSchool } from './support/small-school.js';

const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(options: Parameters<typeof startMockServer>[0] = {}): Promise<MockServer> {
  const server = await startMockServer(options);
  servers.push(server);
  return server;
}

function post(url: string, key: string, query: string, agent?: Agent): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ query });
    const req = httpRequest(`${url}/admin/graphql`, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'x-service-api-key': key } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('startMockServer: the simulator over real HTTP on loopback', () => {
  it('listens on 127.0.0.1 on a free port by default and serves the demo school', async () => {
    const server = await start();
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    expect(server.port).toBeGreaterThan(0);
    expect(server.simulator.school().id).toBe(DEMO_IDS.schoolId);
    const answer = await fetch(`${server.url}/admin/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-Service-API-Key': DEMO_API_KEY },
      body: JSON.stringify({ query: `mutation { deleteConsultingService(id: "${DEMO_IDS.defaultModeServiceId}") { errors } }` }),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/application\/json/);
    expect((await answer.json()).errors[0].extensions.error.code).toBe('CONSULTING-004');
  });

  it('seed: "empty" starts without schools; a given simulator is served as it is', async () => {
    const empty = await start({ seed: 'empty' });
    expect(empty.simulator.schools()).toHaveLength(0);
    const { sim } = smallSchool();
    const given = await start({ simulator: sim });
    expect(given.simulator).toBe(sim);
  });

  it('answers exactly as simulator.handle() does, 429 headers included', async () => {
    const { sim, key } = smallSchool({ limits: { mutations: { limit: 1, windowMs: 60_000 } } });
    const server = await start({ simulator: sim });
    const query = 'mutation { cancelConsultingMeeting(id: "nope") { errors } }';
    const first = await post(server.url, key, query);
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body).errors[0].extensions.error.code).toBe('MEETING-001');
    const limited = await post(server.url, key, query);
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('60');
    expect(limited.headers['x-ratelimit-limit']).toBe('1');
  });

  it('handles many concurrent keep-alive connections', async () => {
    const { sim, key } = smallSchool({ limits: false });
    const server = await start({ simulator: sim });
    const agent = new Agent({ keepAlive: true, maxSockets: 50 });
    try {
      const answers = await Promise.all(Array.from({ length: 300 }, () => post(server.url, key, '{ __typename }', agent)));
      expect(answers.every((answer) => answer.status === 200)).toBe(true);
      expect(sim.stats().requests.queries).toBe(300);
    } finally {
      agent.destroy();
    }
  });

  it('close() ends open keep-alive sockets and stops listening', async () => {
    const server = await startMockServer({ seed: 'empty' });
    const agent = new Agent({ keepAlive: true });
    await post(server.url, 'sk_live_x', '{ __typename }', agent);
    await server.close();
    await expect(post(server.url, 'sk_live_x', '{ __typename }')).rejects.toThrow(/ECONNREFUSED/);
    agent.destroy();
  });
});

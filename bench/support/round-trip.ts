/**
 * The median of `samples` sequential `{ __typename }` round trips to the admin endpoint at `url`
 * (queries: they do not touch the mutation budget).
 */
export async function medianRoundTrip(url: string, samples = 7): Promise<number> {
  const times: number[] = [];
  for (let index = 0; index < samples; index += 1) {
    const started = performance.now();
    await fetch(`${url}/admin/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' });
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(samples / 2)] as number;
}

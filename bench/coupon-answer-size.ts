/**
 * What `updateCoupon` downloads for a restricted coupon with many grants: the body of the answer
 * as it comes off the wire (the simulator over loopback HTTP), by default (the coupon alone) and
 * with `{ includeGrants: true }` (the coupon and every grant), for 1,000, 20,000 and 100,000
 * grants. Deterministic (seeded ids), so every run prints the same figures. 1 MB = 1,000,000 bytes.
 *
 * Run: npm run bench:coupon-size
 */
import { AdminClient, InvalidResponseError } from '../src/index.js';
import { createSimulator, startMockServer } from '../src/testing/index.js';

const COUNTS = [1_000, 20_000, 100_000];

async function measure(grants: number): Promise<{ plain: number; withGrants: number; withGrantsError: string | undefined }> {
  const sim = createSimulator({ limits: false });
  const school = sim.addSchool({ name: 'Large school' });
  const apiKey = school.addApiKey();
  const couponId = school.addCoupon({ restricted: true, code: 'ALUMNI' }).id;
  for (const member of school.addMembers(grants)) school.addGrant({ couponId, userId: member.id });
  const server = await startMockServer({ simulator: sim });
  const sizes: number[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const response = await globalThis.fetch(input, init);
    const body = new Uint8Array(await response.arrayBuffer());
    sizes.push(body.byteLength);
    return new Response(body, { status: response.status, headers: response.headers });
  };
  try {
    const admin = new AdminClient({ apiKey, baseUrl: server.url, limits: false, fetch });
    await admin.updateCoupon(couponId, { active: false });
    const plain = sizes.at(-1) ?? 0;
    const error = await admin.updateCoupon(couponId, { active: true }, { includeGrants: true }).then(
      () => undefined,
      (caught: unknown) => (caught instanceof InvalidResponseError ? `InvalidResponseError ${caught.problem}` : String(caught)),
    );
    return { plain, withGrants: sizes.at(-1) ?? 0, withGrantsError: error };
  } finally {
    await server.close();
  }
}

const mb = (bytes: number): string => (bytes >= 100_000 ? `${(bytes / 1_000_000).toFixed(2)} MB` : `${bytes.toLocaleString('en-US')} B`);
console.log('updateCoupon(id, { active }) on a restricted coupon, body bytes on the wire (default maxResponseBytes: 16 MiB = 16.78 MB)');
console.log('| grants | default (no grants) | { includeGrants: true } | bytes per grant | includeGrants outcome |');
console.log('|---|---|---|---|---|');
for (const grants of COUNTS) {
  const { plain, withGrants, withGrantsError } = await measure(grants);
  console.log(`| ${grants.toLocaleString('en-US')} | ${mb(plain)} | ${mb(withGrants)} | ${((withGrants - plain) / grants).toFixed(0)} | ${withGrantsError ?? 'resolved'} |`);
}

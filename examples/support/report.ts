import { Temporal } from 'temporal-polyfill';

let stepNumber = 0;

/** Runs one step of an example, printing its title and a one-line outcome. */
export async function step<T>(title: string, body: () => Promise<{ value: T; line: string }>): Promise<T> {
  stepNumber += 1;
  console.log(`${String(stepNumber).padStart(2)}. ${title}`);
  const { value, line } = await body();
  console.log(`    -> ${line}`);
  return value;
}

/** The Monday-to-Sunday week after today in `timeZone`, as ISO dates. */
export function nextWeek(timeZone: string): { from: string; to: string } {
  const today = Temporal.Now.plainDateISO(timeZone);
  const monday = today.add({ days: 8 - today.dayOfWeek });
  return { from: monday.toString(), to: monday.add({ days: 6 }).toString() };
}

/** The closing summary of the demo. */
export function summary(requests?: Record<string, number>, rateLimited?: Record<string, number>, emails?: number): void {
  console.log('\nSummary');
  if (requests !== undefined && rateLimited !== undefined) {
    console.log(`  requests seen by the server: ${requests.mutations} mutations, ${requests.queries} queries`);
    console.log(`  429 answers: ${rateLimited.mutations} (the client paced itself under the budget)`);
  }
  if (emails !== undefined) console.log(`  emails the service would have sent (rating notifications): ${emails}`);
  console.log('  done.');
}

import type { IdGenerator } from './id-generator.js';

/** A meeting as the external video platform holds it. */
export interface PlatformMeeting {
  /** The platform's meeting id (the admin API's `hostingId`). */
  id: string;
  /** The school whose integration provisioned it. */
  schoolId: string;
  /** The licence email hosting it. */
  hostEmail: string;
  /** Its join address. */
  joinUrl: string;
  /** Start (Unix seconds). */
  startedAt: number;
  /** End (Unix seconds). */
  endedAt: number;
  /** Set when the platform-side meeting was deleted (the meeting was canceled). */
  deletedAt: number | null;
}

/** The platform refused or failed a call. */
export class VideoPlatformError extends Error {
  /** Always `'VideoPlatformError'`. */
  override name = 'VideoPlatformError';
}

/** What provisioning a meeting needs. */
export interface ProvisionRequest {
  schoolId: string;
  hostEmail: string;
  startedAt: number;
  endedAt: number;
}

/**
 * The external video platform, outside every school transaction: a meeting provisioned here stays
 * even when the admin API rolls its local row back, as a real external system would. Tests can
 * make the next provisioning calls fail.
 */
export class VideoPlatform {
  private readonly meetingsById = new Map<string, PlatformMeeting>();
  private failuresPending = 0;

  /** @internal The simulator owns the platform; reach it through the simulator. */
  constructor(private readonly ids: IdGenerator) {}

  /** Makes the next `times` provisioning calls fail (a platform outage). */
  failNextProvisioning(times = 1): void {
    this.failuresPending += times;
  }

  /**
   * Creates a platform meeting, or throws {@link VideoPlatformError} when a failure is pending.
   * @internal Resolvers provision through `provisionFor`.
   */
  provision(request: ProvisionRequest): PlatformMeeting {
    if (this.failuresPending > 0) {
      this.failuresPending -= 1;
      throw new VideoPlatformError('the video platform API answered 503 Service Unavailable');
    }
    const id = this.ids.sequential('vp');
    const meeting: PlatformMeeting = {
      id,
      joinUrl: `https://video.example/j/${id}`,
      deletedAt: null,
      ...request,
    };
    this.meetingsById.set(id, meeting);
    return meeting;
  }

  /**
   * Provisions the platform meeting of a `videoconf` meeting and writes its id and join URL onto
   * it (`hostingId`, `joinUrl`); throws {@link VideoPlatformError} when the platform fails.
   */
  provisionFor(
    schoolId: string,
    meeting: { hostEmail: string | null; startedAt: number; endedAt: number; hostingId: string | null; joinUrl: string | null },
  ): void {
    const external = this.provision({ schoolId, hostEmail: meeting.hostEmail ?? '', startedAt: meeting.startedAt, endedAt: meeting.endedAt });
    meeting.hostingId = external.id;
    meeting.joinUrl = external.joinUrl;
  }

  /** Deletes a platform meeting (when its consulting meeting is canceled). */
  delete(hostingId: string, atUnixSeconds: number): void {
    const meeting = this.meetingsById.get(hostingId);
    if (meeting && meeting.deletedAt === null) meeting.deletedAt = atUnixSeconds;
  }

  /** Changes the licence that hosts a platform meeting. */
  reassignHost(hostingId: string, hostEmail: string): void {
    const meeting = this.meetingsById.get(hostingId);
    if (meeting) meeting.hostEmail = hostEmail;
  }

  /** The platform meeting with this id, deleted ones included. */
  meeting(hostingId: string): PlatformMeeting | undefined {
    return this.meetingsById.get(hostingId);
  }

  /** Every platform meeting ever provisioned, deleted ones included. */
  meetings(): PlatformMeeting[] {
    return [...this.meetingsById.values()];
  }
}

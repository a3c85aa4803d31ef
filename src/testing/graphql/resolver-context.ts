import type { IdGenerator } from '../model/id-generator.js';
import type { SchoolModel } from '../model/school.js';
import type { VideoPlatform } from '../model/video-platform.js';

/** What every resolver of one request works with. */
export interface ResolverContext {
  /** The school the request's API key belongs to: the only school it can see. */
  school: SchoolModel;
  /** The request's time in Unix seconds (one value for the whole request). */
  now: number;
  ids: IdGenerator;
  videoPlatform: VideoPlatform;
}

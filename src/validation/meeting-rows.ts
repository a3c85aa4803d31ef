import type { MeetingRowInput } from '../client/types/types.js';
import { localCodedError, type LocalContext } from './local-errors.js';

/**
 * Rules of bulkCreateConsultingMeetings the client can check exactly: `atomic: true` with any
 * `videoconf` row (MEETING-010) and a `custom` row without `joinUrl` (MEETING-008).
 */
export function checkMeetingRows(context: LocalContext, rows: readonly MeetingRowInput[], atomic: boolean): void {
  if (atomic && rows.some((row) => row.hostingType === 'videoconf')) {
    throw localCodedError(context, 'MEETING-010');
  }
  rows.forEach((row, index) => {
    if (row.hostingType === 'custom' && (row.joinUrl === undefined || row.joinUrl === null || row.joinUrl === '')) {
      throw localCodedError(context, 'MEETING-008', { row: index });
    }
  });
}

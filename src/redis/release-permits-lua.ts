/**
 * Lua: `release_permits(answered, in_flight, background, interactive, list, now, window, clock)`
 * marks as answered the permits in `list` ('<id> <ms ago> <id> <ms ago> ...': each answered that
 * many ms before `now`, by the store's clock) and returns how many were in flight. Shared by the
 * release script and the acquire script, where a store's releases ride with its next permit
 * request (src/redis/pending-releases.ts).
 *
 * Each answer is dated when the response arrived, measured as a duration until the store sent it:
 * the script runs no earlier than that, so `now - ago` is never before the true answer on Redis's
 * clock, and the permit counts at least until a window after it (never shorter than the rule asks).
 */
export const RELEASE_PERMITS = `
local function release_permits(answered, in_flight, background, interactive, list, now, window, clock_override)
  local released = 0
  for id, ago in string.gmatch(list, '(%S+) (%d+)') do
    local at = now - tonumber(ago)
    local function answer()
      redis.call('ZADD', answered, at, id)
      extend_ttl(answered, window, clock_override)
      for _, lane in ipairs({background, interactive}) do
        if redis.call('ZSCORE', lane, id) then
          redis.call('ZADD', lane, at, id)
          extend_ttl(lane, window, clock_override)
        end
      end
    end
    if redis.call('ZREM', in_flight, id) == 1 then
      answer()
      released = released + 1
    else
      -- A response after the lease ended: the request may have reached the server up to then, so
      -- it counts until a window after this answer, later than the lease's end would say.
      local lease_end = redis.call('ZSCORE', answered, id)
      if lease_end and tonumber(lease_end) < at then answer() end
    end
  end
  return released
end
`;

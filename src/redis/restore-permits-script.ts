import { LuaScript } from './lua-script.js';
import { PRELUDE } from './permit-scripts.js';

/**
 * KEYS: answered, in-flight, background, generation, recovery. ARGV: clock, the generation the
 * permits are restored into, windowMs, the store's field in the recovery hash ('held:<store id>'),
 * the permits the store held when Redis lost them, then four per permit: id, 'a' (answered) or 'i'
 * (in flight), ms from now until it stops counting (answered) or its lease ends (in flight), '1'
 * (background) or '0'.
 * Writes the permits back with those times (never shortening one Redis already holds) and, while
 * the bucket recovers, adds the store's held permits to the room of the recovery (once per store),
 * in one step (the room never includes permits Redis does not count yet). Replies 0 without writing when the
 * bucket's generation is not the given one (Redis lost its data again), else 1.
 */
export const restorePermitsScript = new LuaScript(`${PRELUDE}
local answered, in_flight, background, generation_key, recovery_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
if redis.call('GET', generation_key) ~= ARGV[2] then return 0 end
local now = clock(ARGV[1])
local window = tonumber(ARGV[3])
local longest = 0
local function raise(key, until_ms, id)
  local current = redis.call('ZSCORE', key, id)
  if not current or tonumber(current) < until_ms then redis.call('ZADD', key, until_ms, id) end
end
for i = 6, #ARGV, 4 do
  local id, is_answered, until_ms = ARGV[i], ARGV[i + 1] == 'a', now + tonumber(ARGV[i + 2])
  -- Answered permits are scored by their answer (a window before their count ends), in-flight ones
  -- by their lease end; a background permit by its latest possible answer.
  local counted_until, score = until_ms, until_ms
  if is_answered then
    score = until_ms - window
    raise(answered, score, id)
  else
    raise(in_flight, until_ms, id)
    counted_until = until_ms + window
  end
  if ARGV[i + 3] == '1' then raise(background, score, id) end
  longest = math.max(longest, counted_until - now)
end
extend_ttl(answered, longest, ARGV[1])
extend_ttl(in_flight, longest, ARGV[1])
extend_ttl(background, longest, ARGV[1])
-- Once per store and generation: a restore sent again (after a dropped connection) adds nothing.
if redis.call('HEXISTS', recovery_key, 'until') == 1 then redis.call('HSETNX', recovery_key, ARGV[4], ARGV[5]) end
return 1
`);

import { LuaScript } from './lua-script.js';

/*
 * The Redis side of the permit rule. Each script runs atomically, so every process sharing a
 * bucket sees one order of events, and reads one clock: Redis TIME (unless a test passes its own
 * clock as the last ARGV; an empty string means TIME).
 *
 * Per bucket:
 *   KEYS answered   sorted set: permit id -> epoch ms when it stops counting (answer + window)
 *   KEYS in-flight  sorted set: permit id -> epoch ms when its lease ends
 *   KEYS paused     string: epoch ms when the pause after a 429 ends
 * Every write extends the key's PEXPIRE to cover what it holds, so an idle bucket vanishes. Key
 * expiry runs on Redis's real time; with a test clock (virtual time) it gets ten minutes more, so a
 * slow machine cannot expire permits that the virtual clock still counts.
 */
const PRELUDE = `
local function clock(override)
  if override ~= '' then return tonumber(override) end
  local time = redis.call('TIME')
  return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
local function extend_ttl(key, ms, override)
  if override ~= '' then ms = ms + 600000 end
  if redis.call('PTTL', key) < ms then redis.call('PEXPIRE', key, ms) end
end
`;

/**
 * KEYS: answered, in-flight, paused. ARGV: limit, windowMs, leaseMs, new permit id, clock.
 * Replies `{1, permitId}` when granted, else `{0, retryAfterMs, paused (1|0)}`.
 */
export const acquireScript = new LuaScript(`${PRELUDE}
local answered, in_flight, paused = KEYS[1], KEYS[2], KEYS[3]
local limit, window, lease = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local now = clock(ARGV[5])

-- A lease that ended unreleased counts as answered at its end.
local ended = redis.call('ZRANGEBYSCORE', in_flight, '-inf', now, 'WITHSCORES')
for i = 1, #ended, 2 do
  redis.call('ZADD', answered, tonumber(ended[i + 1]) + window, ended[i])
end
if #ended > 0 then
  redis.call('ZREMRANGEBYSCORE', in_flight, '-inf', now)
  extend_ttl(answered, window, ARGV[5])
end
redis.call('ZREMRANGEBYSCORE', answered, '-inf', now)

local paused_until = tonumber(redis.call('GET', paused) or '0')
if paused_until > now then return {0, paused_until - now, 1} end

local answered_count = redis.call('ZCARD', answered)
local counted = answered_count + redis.call('ZCARD', in_flight)
if counted < limit then
  redis.call('ZADD', in_flight, now + lease, ARGV[4])
  extend_ttl(in_flight, lease + window, ARGV[5])
  return {1, ARGV[4]}
end

-- Refused: ask again when enough answered permits stop counting or, when they cannot free enough,
-- when the earliest lease ends.
local needed = counted - limit + 1
local next_change
if answered_count >= needed then
  next_change = redis.call('ZRANGE', answered, needed - 1, needed - 1, 'WITHSCORES')[2]
else
  next_change = redis.call('ZRANGE', in_flight, 0, 0, 'WITHSCORES')[2]
end
return {0, tonumber(next_change) - now, 0}
`);

/**
 * KEYS: answered, in-flight. ARGV: permit id, windowMs, clock.
 * Replies 1 when an in-flight permit was released, else 0 (unknown, or its lease had ended).
 */
export const releaseScript = new LuaScript(`${PRELUDE}
local answered, in_flight = KEYS[1], KEYS[2]
local window = tonumber(ARGV[2])
local counted_until = clock(ARGV[3]) + window

if redis.call('ZREM', in_flight, ARGV[1]) == 1 then
  redis.call('ZADD', answered, counted_until, ARGV[1])
  extend_ttl(answered, window, ARGV[3])
  return 1
end
-- A response after the lease ended: the request may have reached the server up to now, so it
-- counts until a window after this answer, later than the lease's end would say.
local lease_counted_until = redis.call('ZSCORE', answered, ARGV[1])
if lease_counted_until and tonumber(lease_counted_until) < counted_until then
  redis.call('ZADD', answered, counted_until, ARGV[1])
  extend_ttl(answered, window, ARGV[3])
end
return 0
`);

/**
 * KEYS: paused. ARGV: pause duration in ms (from the caller's clock), clock.
 * Never shortens a longer pause. Replies 1.
 */
export const pauseScript = new LuaScript(`${PRELUDE}
local now = clock(ARGV[2])
local until_ms = now + tonumber(ARGV[1])
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local px = until_ms - now
if ARGV[2] ~= '' then px = px + 600000 end
if until_ms > current then redis.call('SET', KEYS[1], until_ms, 'PX', px) end
return 1
`);

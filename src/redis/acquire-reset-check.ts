/*
 * The Redis side of store resets (see src/redis/store-reset-guard.ts).
 *
 * Per bucket:
 *   KEYS generation  string: '<random id>:<created epoch ms>', created by the acquire script when
 *                    missing; kept 2 x (window + lease) after every permit request, so it outlives
 *                    every other key of the bucket
 *   KEYS recovery    hash, while the bucket recovers from a loss of its data: 'until' -> epoch ms
 *                    when it ends (the new generation's creation + window + lease: nothing lost
 *                    counts longer); 'held:<store id>' -> the permits that store held when Redis
 *                    lost them (written with its restored permits, see restore-permits-script.ts)
 */

/**
 * The reset check of the acquire script, run before the permit rule. Its KEYS (generation,
 * recovery) and ARGV (expected generation or '', a new generation id, window + lease, clock) are
 * the LAST ones of the script's lists, so the rule's own lists may grow in front of them. Reads
 * `now`, `window`, `answered` and `in_flight` from the script's header.
 *
 * Refuses (reply `{0, retryAfterMs, 0, limit, window, generation, recoveryMs}`):
 * - a request whose expected generation is not the bucket's: Redis lost the data the store counted
 *   on. The bucket recovers from now on; the store restores its permits and asks again.
 * - while the bucket recovers, a request when Redis counts as many permits as the stores that saw
 *   the loss held together when it happened: the lost permits of every process still count at the
 *   server, and no more than that room was free.
 * Otherwise defines `with_generation(reply)`, which appends the generation and the milliseconds
 * of recovery left (0: none) to the rule's reply, and `recovery_room`, the permits the rule may
 * grant at once (the room left while the bucket recovers, else `math.huge`).
 */
export const ACQUIRE_RESET_CHECK = `
-- Store resets (src/redis/acquire-reset-check.ts): the last 2 KEYS and the last 4 ARGV.
local reset_key_base, reset_arg_base = #KEYS - 2, #ARGV - 4
local generation_key, recovery_key = KEYS[reset_key_base + 1], KEYS[reset_key_base + 2]
local expected_generation, new_generation = ARGV[reset_arg_base + 1], ARGV[reset_arg_base + 2]
local reset_span, reset_clock = tonumber(ARGV[reset_arg_base + 3]), ARGV[reset_arg_base + 4]
local generation = redis.call('GET', generation_key)
if not generation then
  generation = new_generation .. ':' .. now
  redis.call('SET', generation_key, generation)
end
extend_ttl(generation_key, 2 * reset_span, reset_clock)
local recovering_until = tonumber(redis.call('HGET', recovery_key, 'until') or '0')
if expected_generation ~= '' and expected_generation ~= generation then
  -- Nothing granted before the loss counts after the new generation's creation + window + lease.
  local created = tonumber(string.match(generation, ':(%d+)$'))
  if created + reset_span > recovering_until then
    recovering_until = created + reset_span
    redis.call('HSET', recovery_key, 'until', recovering_until)
    extend_ttl(recovery_key, recovering_until - now, reset_clock)
  end
  return {0, 0, 0, tonumber(ARGV[1]), window, generation, math.max(0, recovering_until - now)}
end
local recovery_ms = math.max(0, recovering_until - now)
-- The permits the recovery still has room for (the rule grants no more at once).
local recovery_room = math.huge
if recovery_ms > 0 then
  local held = 0
  local fields = redis.call('HGETALL', recovery_key)
  for i = 1, #fields, 2 do
    if fields[i] ~= 'until' then held = held + tonumber(fields[i + 1]) end
  end
  -- Counting now: in flight, or a lease that ended or an answer that came less than a window ago
  -- (answered permits are scored by their answer).
  local from = '(' .. (now - window)
  recovery_room = held - redis.call('ZCOUNT', in_flight, from, '+inf') - redis.call('ZCOUNT', answered, from, '+inf')
  if recovery_room <= 0 then
    local retry_at = math.min(now + window, recovering_until)
    local next_answer = redis.call('ZRANGEBYSCORE', answered, from, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)[2]
    if next_answer then retry_at = math.min(retry_at, tonumber(next_answer) + window) end
    local next_lease = redis.call('ZRANGEBYSCORE', in_flight, from, now, 'WITHSCORES', 'LIMIT', 0, 1)[2]
    if next_lease then retry_at = math.min(retry_at, tonumber(next_lease) + window) end
    return {0, retry_at - now, 0, tonumber(ARGV[1]), window, generation, recovery_ms}
  end
end
local function with_generation(reply)
  reply[#reply + 1] = generation
  reply[#reply + 1] = recovery_ms
  return reply
end
-- End of store resets.
`;

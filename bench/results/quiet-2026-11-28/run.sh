# The quiet-machine runs of 2026-11-28 (third session), one at a time, nothing else running.
cd /work/main
R=bench/results/quiet-2026-11-28
run() { name=$1; shift; echo "=== $name: $* ($(date -u +%T), $(uptime | sed 's/.*load/load/'))"; "$@"; echo "=== $name exit $? ($(date -u +%T), $(uptime | sed 's/.*load/load/'))"; }
while pgrep -f "cli-grant-coupon" > /dev/null; do sleep 5; done
run qos-batch-empty npx tsx bench/qos.ts batch --starts empty --json $R/qos-batch-empty.json
run self-hosted-batch npx tsx bench/self-hosted.ts --servers 60/10,30/5 --interactive-reserve 0 --json $R/self-hosted-batch.json
run pacing npx tsx bench/pacing.ts
run tenants-burst-20 npx tsx bench/tenants.ts --legs memory --loads burst --keys 100,1000 --budgets 20 --json $R/tenants-burst-20.json
run tenants-burst-200 npx tsx bench/tenants.ts --legs memory --loads burst --keys 100 --budgets 200 --json $R/tenants-burst-200.json
run tenants-light npx tsx bench/tenants.ts --legs memory --loads light --keys 100,1000 --budgets 20 --json $R/tenants-light.json
run tenants-redis-paced npx tsx bench/tenants-redis.ts --legs ioredis,node-redis --keys 100 --budgets 20 --loads idle,gentle --before '' --json $R/tenants-redis-paced.json
run tenants-redis-burst npx tsx bench/tenants-redis.ts --legs ioredis,node-redis --keys 100,1000 --budgets 20 --loads burst --before '' --json $R/tenants-redis-burst.json
echo "=== all done $(date -u +%T)"

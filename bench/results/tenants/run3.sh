cd /work/wt/tenants
R=bench/results/tenants
while pgrep -f "bash bench/results/tenants/run[2]?.sh" > /dev/null; do sleep 5; done
run() { name=$1; shift; echo "=== $name: $* ($(date -u +%T), $(uptime | sed 's/.*load/load/'))"; npx tsx bench/tenants.ts --json $R/$name.json "$@"; echo "=== $name exit $? ($(date -u +%T))"; }
# The ioredis leg again, round trips counted at the store's connection (bench/tenants/legs/ioredis.ts).
run ioredis-2 --legs ioredis --loads burst --keys 100 --budgets 20

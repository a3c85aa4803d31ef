# After run.sh (whose runs from 22:15 to 23:08 shared the machine with a runaway shell loop that held one of the 2 cores):
# the batch start-empty cells at 200 and 1,000 and the CLI case again with both cores, then the default mode at 200 and 1,000.
cd /work/main
R=bench/results/quiet-2026-11-28
run() { name=$1; shift; echo "=== $name: $* ($(date -u +%T), $(uptime | sed 's/.*load/load/'))"; "$@"; echo "=== $name exit $? ($(date -u +%T), $(uptime | sed 's/.*load/load/'))"; }
while pgrep -f "quiet-2026-11-28/run.sh" > /dev/null; do sleep 5; done
run qos-batch-empty-2cores npx tsx bench/qos.ts batch --starts empty --budgets 200,1000 --json $R/qos-batch-empty-2cores.json
run cli-grant-2cores npx tsx bench/cli-grant-coupon.ts --runs 3 --json $R/cli-grant-2cores.json
run qos-default-200-1000 npx tsx bench/qos.ts matrix --budgets 200,1000 --topologies one --shapes single --json $R/qos-default-200-1000.json
echo "=== all done $(date -u +%T)"

cd /work/wt/tenants
R=bench/results/tenants
while pgrep -f "bash bench/results/tenants/run.sh" > /dev/null; do sleep 5; done
run() { name=$1; shift; echo "=== $name: $* ($(date -u +%T), $(uptime | sed 's/.*load/load/'))"; npx tsx bench/tenants.ts --json $R/$name.json "$@"; echo "=== $name exit $? ($(date -u +%T))"; }
# The burst cells again with alternating throughput rounds (bench/tenants/cell-worker.ts), this build and c07ece8.
run alt-now --legs memory --loads burst --keys 100,1000 --budgets 20
run alt-now-200 --legs memory --loads burst --keys 100 --budgets 200
run alt-before --legs memory --loads burst --keys 1000 --budgets 20 --before c07ece8 --before-only

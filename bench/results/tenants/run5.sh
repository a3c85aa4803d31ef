cd /work/wt/tenants
R=bench/results/tenants
run() { name=$1; shift; echo "=== $name: $* ($(date -u +%T), $(uptime | sed 's/.*load/load/'))"; npx tsx bench/tenants.ts --json $R/$name.json "$@"; echo "=== $name exit $? ($(date -u +%T))"; }
# After CountedPermits grows by push and drops by splice (a smaller bundle): the burst cells again.
run push-1000x20 --legs memory --loads burst --keys 1000 --budgets 20
run push-1000x200 --legs memory --loads burst --keys 1000 --budgets 200

cd /work/wt/tenants
R=bench/results/tenants
while pgrep -f "bash bench/results/tenants/run[23]?.sh" > /dev/null; do sleep 5; done
run() { name=$1; shift; echo "=== $name: $* ($(date -u +%T), $(uptime | sed 's/.*load/load/'))"; npx tsx bench/tenants.ts --json $R/$name.json "$@"; echo "=== $name exit $? ($(date -u +%T))"; }
# Both builds one after the other in one run, for the calls-per-second comparison.
run side-by-side --legs memory --loads burst --keys 1000 --budgets 20 --before c07ece8

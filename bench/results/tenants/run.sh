cd /work/wt/tenants
R=bench/results/tenants
run() { name=$1; shift; echo "=== $name: $* ($(date -u +%T), $(uptime | sed 's/.*load/load/'))"; npx tsx bench/tenants.ts --json $R/$name.json "$@"; echo "=== $name exit $? ($(date -u +%T))"; }
run now-burst-20 --legs memory --loads burst --keys 10,100,1000 --budgets 20
run now-burst-200 --legs memory --loads burst --keys 10,100 --budgets 200
run now-light --legs memory --loads light --keys 10,100,1000 --budgets 20
run now-light-200 --legs memory --loads light --keys 10,100 --budgets 200
run before-burst --legs memory --loads burst --keys 1000 --budgets 20 --before c07ece8 --before-only
run before-burst-200 --legs memory --loads burst --keys 100 --budgets 200 --before c07ece8 --before-only
run ioredis --legs ioredis --loads burst,light --keys 100 --budgets 20
run now-burst-1000x200 --legs memory --loads burst --keys 1000 --budgets 200

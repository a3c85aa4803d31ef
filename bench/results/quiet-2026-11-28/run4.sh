# After run3.sh: the memory-store cells run.sh took while the runaway loop held a core, again with both cores.
cd /work/main
R=bench/results/quiet-2026-11-28
run() { name=$1; shift; echo "=== $name: $* ($(date -u +%T), $(uptime | sed 's/.*load/load/'))"; "$@"; echo "=== $name exit $? ($(date -u +%T), $(uptime | sed 's/.*load/load/'))"; }
while pgrep -f "quiet-2026-11-28/run3.sh" > /dev/null; do sleep 5; done
run tenants-2cores npx tsx bench/tenants.ts --legs memory --loads burst,light --keys 1000 --budgets 20 --json $R/tenants-2cores.json
run tenants-light-100-2cores npx tsx bench/tenants.ts --legs memory --loads light --keys 100 --budgets 20,200 --json $R/tenants-light-100-2cores.json
run tenants-burst-200-2cores npx tsx bench/tenants.ts --legs memory --loads burst --keys 100 --budgets 200 --json $R/tenants-burst-200-2cores.json
echo "=== all done $(date -u +%T)"

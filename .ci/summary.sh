#!/usr/bin/env bash
# Usage: .ci/summary.sh OUTPUT_FILE STATUS
# The summary and exit decision of .ci/run, apart so it can be tested on fixture outputs
# (libs/testkit/test/ci-summary.test.ts). OUTPUT_FILE holds what `npm ci && npm test` printed,
# STATUS its exit code. Prints one line `tests: N passed, N failed, N skipped, N flaky` and exits
# non-zero when the run failed: a non-zero STATUS, a summary with failures or flaky tests (passed
# only on a retry), or no summary at all.
set -euo pipefail
output=$1
status=$2

# vitest prints the plain `tests:` line itself (libs/testkit/src/summary-reporter.ts). When
# npm test stops earlier (install, typecheck, build or lint failed) there is none: say so plainly.
summary=$(sed 's/\x1b\[[0-9;]*m//g' "$output" | grep -E '^tests: [0-9]+ passed, [0-9]+ failed' | tail -n 1 || true)
if [ -n "$summary" ]; then
  echo "$summary"
else
  echo "tests: 0 passed, 1 failed, 0 skipped, 0 flaky (npm ci or npm test stopped before the tests ran; see above)"
  [ "$status" -eq 0 ] && status=1
fi
if [ "$status" -eq 0 ] && ! grep -qE ', 0 failed' <<<"$summary"; then status=1; fi
if [ "$status" -eq 0 ] && grep -qE ', [1-9][0-9]* flaky' <<<"$summary"; then status=1; fi
exit "$status"

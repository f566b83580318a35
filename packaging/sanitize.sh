#!/usr/bin/env bash
# Runs the Chakra reader, bad-input, executor and golden suites under AddressSanitizer +
# UndefinedBehaviorSanitizer (the build is packaging/sanitized-build.sh's, in build-san/, shared
# with the fuzzers): broken traces must be refused with a message, never read out of bounds,
# overflow or leak. Exits non-zero on any finding.
#   packaging/sanitize.sh [gtest filter]   (default: trace reader, bad inputs, executor, golden vectors)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
filter=${1:-'*BadInput*:*Chakra*:Executor.*:Golden.*:BadConfig*:Symmetry.*'}
"$root/packaging/sanitized-build.sh" engine_sanitized_tests
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
"$root/build-san/tests/engine/engine_sanitized_tests" --gtest_filter="$filter"

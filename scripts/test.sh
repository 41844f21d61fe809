#!/usr/bin/env bash
# The README's test command: installs what is missing, builds everything, runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# The end-to-end tests drive the built rdcc, rda-report and runtime library.
cargo build --workspace --all-targets
cargo test --workspace --no-fail-fast

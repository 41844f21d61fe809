#!/usr/bin/env bash
# The README's test command: installs what is missing, builds everything, runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# The end-to-end tests drive the built rdcc, rda-report and runtime library.
# `--features rda-report/gpu,rdtools-e2e/gpu`: also the GPU engine (hprda-gpu), tested on lavapipe.
cargo build --workspace --all-targets --features rda-report/gpu,rdtools-e2e/gpu
cargo test --workspace --no-fail-fast --features rda-report/gpu,rdtools-e2e/gpu

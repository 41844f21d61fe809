#!/usr/bin/env bash
# The README's demo: installs what is missing, builds rdtools, compiles an OpenMP program from
# test-programs/ with rdcc, runs it on 4 threads, and prints a report of its trace.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo build --release -p rdcc -p rda-report -p rdruntime --features rda-report/gpu,rda-report/mpi
BIN="$PWD/target/release"
bash scripts/aliases.sh "$BIN"   # rdclang, rdc++, rdclang++, rdflang beside rdcc
OUT="$PWD/target/demo"
mkdir -p "$OUT"

echo "== compile test-programs/basic/omp_reduction.c with rdcc"
"$BIN/rdcc" -fopenmp -O2 -DN=200000 test-programs/basic/omp_reduction.c -o "$OUT/omp_reduction"
echo "== run it on 4 threads"
RDTRACE="$OUT/omp_reduction.rdtrace" OMP_NUM_THREADS=4 "$OUT/omp_reduction"
echo "== rda-report info"
"$BIN/rda-report" info "$OUT/omp_reduction.rdtrace"
echo
echo "== rda-report histogram (64-byte lines, per thread)"
"$BIN/rda-report" histogram "$OUT/omp_reduction.rdtrace" --per-thread --plot "$OUT/histogram.svg"
echo
echo "== the same per-thread histograms by PARDA over 2 MPI ranks (each rank reads only its own chunks)"
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun --oversubscribe -np 2 \
    "$BIN/rda-report" histogram "$OUT/omp_reduction.rdtrace" --per-thread --engine parda-mpi --chunk 65536
echo
echo "== rda-report live: the same analysis while the program runs, with no trace file"
OMP_NUM_THREADS=4 "$BIN/rda-report" live --histogram -- "$OUT/omp_reduction"
echo
echo "== rda-report html: one self-contained page (histograms, miss-ratio curve, hot lines, paths)"
"$BIN/rda-report" html "$OUT/omp_reduction.rdtrace" -o "$OUT/report.html" --source-dir test-programs/basic
echo
echo "plot written to $OUT/histogram.svg, report to $OUT/report.html"

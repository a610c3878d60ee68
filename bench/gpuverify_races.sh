#!/bin/bash
# GPUVerify's labelled CUDA suite through cuda-missing-syncthreads.
# usage: bench/gpuverify_races.sh TESTSUITE_CUDA_DIR CUDA_TIDY > results.txt
# TESTSUITE_CUDA_DIR: testsuite/CUDA of mc-imperial/gpuverify (fetch it;
# do not commit it). Each kernel's first line is its label ('//pass' or
# '//xfail:...'); GPUVerify's annotation builtins are stubbed by a
# force-included no-op header. One line per kernel: path|label|exit|count.
set -u
SUITE=$1; BIN=$2
SHIM=$(mktemp --suffix=.h)
cat > "$SHIM" <<'H'
#pragma once
#define __requires(...)
#define __ensures(...)
#define __global_invariant(...)
#define __function_wide_invariant(...)
#define __invariant(...) 1
#define __assert(...) ((void)0)
#define __assume(...) ((void)0)
#define __axiom(...)
#define __implies(a, b) (!(a) || (b))
#define __enabled() 1
#define __write(...) 0
#define __read(...) 0
#define __write_offset_bytes(...) 0
#define __read_offset_bytes(...) 0
#define __write_implies(...) 1
#define __read_implies(...) 1
#define __no_read(...) 1
#define __no_write(...) 1
#define __requires_fresh_array(...)
#define __uniform_bool(...) 1
#define __uniform_int(...) 1
#define __distinct_int(...) 1
#define __all(...) 1
#define __other_int(x) (x)
#define __return_val_int() 0
#define __return_val_ptr() 0
#define __return_val_funptr(...) 0
#define __ptr_offset_bytes(...) 0
H
cd "$SUITE"
for f in $(find . -name kernel.cu | sort); do
  label=$(head -1 "$f" | tr 'A-Z' 'a-z')
  res=$(timeout 120 "$BIN" "$f" --checks='-*,cuda-missing-syncthreads' -- -include "$SHIM" 2>&1)
  rc=$?
  n=$(printf '%s\n' "$res" | grep -c "warning:.*cuda-missing-syncthreads")
  echo "$f|$label|$rc|$n"
  printf '%s\n' "$res" | grep "warning:.*cuda-missing-syncthreads" | sed 's|^|  |'
done
rm -f "$SHIM"

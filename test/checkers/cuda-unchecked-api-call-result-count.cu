// A query that writes how many results it found (CUDA_RESULT_COUNT rows:
// cublasLtMatmulAlgoGetHeuristic, cublasLtMatmulAlgoGetIds) writes no count
// when it fails. Code that sets the count to a constant first and branches
// on it after the call (on every path) sees a failure as "no result": its
// status is examined through the count (llm.c's matmul.cuh). A count that
// is not set first, not tested, tested on some paths only, or written by
// something else tells nothing, and the dropped status stays a finding.
// RUN: %check_cuda_tidy_plugin %s cuda-unchecked-api-call %t
// RUN: %check_cuda_tidy_driver %s cuda-unchecked-api-call %t

#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cublasLt.h>

struct Gemm {
  cublasLtHandle_t lt;
  cublasLtMatmulDesc_t op;
  cublasLtMatrixLayout_t a, b, c, d;
  cublasLtMatmulPreference_t pref;
};

void useAlgo(const cublasLtMatmulAlgo_t &algo);
void setCount(int *n);

// ---- Negatives: the count tells a failure apart ----------------------------

// The shape of llm.c: the count starts at 0 and no algorithm stops the run.
void pickOrExit(const Gemm &g) {
  int found = 0;
  cublasLtMatmulHeuristicResult_t best;
  cublasLtMatmulAlgoGetHeuristic(g.lt, g.op, g.a, g.b, g.c, g.d, g.pref, 1,
                                 &best, &found);
  if (found == 0) {
    std::fprintf(stderr, "no cuBLASLt algorithm for this shape\n");
    std::exit(EXIT_FAILURE);
  }
  useAlgo(best.algo);
}

// Negated, and returning instead of exiting.
bool pickOrFail(const Gemm &g, cublasLtMatmulAlgo_t *out) {
  int returned = 0;
  cublasLtMatmulHeuristicResult_t results[4];
  cublasLtMatmulAlgoGetHeuristic(g.lt, g.op, g.a, g.b, g.c, g.d, g.pref, 4,
                                 results, &returned);
  if (!returned)
    return false;
  *out = results[0].algo;
  return true;
}

// The count bounds a loop over the results: a failure runs it zero times.
void tryAll(const Gemm &g) {
  int n = 0;
  cublasLtMatmulHeuristicResult_t results[8];
  cublasLtMatmulAlgoGetHeuristic(g.lt, g.op, g.a, g.b, g.c, g.d, g.pref, 8,
                                 results, &n);
  for (int i = 0; i < n; ++i)
    useAlgo(results[i].algo);
}

// An assert on the count.
void pickAsserted(const Gemm &g) {
  int found = 0;
  cublasLtMatmulHeuristicResult_t best;
  cublasLtMatmulAlgoGetHeuristic(g.lt, g.op, g.a, g.b, g.c, g.d, g.pref, 1,
                                 &best, &found);
  assert(found > 0);
  useAlgo(best.algo);
}

// The ids query has a count too.
int countIds(cublasLtHandle_t lt) {
  int ids[16];
  int got = 0;
  cublasLtMatmulAlgoGetIds(lt, CUBLAS_COMPUTE_32F, CUDA_R_32F, CUDA_R_32F,
                           CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, 16, ids, &got);
  if (got <= 0)
    return -1;
  return ids[0];
}

// The status checked as well: silent, as always.
bool pickChecked(const Gemm &g, cublasLtMatmulHeuristicResult_t *best) {
  int found = 0;
  if (cublasLtMatmulAlgoGetHeuristic(g.lt, g.op, g.a, g.b, g.c, g.d, g.pref, 1,
                                     best, &found) != CUBLAS_STATUS_SUCCESS)
    return false;
  return found > 0;
}

// ---- Positives: the count tells nothing --------------------------------------

// Not set before the call: a failure leaves whatever the stack held.
void uninitialised(const Gemm &g) {
  int found;
  cublasLtMatmulHeuristicResult_t best;
  cublasLtMatmulAlgoGetHeuristic(g.lt, g.op, g.a, g.b, g.c, g.d, g.pref, 1,
                                 &best, &found);
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: the error code returned by 'cublasLtMatmulAlgoGetHeuristic' is not checked [cuda-unchecked-api-call]
  if (found == 0)
    std::exit(EXIT_FAILURE);
  useAlgo(best.algo);
}

// Set, but never tested: the first result is used whatever happened.
void untested(const Gemm &g) {
  int found = 0;
  cublasLtMatmulHeuristicResult_t best;
  cublasLtMatmulAlgoGetHeuristic(g.lt, g.op, g.a, g.b, g.c, g.d, g.pref, 1,
                                 &best, &found);
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: the error code returned by 'cublasLtMatmulAlgoGetHeuristic' is not checked [cuda-unchecked-api-call]
  std::printf("%d algorithm(s)\n", found);
  useAlgo(best.algo);
}

// Tested on one path only.
void testedSometimes(const Gemm &g, bool verbose) {
  int found = 0;
  cublasLtMatmulHeuristicResult_t best;
  cublasLtMatmulAlgoGetHeuristic(g.lt, g.op, g.a, g.b, g.c, g.d, g.pref, 1,
                                 &best, &found);
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: the error code returned by 'cublasLtMatmulAlgoGetHeuristic' is not checked [cuda-unchecked-api-call]
  if (verbose) {
    if (found == 0)
      std::fprintf(stderr, "none\n");
  }
  useAlgo(best.algo);
}

// Written again before the test: the test no longer reads what the call left.
void overwritten(const Gemm &g) {
  int found = 0;
  cublasLtMatmulHeuristicResult_t best;
  cublasLtMatmulAlgoGetHeuristic(g.lt, g.op, g.a, g.b, g.c, g.d, g.pref, 1,
                                 &best, &found);
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: the error code returned by 'cublasLtMatmulAlgoGetHeuristic' is not checked [cuda-unchecked-api-call]
  found = 1;
  if (found == 0)
    std::exit(EXIT_FAILURE);
  useAlgo(best.algo);
}

// Handed to another function that may set it.
void escapes(const Gemm &g) {
  int found = 0;
  setCount(&found);
  cublasLtMatmulHeuristicResult_t best;
  cublasLtMatmulAlgoGetHeuristic(g.lt, g.op, g.a, g.b, g.c, g.d, g.pref, 1,
                                 &best, &found);
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: the error code returned by 'cublasLtMatmulAlgoGetHeuristic' is not checked [cuda-unchecked-api-call]
  if (found == 0)
    std::exit(EXIT_FAILURE);
}

// A call with no count of its own: the rule is the row's, not the shape's.
void noCountRow(cublasLtHandle_t lt, cublasLtMatmulDesc_t op) {
  int n = 0;
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &n, sizeof n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the error code returned by 'cublasLtMatmulDescSetAttribute' is not checked [cuda-unchecked-api-call]
  if (n == 0)
    return;
}

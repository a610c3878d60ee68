//===- StockModules.cpp - Every clang-tidy 22 module, linked in -----------===//
//
// The driver is clang-tidy plus the cuda-* checks: it links the module
// archives that libclang-22-dev ships (CMakeLists.txt, CUDA_TIDY_STOCK_MODULES).
// A module registers itself from a static initialiser in its archive, which
// the linker keeps only when something refers to it: each module exports an
// anchor variable, and this file reads every one. The plugin does not
// compile this file: clang-tidy-22, which loads it, has the modules already.
//
//===----------------------------------------------------------------------===//

namespace clang::tidy {
#define CUDA_TIDY_ANCHOR(Module)                                               \
  extern volatile int Module##ModuleAnchorSource;                              \
  [[maybe_unused]] static int Module##ModuleAnchorDestination =                \
      Module##ModuleAnchorSource;
// One CUDA_TIDY_ANCHOR(Name) per archive that CMake found.
#include "StockModules.inc"
#undef CUDA_TIDY_ANCHOR
} // namespace clang::tidy


# The clang-tidy 22 modules that the driver links (docs/driver.md, "Stock
# checks"). libclang-22-dev ships one static archive per module; each is
# linked by path (its CMake target would pull in the static clang libraries
# that libclang-cpp.so already provides), and driver/StockModules.cpp reads
# each module's anchor so that the linker keeps its registration. A module
# whose archive is missing is skipped with a warning. The plugin links none:
# clang-tidy-22 has them.
set(CUDA_TIDY_STOCK_MODULE_NAMES
  Abseil Altera Android Boost Bugprone CERT Concurrency CppCoreGuidelines
  Custom Darwin Fuchsia Google HICPP LinuxKernel LLVM LLVMLibc Misc Modernize
  MPI ObjC OpenMP Performance Portability Readability Zircon)

# Sets OUT_ARCHIVES to the archives to link and writes the anchor list
# ANCHOR_FILE for driver/StockModules.cpp.
function(cuda_tidy_find_stock_modules ANCHOR_FILE OUT_ARCHIVES)
  set(archives "")
  set(anchors "")
  set(missing "")
  foreach(name IN LISTS CUDA_TIDY_STOCK_MODULE_NAMES)
    set(lib "${LLVM_LIBRARY_DIR}/libclangTidy${name}Module.a")
    if(CUDA_TIDY_STOCK_MODULES AND EXISTS "${lib}")
      list(APPEND archives "${lib}")
      string(APPEND anchors "CUDA_TIDY_ANCHOR(${name})\n")
    elseif(CUDA_TIDY_STOCK_MODULES)
      list(APPEND missing ${name})
    endif()
  endforeach()
  if(missing)
    message(WARNING "cuda-tidy: clang-tidy modules missing from ${LLVM_LIBRARY_DIR}, "
      "their checks are not in the driver: ${missing}")
  endif()
  # Libraries some modules use that libclang-cpp.so lacks: clang-query's
  # (custom module) and include-cleaner's (misc-include-cleaner).
  if("${LLVM_LIBRARY_DIR}/libclangTidyCustomModule.a" IN_LIST archives)
    list(APPEND archives "${LLVM_LIBRARY_DIR}/libclangQuery.a")
  endif()
  if("${LLVM_LIBRARY_DIR}/libclangTidyMiscModule.a" IN_LIST archives)
    list(APPEND archives "${LLVM_LIBRARY_DIR}/libclangIncludeCleaner.a")
  endif()
  string(REGEX MATCHALL "CUDA_TIDY_ANCHOR" found "${anchors}")
  list(LENGTH found count)
  message(STATUS "cuda-tidy: linking ${count} clang-tidy modules into the driver")
  file(CONFIGURE OUTPUT "${ANCHOR_FILE}" CONTENT "${anchors}")
  set(${OUT_ARCHIVES} "${archives}" PARENT_SCOPE)
endfunction()

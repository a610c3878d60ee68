# CudaTidy.cmake: lint a CMake target's CUDA sources with cuda-tidy.
#
#   find_package(CudaTidy CONFIG REQUIRED)   # or include(<path>/CudaTidy.cmake)
#   cuda_tidy_add_lint(my_target [ARGS <cuda-tidy options>...])
#
# adds the target `my_target_cuda_tidy`, which runs cuda-tidy on the CUDA
# sources of my_target (.cu files and sources whose LANGUAGE is CUDA) with
# the compile commands CMake writes (EXPORT_COMPILE_COMMANDS is switched on
# for the target), and the aggregate target `cuda_tidy_lint` that runs all of
# them. A lint target fails when cuda-tidy finds something (exit code 1) or
# cannot analyse a file (2). Findings in the project's own headers are shown
# (--header-filter is the source folder unless ARGS gives one).
#
# CMake's <LANG>_CLANG_TIDY properties do not exist for CUDA, hence this.
# CUDA_TIDY_EXECUTABLE says which cuda-tidy to run; CudaTidyConfig.cmake sets
# it to the installed one.

include_guard(GLOBAL)

if(NOT CUDA_TIDY_EXECUTABLE)
  find_program(CUDA_TIDY_EXECUTABLE cuda-tidy)
endif()

function(cuda_tidy_add_lint target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "ARGS")
  if(NOT TARGET "${target}")
    message(FATAL_ERROR "cuda_tidy_add_lint: '${target}' is not a target")
  endif()
  if(NOT CUDA_TIDY_EXECUTABLE)
    message(FATAL_ERROR "cuda_tidy_add_lint: cuda-tidy not found; set "
      "CUDA_TIDY_EXECUTABLE or use find_package(CudaTidy)")
  endif()
  get_target_property(sources "${target}" SOURCES)
  get_target_property(source_dir "${target}" SOURCE_DIR)
  set(cuda_sources "")
  foreach(src IN LISTS sources)
    if(src MATCHES "^\\$<")
      continue() # Generator expressions are not resolved here.
    endif()
    get_filename_component(abs "${src}" ABSOLUTE BASE_DIR "${source_dir}")
    get_source_file_property(lang "${abs}" TARGET_DIRECTORY "${target}" LANGUAGE)
    if(abs MATCHES "\\.cu$" OR lang STREQUAL "CUDA")
      list(APPEND cuda_sources "${abs}")
    endif()
  endforeach()
  if(NOT cuda_sources)
    message(WARNING "cuda_tidy_add_lint: '${target}' has no CUDA sources")
  endif()
  set_target_properties("${target}" PROPERTIES EXPORT_COMPILE_COMMANDS ON)

  set(args ${arg_ARGS})
  if(NOT args MATCHES "header-filter")
    list(PREPEND args "--header-filter=^${CMAKE_SOURCE_DIR}/")
  endif()
  add_custom_target("${target}_cuda_tidy"
    COMMAND "${CUDA_TIDY_EXECUTABLE}" -p "${CMAKE_BINARY_DIR}" ${args}
            ${cuda_sources}
    WORKING_DIRECTORY "${CMAKE_BINARY_DIR}"
    COMMENT "cuda-tidy: ${target}"
    VERBATIM USES_TERMINAL)
  if(NOT TARGET cuda_tidy_lint)
    add_custom_target(cuda_tidy_lint)
  endif()
  add_dependencies(cuda_tidy_lint "${target}_cuda_tidy")
endfunction()

# Sourced by scripts/test and scripts/demo: installs what is missing,
# configures and builds cuda-tidy into build/. Safe to run again.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="$ROOT/build"
LLVM_ROOT=/usr/lib/llvm-22
PACKAGES=(clang-22 clang-tidy-22 libclang-22-dev llvm-22-dev llvm-22-tools libclang-rt-22-dev
          cmake ninja-build python3 make git bear pre-commit python3-yaml
          python3-jsonschema
          # test/clangd/lsp-session.test drives cuda-clangd from Neovim's
          # LSP client; bench/clangd_latency.py compares with stock clangd.
          neovim clangd-22)

missing_packages() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
      || missing+=("$p")
  done
  echo "${missing[@]:-}"
}

install_packages() {
  local missing
  missing="$(missing_packages)"
  [ -z "$missing" ] && return 0
  echo "setup: installing $missing"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo=sudo; else
      echo "setup: need root (or sudo) to install: $missing" >&2; exit 1
    fi
  fi
  $sudo apt-get update -qq
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
}

build_cuda_tidy() {
  if [ ! -f "$BUILD/build.ninja" ]; then
    # ccache, where installed, makes a second clone's build a matter of links.
    local launcher=()
    command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    cmake -S "$ROOT" -B "$BUILD" -G Ninja \
      -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CXX_COMPILER="$LLVM_ROOT/bin/clang++" "${launcher[@]}" >/dev/null
  fi
  # The precompiled headers (CUDA_TIDY_PCH) are cached only with these.
  export CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}"
  cmake --build "$BUILD"
}

# PyTorch's C++ headers (the torch wheel's torch/include, cached under
# build/torch) for the extension tests; skipped with CUDA_TIDY_SETUP_NO_TORCH=1.
fetch_torch_headers() {
  [ "${CUDA_TIDY_SETUP_NO_TORCH:-0}" = 1 ] && return 0
  python3 "$ROOT/scripts/fetch-torch-headers" "$BUILD"
}

install_packages
# scripts/test-sanitizers builds its own tree only.
[ "${CUDA_TIDY_SETUP_NO_BUILD:-0}" = 1 ] || { fetch_torch_headers && build_cuda_tidy; }

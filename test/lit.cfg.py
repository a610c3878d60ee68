# -*- Python -*-
# The cuda-tidy lit suite. CMake generates lit.site.cfg.py, which sets the
# paths below and loads this file.
import os
import shutil
import subprocess

import lit.formats

config.name = "cuda-tidy"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".cu", ".cpp", ".test"]
config.excludes = ["Inputs", "bench"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.cuda_tidy_obj_root, "test")

config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", os.environ.get("PATH", ""))])
for var in ("CUDA_PATH", "CUDA_HOME", "HOME", "TMPDIR",
            # scripts/test-sanitizers: how sanitizer reports end a process.
            "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

# The flags a plugin user passes after "--": the driver prints the ones it
# adds itself, so that both front ends analyse the same code the same way.
cuda_flags = subprocess.run([config.cuda_tidy, "--print-cuda-flags"],
                            capture_output=True, text=True)
if cuda_flags.returncode != 0:
    lit_config.fatal("cuda-tidy --print-cuda-flags failed: " + cuda_flags.stderr)
cuda_flags = cuda_flags.stdout.strip()

# An older clang-tidy, to test that the plugin refuses it clearly.
if shutil.which("clang-tidy-14"):
    config.available_features.add("clang-tidy-14")
# In a sanitized build (scripts/test-sanitizers), clang-tidy runs through a
# wrapper that preloads the ASan runtime the plugin needs.
if getattr(config, "cuda_tidy_sanitized", 0):
    config.available_features.add("sanitized")
    config.substitutions.append(("%clang-tidy-14", "env CUDA_TIDY_CLANG_TIDY=clang-tidy-14 " + config.clang_tidy))
else:
    config.substitutions.append(("%clang-tidy-14", "clang-tidy-14"))

check_script = os.path.join(config.test_source_root, "check_cuda_tidy.py")
common = "python3 %s --clang-tidy=%s --plugin=%s --cuda-tidy=%s --cuda-flags='%s'" % (
    check_script, config.clang_tidy, config.cuda_tidy_plugin, config.cuda_tidy, cuda_flags)

config.substitutions.append(("%check_cuda_tidy_plugin", common + " --tool=plugin"))
config.substitutions.append(("%check_no_crash", "python3 %s --clang-tidy=%s --plugin=%s --cuda-tidy=%s --cuda-flags='%s'" % (
    os.path.join(config.test_source_root, "check_no_crash.py"), config.clang_tidy,
    config.cuda_tidy_plugin, config.cuda_tidy, cuda_flags)))
config.substitutions.append(("%check_cuda_tidy_driver", common + " --tool=driver"))
config.substitutions.append(("%cuda-tidy", config.cuda_tidy))

# SARIF logs are validated against the vendored 2.1.0 schema with the
# jsonschema package: use a Python that has it (pyenv's or Debian's).
def python_with_jsonschema():
    import sys
    candidates = [shutil.which("python3", path=config.environment["PATH"]),
                  "/usr/bin/python3", sys.executable]
    for py in candidates:
        if py and subprocess.call([py, "-c", "import jsonschema"],
                                  stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL) == 0:
            return py
    return "python3"  # check_sarif.py then fails, naming the package


config.substitutions.append(("%check_sarif", "%s %s" % (
    python_with_jsonschema(),
    os.path.join(config.test_source_root, "driver", "Inputs", "check_sarif.py"))))
config.substitutions.append(("%clang-tidy", config.clang_tidy))
config.substitutions.append(("%plugin", config.cuda_tidy_plugin))
config.substitutions.append(("%cuda_flags", cuda_flags))
config.substitutions.append(("%src_root", config.cuda_tidy_src_root))
# The nvcc build of samples/ that scripts/test makes, or "none" without nvcc.
config.substitutions.append(("%samples_build",
                             lit_config.params.get("samples_build", "none")))

# Tools that the driver tests on real projects need: each test that uses one
# says REQUIRES: <tool>, and is reported UNSUPPORTED where it is missing.
import shutil
for tool in ("nvcc", "cmake", "ninja", "make", "bear", "pre-commit", "git", "script"):
    found = shutil.which(tool, path=config.environment["PATH"])
    if tool == "nvcc" and not found and os.path.exists("/usr/local/cuda/bin/nvcc"):
        found = "/usr/local/cuda/bin/nvcc"
    if found:
        config.available_features.add(tool)
        config.substitutions.append(("%" + tool + "_path", found))

# cuda-tidy caches results in ~/.cache/cuda-tidy by default; tests run
# without it unless they give --cache-dir (test/driver/cache.test).
config.environment["CUDA_TIDY_CACHE_DIR"] = "off"
# The precompiled CUDA prefix, though, is on, shared by the whole suite: every
# test then also checks that the prefix changes no finding
# (test/driver/prefix-cache.test tests the prefix itself).
config.environment["CUDA_TIDY_PREFIX_DIR"] = os.path.join(
    config.cuda_tidy_obj_root, "test", "prefix-cache")

# The build folder, for the test of `cmake --install` (driver/install.test).
config.substitutions.append(("%obj_root", config.cuda_tidy_obj_root))

# The suite's Python: a virtual environment with no packages, made once in
# the build folder, so that no test sees what happens to be installed for the
# machine's python3 (CuPy, torch, PyCUDA). A test that needs a package says
# so: PYTHONPATH with a stand-in (test/python/Inputs/fake*), --cupy-include,
# or %with_torch below. Tests of the discovery of python3 itself unset
# CUDA_TIDY_PYTHON.
bare_python_dir = os.path.join(config.cuda_tidy_obj_root, "test", "bare-python")
bare_python = os.path.join(bare_python_dir, "bin", "python3")
if not os.path.exists(bare_python):
    host_python = shutil.which("python3", path=config.environment["PATH"])
    made = host_python and subprocess.call(
        [host_python, "-m", "venv", "--without-pip", "--clear", bare_python_dir],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) == 0
    if not made or not os.path.exists(bare_python):
        lit_config.fatal("cannot make the suite's Python: python3 -m venv "
                         "--without-pip %s failed" % bare_python_dir)
config.environment["CUDA_TIDY_PYTHON"] = bare_python
config.substitutions.append(("%bare_python", bare_python))

# PyTorch's real headers, fetched by scripts/setup.sh (scripts/fetch-torch-headers)
# into build/torch/site-packages: the extension tests (test/torch) find torch
# there through Python, as users' installs are found.
torch_site = os.path.join(config.cuda_tidy_obj_root, "torch", "site-packages")
if os.path.exists(os.path.join(torch_site, "torch", "include", "torch", "extension.h")):
    config.available_features.add("torch")
config.substitutions.append(("%torch_site", torch_site))
config.substitutions.append(("%with_torch",
                             "env PYTHONPATH=%s CUDA_TIDY_PYTHON=%s" % (torch_site, bare_python)))
# The plugin path (clang-tidy --load) gets no torch discovery: the flags the
# driver adds for a torch file (docs/torch.md), given by hand as a plugin
# user gives them.
import sysconfig
torch_plugin_flags = [
    "-isystem", os.path.join(torch_site, "torch", "include"),
    "-isystem", os.path.join(torch_site, "torch", "include", "torch", "csrc",
                             "api", "include"),
    "-isystem", sysconfig.get_paths()["include"],
    "-D__CUDA_NO_HALF_OPERATORS__", "-D__CUDA_NO_HALF_CONVERSIONS__",
    "-D__CUDA_NO_BFLOAT16_CONVERSIONS__", "-D__CUDA_NO_HALF2_OPERATORS__",
    "-DTORCH_API_INCLUDE_EXTENSION_H", "-DTORCH_EXTENSION_NAME=plugin_test",
    "-std=c++17"]
config.substitutions.append(("%torch_plugin_args", " ".join(
    "--extra-arg=" + f for f in torch_plugin_flags)))
# cuda-clangd (test/clangd), when the build has it (CUDA_TIDY_CLANGD);
# Neovim's LSP client drives the editing session test.
if getattr(config, "cuda_clangd", ""):
    config.available_features.add("cuda-clangd")
    config.substitutions.append(("%cuda-clangd", config.cuda_clangd))
if shutil.which("nvim", path=config.environment["PATH"]):
    config.available_features.add("nvim")

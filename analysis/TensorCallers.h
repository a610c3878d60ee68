//===- TensorCallers.h - Tensor facts of callers in other files -*- C++ -*-===//
//
// A PyTorch extension usually checks its tensors in a bindings .cpp
// (CHECK_INPUT, .contiguous(), the dtype dispatch) and takes their raw
// pointers in a .cu, in a launcher function it declares. The tensor
// analysis of one translation unit sees only one side. This store is the
// project's summary: for each function called with tensor arguments from a
// translation unit that does not define it, and for each tensor parameter
// and property (contiguous, on a GPU, of one dtype), what each caller
// passes: a tensor from Python with nothing guaranteeing the property
// (FromPython, or KnownCpu for the device), a guaranteed one, or one of
// unknown origin. The translation unit that defines the function reads it:
// the property is guaranteed only when every recorded caller guarantees
// it; a caller that passes an unchecked tensor from Python is a finding
// there (docs/torch.md, "Across files").
//
// The driver fills it with --tensor-callers (the files that bind functions
// to Python are analysed first) and keeps it in a file between runs.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TENSORCALLERS_H
#define CUDA_TIDY_TENSORCALLERS_H

#include "clang/AST/Decl.h"
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <tuple>

namespace clang::tidy::cuda {

/// What the callers in other files pass for one parameter and property.
struct ExternalTensorArgument {
  /// A caller passes a tensor from Python with nothing guaranteeing the
  /// property (or a CPU tensor, for the device): where (record()).
  std::string UncheckedCall;
  /// That caller's Python parameter the tensor comes from ("" if unknown).
  std::string UncheckedOrigin;
  /// Every recorded caller guarantees the property.
  bool AllGuaranteed = false;
};

class TensorCallers {
public:
  /// The process's store; inactive (records and answers nothing) until
  /// activate() is called.
  static TensorCallers &get();

  void activate() { Active = true; }
  bool active() const { return Active; }
  /// Whether record() keeps what it is given: the driver records while it
  /// analyses the binding files only, so that the other files' results do
  /// not depend on the order in which they run.
  void setRecording(bool On) { Recording = On; }
  bool recording() const { return Active && Recording; }
  /// While staging, record() keeps what it is given apart, where lookup()
  /// does not see it, until commitStaged(): the host files that a binding
  /// calls into (mmcv's per-op dispatch .cpp) record what they pass on to
  /// the launchers, and each reads only what the binding files recorded,
  /// whatever the order in which they run.
  void setStaging(bool On) { Staging = On; }
  void commitStaged();

  /// The key of a function across translation units: its qualified name
  /// and parameter types.
  static std::string keyOf(const FunctionDecl &FD);

  enum class Passed { FromPython, Guaranteed, Unknown };

  /// One caller's argument. \p Call is where: "call in file:line", or
  /// "binding in file:line" for a function bound to Python there;
  /// \p Origin, for FromPython, the caller's Python parameter it comes from.
  void record(const std::string &Function, unsigned Param, unsigned Property,
              Passed What, const std::string &Call,
              const std::string &Origin = "");

  std::optional<ExternalTensorArgument>
  lookup(const std::string &Function, unsigned Param, unsigned Property) const;

  /// The store as JSON lines, and back; "" or what is wrong.
  std::string load(const std::string &Path);
  std::string save(const std::string &Path) const;

private:
  using Key = std::tuple<std::string, unsigned, unsigned>;
  struct Caller {
    Passed What;
    std::string Call, Origin;
    bool operator<(const Caller &O) const {
      return std::tie(What, Call, Origin) < std::tie(O.What, O.Call, O.Origin);
    }
  };
  mutable std::mutex Lock;
  std::map<Key, std::set<Caller>> Callers, Staged;
  bool Active = false;
  bool Recording = true;
  bool Staging = false;
};

} // namespace clang::tidy::cuda

#endif

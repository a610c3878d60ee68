//===- TensorCallers.cpp --------------------------------------------------===//

#include "TensorCallers.h"
#include "clang/AST/ASTContext.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

namespace clang::tidy::cuda {

TensorCallers &TensorCallers::get() {
  static TensorCallers Store;
  return Store;
}

std::string TensorCallers::keyOf(const FunctionDecl &FD) {
  std::string Key = FD.getQualifiedNameAsString() + "(";
  PrintingPolicy Policy(FD.getASTContext().getLangOpts());
  Policy.SuppressTagKeyword = true;
  for (unsigned I = 0; I < FD.getNumParams(); ++I) {
    if (I)
      Key += ",";
    Key += FD.getParamDecl(I)
               ->getType()
               .getCanonicalType()
               .getUnqualifiedType()
               .getAsString(Policy);
  }
  return Key + ")";
}

void TensorCallers::record(const std::string &Function, unsigned Param,
                           unsigned Property, Passed What,
                           const std::string &Call, const std::string &Origin) {
  if (!recording())
    return;
  std::lock_guard<std::mutex> G(Lock);
  (Staging ? Staged : Callers)[{Function, Param, Property}].insert(
      {What, Call, Origin});
}

void TensorCallers::commitStaged() {
  std::lock_guard<std::mutex> G(Lock);
  for (auto &[K, Cs] : Staged)
    Callers[K].insert(Cs.begin(), Cs.end());
  Staged.clear();
}

std::optional<ExternalTensorArgument>
TensorCallers::lookup(const std::string &Function, unsigned Param,
                      unsigned Property) const {
  if (!Active)
    return std::nullopt;
  std::lock_guard<std::mutex> G(Lock);
  auto It = Callers.find({Function, Param, Property});
  if (It == Callers.end() || It->second.empty())
    return std::nullopt;
  ExternalTensorArgument A;
  A.AllGuaranteed = true;
  for (const Caller &C : It->second) {
    if (C.What == Passed::FromPython && A.UncheckedCall.empty()) {
      A.UncheckedCall = C.Call;
      A.UncheckedOrigin = C.Origin;
    }
    if (C.What != Passed::Guaranteed)
      A.AllGuaranteed = false;
  }
  return A;
}

static const char *const PassedNames[] = {"python", "guaranteed", "unknown"};

std::string TensorCallers::load(const std::string &Path) {
  auto Text = llvm::MemoryBuffer::getFile(Path);
  if (!Text)
    return "cannot read '" + Path + "': " + Text.getError().message();
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  (*Text)->getBuffer().split(Lines, '\n', -1, false);
  unsigned LineNo = 0;
  for (llvm::StringRef Line : Lines) {
    ++LineNo;
    llvm::Expected<llvm::json::Value> V = llvm::json::parse(Line);
    const llvm::json::Object *O = V ? V->getAsObject() : nullptr;
    std::optional<llvm::StringRef> F, Passed, Call, Origin;
    std::optional<int64_t> Param, Property;
    if (O) {
      F = O->getString("function");
      Passed = O->getString("passed");
      Call = O->getString("call");
      Origin = O->getString("python");
      Param = O->getInteger("param");
      Property = O->getInteger("property");
    }
    if (!V)
      llvm::consumeError(V.takeError());
    int Kind = -1;
    for (int K = 0; K < 3 && Passed; ++K)
      if (*Passed == PassedNames[K])
        Kind = K;
    if (!F || !Call || !Param || !Property || Kind < 0 || *Param < 0 ||
        *Property < 0)
      return "'" + Path + "' line " + std::to_string(LineNo) +
             ": not a tensor-caller record";
    std::lock_guard<std::mutex> G(Lock);
    Callers[{F->str(), unsigned(*Param), unsigned(*Property)}].insert(
        {TensorCallers::Passed(Kind), Call->str(),
         Origin ? Origin->str() : std::string()});
  }
  return "";
}

std::string TensorCallers::save(const std::string &Path) const {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  if (EC)
    return "cannot write '" + Path + "': " + EC.message();
  std::lock_guard<std::mutex> G(Lock);
  for (const auto &[K, Set] : Callers)
    for (const Caller &C : Set) {
      llvm::json::Object O{{"function", std::get<0>(K)},
                           {"param", int64_t(std::get<1>(K))},
                           {"property", int64_t(std::get<2>(K))},
                           {"passed", PassedNames[int(C.What)]},
                           {"call", C.Call},
                           {"python", C.Origin}};
      OS << llvm::json::Value(std::move(O)) << "\n";
    }
  return "";
}

} // namespace clang::tidy::cuda

//===- KernelArgumentsCheck.cpp -------------------------------------------===//

#include "KernelArgumentsCheck.h"
#include "CudaApiModel.h"
#include "PythonLaunches.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include <map>

namespace clang::tidy::cuda {

using Kind = CudaApiModel::PythonValueKind;
using Value = CudaApiModel::PythonValue;

KernelArgumentsCheck::KernelArgumentsCheck(StringRef Name,
                                           ClangTidyContext *Context)
    : CudaFunctionCheck(Name, Context,
                        {FunctionScope::All, CheckLanguages::Cuda,
                         /*NeedsWholeBody=*/false,
                         /*AnalysesTemplatePatterns=*/false,
                         /*ReadsCodeWithErrors=*/true, ErrorGate::Operands}) {}

namespace {

/// The text after \p Prefix of \p D's annotation that starts with it.
std::optional<StringRef> annotation(const Decl &D, StringRef Prefix) {
  for (const auto *A : D.specific_attrs<AnnotateAttr>())
    if (A->getAnnotation().starts_with(Prefix))
      return A->getAnnotation().drop_front(Prefix.size());
  return std::nullopt;
}

/// How a kernel parameter of type \p T reads its bytes; none when the
/// check does not know (structs, templates, bf16).
std::optional<Value> valueOf(QualType T, const ASTContext &Ctx) {
  T = T.getCanonicalType().getUnqualifiedType();
  if (T->isDependentType() || T->isIncompleteType())
    return std::nullopt;
  if (T->isPointerType())
    return Value{Kind::Pointer, 8};
  unsigned Bytes = Ctx.getTypeSize(T) / 8;
  if (T->isBooleanType())
    return Value{Kind::Bool, Bytes};
  if (T->isFloatingType())
    return Value{Kind::Float, Bytes};
  if (T->isEnumeralType())
    return std::nullopt;
  if (T->isSignedIntegerType())
    return Value{Kind::Signed, Bytes};
  if (T->isUnsignedIntegerType())
    return Value{Kind::Unsigned, Bytes};
  if (const auto *RD = T->getAsCXXRecordDecl())
    if (RD->getName() == "__half")
      return Value{Kind::Float, 2};
  return std::nullopt;
}

bool sameValue(Value A, Value B) {
  // Signed and unsigned integers of one size carry the same bits.
  auto Int = [](Kind K) { return K == Kind::Signed || K == Kind::Unsigned; };
  return A.Bytes == B.Bytes && (A.Kind == B.Kind || (Int(A.Kind) && Int(B.Kind)));
}

/// The dtype that matches \p V, as numpy and CuPy name it.
std::string dtypeName(Value V) {
  switch (V.Kind) {
  case Kind::Bool:
    return "bool_";
  case Kind::Signed:
    return "int" + std::to_string(V.Bytes * 8);
  case Kind::Unsigned:
    return "uint" + std::to_string(V.Bytes * 8);
  case Kind::Float:
    return "float" + std::to_string(V.Bytes * 8);
  case Kind::Complex:
    return "complex" + std::to_string(V.Bytes * 8);
  case Kind::Pointer:
    return "uintp";
  }
  return "";
}

/// The module scalars are made with in a fix: cp for CuPy, numpy for
/// PyCUDA.
StringRef scalarModule(StringRef Library) {
  return Library == "cupy" ? "cp" : "numpy";
}

std::string describe(const ParmVarDecl &P) {
  std::string Name = P.getName().empty() ? "unnamed" : P.getName().str();
  return "'" + Name + "' of type '" + P.getType().getAsString() + "'";
}

/// Whether the library finds \p FD by its unmangled name: extern "C" as
/// written (the reader marks it, PyCUDA's wrapper included).
bool isExternC(const FunctionDecl &FD) {
  if (FD.isExternC())
    return true;
  for (const FunctionDecl *R : FD.redecls()) {
    if (annotation(*R, "cuda-tidy-python-extern-c"))
      return true;
    for (const DeclContext *DC = R->getDeclContext(); DC; DC = DC->getParent())
      if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
        if (NS->getName() == "__ct_extern_c")
          return true;
  }
  return false;
}

} // namespace

bool KernelArgumentsCheck::mayReportIn(const FunctionDecl &FD,
                                       ASTContext &) {
  // Only the Python reader's synthetic functions carry these annotations.
  return annotation(FD, "cuda-tidy-python-launch|") ||
         annotation(FD, "cuda-tidy-python-lookup|");
}

void KernelArgumentsCheck::checkFunction(const FunctionDecl &FD,
                                         const FunctionCfg &, ASTContext &Ctx) {
  if (std::optional<StringRef> Spec =
          annotation(FD, "cuda-tidy-python-launch|"))
    checkLaunch(FD, *Spec, Ctx);
  else if (std::optional<StringRef> Spec =
               annotation(FD, "cuda-tidy-python-lookup|"))
    checkLookup(FD, *Spec, Ctx);
}

void KernelArgumentsCheck::checkLookup(const FunctionDecl &Lookup,
                                       StringRef Spec, ASTContext &Ctx) {
  // library|namespace|name|name_expressions (0 none, 1 given, 2 unknown)|
  // wrapped in extern "C" by the library (PyCUDA without no_extern_c)
  SmallVector<StringRef, 5> Parts;
  Spec.split(Parts, '|');
  if (Parts.size() != 5 || Parts[3] == "2")
    return;
  StringRef Library = Parts[0], Name = Parts[2];
  const NamespaceDecl *Module = nullptr;
  for (const NamedDecl *D :
       Ctx.getTranslationUnitDecl()->lookup(&Ctx.Idents.get(Parts[1])))
    if ((Module = dyn_cast<NamespaceDecl>(D)))
      break;
  if (!Module)
    return;
  std::vector<const FunctionDecl *> Found;
  auto Collect = [&](const DeclContext *DC) {
    for (const NamedDecl *D : DC->lookup(&Ctx.Idents.get(Name))) {
      if (const auto *FD = dyn_cast<FunctionDecl>(D))
        Found.push_back(FD);
      else if (const auto *FT = dyn_cast<FunctionTemplateDecl>(D))
        Found.push_back(FT->getTemplatedDecl());
    }
  };
  Collect(Module);
  for (const Decl *D : Module->decls())
    if (const auto *Inner = dyn_cast<NamespaceDecl>(D))
      if (Inner->getName() == "__ct_extern_c")
        Collect(Inner);
  bool NameExpressions = Parts[3] == "1";
  StringRef Who = Library == "cupy" ? "CuPy" : "PyCUDA";
  if (Found.empty()) {
    diag(Lookup.getLocation(),
         "kernel '%0' is not defined in the source given to the module; %1 "
         "fails to find it when the kernel is first used")
        << Name << Who;
    return;
  }
  if (NameExpressions || Parts[4] == "1")
    return;
  if (llvm::any_of(Found, [](const FunctionDecl *FD) { return isExternC(*FD); }))
    return;
  const FunctionDecl *FD = Found.front();
  if (Library == "cupy")
    diag(Lookup.getLocation(),
         "kernel '%0' is not extern \"C\": its name is mangled, and CuPy "
         "does not find it by '%0'; declare it extern \"C\", or pass "
         "name_expressions=['%0'] to the RawModule")
        << Name;
  else
    diag(Lookup.getLocation(),
         "kernel '%0' is not extern \"C\" (the module has no_extern_c=True): "
         "its name is mangled, and PyCUDA does not find it by '%0'; declare "
         "it extern \"C\"")
        << Name;
  diag(FD->getLocation(), "kernel '%0' declared here", DiagnosticIDs::Note)
      << Name;
}

void KernelArgumentsCheck::checkLaunch(const FunctionDecl &Launch,
                                       StringRef Spec, ASTContext &Ctx) {
  // library[|prepare format]
  auto [Library, Format] = Spec.split('|');
  bool Prepared = Library == "pycuda-prepared";
  StringRef Lib = Prepared ? StringRef("pycuda") : Library;
  const FunctionDecl *Kernel = pythonLaunchedKernel(Launch);
  if (!Kernel)
    return;
  if (const FunctionDecl *Def = Kernel->getDefinition())
    Kernel = Def;

  std::vector<std::pair<const ParmVarDecl *, StringRef>> Args;
  std::map<unsigned, std::pair<const ParmVarDecl *, StringRef>> Origins;
  bool ArgsKnown = true;
  for (const ParmVarDecl *P : Launch.parameters()) {
    if (std::optional<StringRef> Origin =
            annotation(*P, "cuda-tidy-python-argfrom|")) {
      auto [Index, Function] = Origin->split('|');
      unsigned I = 0;
      if (!Index.getAsInteger(10, I))
        Origins[I] = {P, Function};
    }
    if (annotation(*P, "cuda-tidy-python-args-unknown"))
      ArgsKnown = false;
    if (annotation(*P, "cuda-tidy-python-grid-notuple"))
      diag(P->getLocation(),
           "the grid of this launch of '%0' is not a tuple; CuPy raises "
           "TypeError: write it as a tuple, '(blocks,)'")
          << Kernel->getName();
    for (StringRef What : {"grid", "block"})
      if (annotation(*P, ("cuda-tidy-python-" + What + "-float").str()))
        diag(P->getLocation(),
             "this %0 dimension of the launch of '%1' is a float (true "
             "division '/'); %2 raises TypeError: divide with '//', or "
             "round up with '(n + b - 1) // b'")
            << What << Kernel->getName()
            << (Library.starts_with("pycuda") ? "PyCUDA" : "CuPy");
    if (annotation(*P, "cuda-tidy-python-block-swapped"))
      diag(P->getLocation(),
           "the block of this launch of '%0' is a count of blocks and the "
           "grid a block size: grid and block are passed in swapped order, "
           "and the block exceeds 1024 threads once the data does (%1)")
          << Kernel->getName()
          << (Library.starts_with("pycuda")
                  ? "'block=' is the threads of one block"
                  : "CuPy takes the grid first");
    if (annotation(*P, "cuda-tidy-python-block-datasize"))
      diag(P->getLocation(),
           "the block of this launch of '%0' grows with the data's size and "
           "exceeds the limit of 1024 threads per block once the data does "
           "(the launch fails); cap it, 'min(n, 256)', and let the grid "
           "cover the rest")
          << Kernel->getName();
    if (annotation(*P, "cuda-tidy-python-block-notuple"))
      diag(P->getLocation(),
           "the block of this launch of '%0' is not a tuple; CuPy raises "
           "TypeError: write it as a tuple, '(threads,)'")
          << Kernel->getName();
    if (std::optional<StringRef> Fact =
            annotation(*P, "cuda-tidy-python-arg|"))
      Args.emplace_back(P, Fact->split('|').second);
  }
  if (!ArgsKnown || Kernel->isVariadic())
    return;
  if (Kernel->isTemplated()) {
    // Only what holds for every instantiation: a Python scalar given to a
    // parameter whose type is a template parameter (a type hole of the
    // source, '{ctype} a').
    if (!Prepared && Args.size() == Kernel->getNumParams())
      for (unsigned I = 0; I < Args.size(); ++I)
        checkScalarForTypeParameter(*Args[I].first, Lib, Args[I].second,
                                    *Kernel->getParamDecl(I), *Kernel);
    return;
  }
  if (Prepared) {
    // prepared_call packs the arguments by the format: the format is what
    // must match the kernel.
    if (!Format.empty())
      checkFormat(Launch, Format, *Kernel, Ctx);
    return;
  }
  unsigned Params = Kernel->getNumParams();
  if (Args.size() != Params) {
    diag(Launch.getLocation(),
         "this launch of '%0' passes %1 argument%s1 to its %2 parameter%s2; "
         "%3 does not check the count, and the kernel reads %select{"
         "parameters that were never passed|only the first %2}4")
        << Kernel->getName() << static_cast<unsigned>(Args.size()) << Params
        << (Lib == "cupy" ? "CuPy" : "PyCUDA")
        << (Args.size() > Params ? 1 : 0);
    diag(Kernel->getLocation(), "kernel '%0' declared here",
         DiagnosticIDs::Note)
        << Kernel->getName();
    return;
  }
  for (unsigned I = 0; I < Params; ++I) {
    auto It = Origins.find(I);
    From = It == Origins.end() ? nullptr : It->second.first;
    FromFunction = It == Origins.end() ? StringRef() : It->second.second;
    checkArgument(*Args[I].first, Lib, Args[I].second, *Kernel->getParamDecl(I),
                  *Kernel, Ctx);
  }
  From = nullptr;
}

void KernelArgumentsCheck::checkScalarForTypeParameter(
    const ParmVarDecl &Arg, StringRef Library, StringRef Fact,
    const ParmVarDecl &Param, const FunctionDecl &Kernel) {
  if (Fact != "pyfloat" && Fact != "pyint")
    return;
  const auto *T = Param.getType()->getAs<TemplateTypeParmType>();
  if (!T || !T->getIdentifier())
    return;
  bool Raises = false;
  std::optional<StringRef> Dtype =
      CudaApiModel::pythonScalarDtype(Library, Fact, Raises);
  if (!Dtype || Raises)
    return;
  std::optional<Value> Sent = CudaApiModel::pythonDtype(*Dtype);
  if (!Sent)
    return;
  // The reader names a type hole '{ctype}' of the source _py_ctype.
  StringRef Hole = T->getIdentifier()->getName();
  bool IsHole = Hole.consume_front("_py_");
  diag(Arg.getLocation(),
       "Python %select{float|int}0 passed to parameter '%1' of '%2', whose "
       "type is %select{the template parameter|the source's placeholder}3 "
       "'%4', is sent as an %5-byte %6; the kernel reads the value only "
       "where '%4' is '%7': pass a scalar of the kernel's dtype (for "
       "example x.dtype.type(...))")
      << (Fact == "pyint") << Param.getName() << Kernel.getName() << IsHole
      << Hole << Sent->Bytes << *Dtype
      << (Fact == "pyint" ? "long long" : "double");
  diag(Param.getLocation(), "parameter '%0' of '%1' declared here",
       DiagnosticIDs::Note)
      << Param.getName() << Kernel.getName();
}

void KernelArgumentsCheck::checkArgument(const ParmVarDecl &Arg,
                                         StringRef Library, StringRef FactText,
                                         const ParmVarDecl &Param,
                                         const FunctionDecl &Kernel,
                                         ASTContext &Ctx) {
  std::optional<Value> Reads = valueOf(Param.getType(), Ctx);
  if (!Reads)
    return;
  SmallVector<StringRef, 4> Fact;
  FactText.split(Fact, ':');
  StringRef What = Fact[0];
  SourceLocation Loc = Arg.getLocation();
  StringRef Mod = scalarModule(Library);
  auto Declared = [&] {
    if (From)
      diag(From->getLocation(), "passed as this argument of '%0' here",
           DiagnosticIDs::Note)
          << FromFunction;
    diag(Param.getLocation(), "parameter %0 of '%1' declared here",
         DiagnosticIDs::Note)
        << describe(Param) << Kernel.getName();
  };

  if (What == "pyfloat" || What == "pyint" || What == "pybool") {
    bool Raises = false;
    std::optional<StringRef> Dtype =
        CudaApiModel::pythonScalarDtype(Library, What, Raises);
    if (!Dtype)
      return;
    StringRef Type = What == "pyfloat" ? "float" : What == "pyint" ? "int" : "bool";
    if (Raises) {
      if (Reads->Kind == Kind::Pointer)
        return;
      diag(Loc, "Python %0 passed to parameter %1 of '%2'; PyCUDA raises "
                "'invalid type on parameter': pass %3.%4(...)")
          << Type << describe(Param) << Kernel.getName() << Mod
          << dtypeName(*Reads);
      Declared();
      return;
    }
    std::optional<Value> Sent = CudaApiModel::pythonDtype(*Dtype);
    if (!Sent || sameValue(*Sent, *Reads))
      return;
    // An int64 read as a narrower integer keeps its low bytes (little
    // endian): the value, while it fits. An int may also be an address.
    bool IntegerSent = Sent->Kind == Kind::Signed || Sent->Kind == Kind::Unsigned;
    bool IntegerRead = Reads->Kind == Kind::Signed ||
                       Reads->Kind == Kind::Unsigned ||
                       Reads->Kind == Kind::Bool || Reads->Kind == Kind::Pointer;
    if (IntegerSent && IntegerRead)
      return;
    if (What == "pybool" && IntegerRead)
      return;
    diag(Loc, "Python %0 passed to parameter %1 of '%2' is sent as an "
              "%3-byte %4; the kernel reads %5 of its bytes as a '%6', not "
              "the value: pass %7.%8(...)")
        << Type << describe(Param) << Kernel.getName() << Sent->Bytes << *Dtype
        << Reads->Bytes << Param.getType().getAsString() << Mod
        << dtypeName(*Reads);
    Declared();
    return;
  }

  if (What == "scalar" && Fact.size() >= 2) {
    std::optional<Value> Sent = CudaApiModel::pythonDtype(Fact[1]);
    if (!Sent || sameValue(*Sent, *Reads))
      return;
    // An 8-byte integer given to a pointer is an address ('numpy.uintp(p)').
    if (Reads->Kind == Kind::Pointer &&
        (Sent->Kind == Kind::Signed || Sent->Kind == Kind::Unsigned) &&
        Sent->Bytes == 8)
      return;
    if (Reads->Kind == Kind::Pointer)
      diag(Loc, "%0 scalar passed to pointer parameter %1 of '%2'; the "
                "kernel reads its bytes as an address: pass an array")
          << Fact[1] << describe(Param) << Kernel.getName();
    else
      diag(Loc, "%0 scalar passed to parameter %1 of '%2'; the kernel reads "
                "%3 bytes of the %4-byte %0 as a '%5', not the value: pass "
                "%6.%7(...)")
          << Fact[1] << describe(Param) << Kernel.getName() << Reads->Bytes
          << Sent->Bytes << Param.getType().getAsString() << Mod
          << dtypeName(*Reads);
    Declared();
    return;
  }

  if (What == "array" && Fact.size() >= 3) {
    StringRef Space = Fact[1], Dtype = Fact[2];
    StringRef View = FactText.contains(":view=") ? FactText.rsplit("=").second
                                                 : StringRef();
    if (Reads->Kind != Kind::Pointer) {
      if (Space == "device")
        diag(Loc, "array passed to parameter %0 of '%1', which is not a "
                  "pointer; the kernel reads the array's address as a '%2'")
            << describe(Param) << Kernel.getName()
            << Param.getType().getAsString();
      else
        return;
      Declared();
      return;
    }
    if (Space == "host") {
      if (CudaApiModel::pythonHostArrayRaises(Library))
        diag(Loc, "host numpy array passed to pointer parameter %0 of '%1'; "
                  "CuPy raises TypeError: copy it to the device first, "
                  "'cp.asarray(...)'")
            << describe(Param) << Kernel.getName();
      else
        diag(Loc, "host numpy array passed to pointer parameter %0 of '%1'; "
                  "PyCUDA packs the array's bytes into the parameter, and the "
                  "kernel reads them as an address: pass cuda.In(...), "
                  "cuda.InOut(...) or a gpuarray")
            << describe(Param) << Kernel.getName();
      Declared();
      return;
    }
    QualType Pointee = Param.getType()->getPointeeType();
    if (!View.empty()) {
      StringRef How = View == "T"      ? "a transposed view"
                      : View == "step" ? "a strided slice"
                                       : "a column of a 2-D array";
      diag(Loc, "%0 is passed to pointer parameter %1 of '%2'; the kernel is "
                "given the base array's memory and ignores the view's "
                "strides, so it reads the elements in memory order: pass "
                "%3.ascontiguousarray(...)")
          << How << describe(Param) << Kernel.getName()
          << (Library == "cupy" ? "cp" : "numpy");
      Declared();
      return;
    }
    if (Pointee->isVoidType() || Pointee->isCharType())
      return; // Byte access: any dtype.
    std::optional<Value> Elem = valueOf(Pointee, Ctx);
    std::optional<Value> Sent = CudaApiModel::pythonDtype(Dtype);
    if (!Elem || !Sent || sameValue(*Elem, *Sent))
      return;
    diag(Loc, "%0 array passed to pointer parameter %1 of '%2'; the kernel "
              "reads the %3-byte %0 elements as %4-byte '%5' values: convert "
              "with .astype(%6.%7)")
        << Dtype << describe(Param) << Kernel.getName() << Sent->Bytes
        << Elem->Bytes << Pointee.getUnqualifiedType().getAsString()
        << (Library == "cupy" ? "cp" : "numpy") << dtypeName(*Elem);
    Declared();
  }
}

void KernelArgumentsCheck::checkFormat(const FunctionDecl &Launch,
                                       StringRef Format,
                                       const FunctionDecl &Kernel,
                                       ASTContext &Ctx) {
  // Python struct format: a byte-order prefix, then one character per
  // parameter (counts such as '2i' are read as repeats).
  if (!Format.empty() && StringRef("@=<>!").contains(Format.front()))
    Format = Format.drop_front();
  std::vector<char> Chars;
  unsigned Repeat = 0;
  for (char C : Format) {
    if (llvm::isDigit(C)) {
      Repeat = Repeat * 10 + (C - '0');
      continue;
    }
    if (C == ' ')
      continue;
    for (unsigned K = 0; K < std::max(1u, Repeat); ++K)
      Chars.push_back(C);
    Repeat = 0;
  }
  unsigned Params = Kernel.getNumParams();
  if (Chars.size() != Params) {
    diag(Launch.getLocation(),
         "prepare() format '%0' names %1 argument%s1, but kernel '%2' has %3 "
         "parameter%s3; PyCUDA packs the arguments by the format, and the "
         "kernel reads its parameters from the wrong offsets")
        << Format << static_cast<unsigned>(Chars.size()) << Kernel.getName()
        << Params;
    return;
  }
  for (unsigned I = 0; I < Params; ++I) {
    const ParmVarDecl *P = Kernel.getParamDecl(I);
    std::optional<Value> Reads = valueOf(P->getType(), Ctx);
    std::optional<Value> Packs = CudaApiModel::pythonStructFormat(Chars[I]);
    if (!Reads || !Packs || sameValue(*Reads, *Packs))
      continue;
    diag(Launch.getLocation(),
         "prepare() format character '%0' packs %1 byte%s1 for parameter %2 "
         "of '%3', which reads %4; the kernel reads the wrong bytes")
        << std::string(1, Chars[I]) << Packs->Bytes << describe(*P)
        << Kernel.getName() << Reads->Bytes;
  }
}

} // namespace clang::tidy::cuda

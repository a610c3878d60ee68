//===- Merge.cpp - One report from the reports of several shards ----------===//
//
// See Merge.h.
//
//===----------------------------------------------------------------------===//

#include "Merge.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include <map>
#include <set>
#include <tuple>

namespace json = llvm::json;

namespace cudatidy {
namespace {

std::string textOf(const json::Value &V) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << V;
  return S;
}

std::string readReport(llvm::StringRef Path, json::Value &Out) {
  auto Buffer = llvm::MemoryBuffer::getFileOrSTDIN(Path);
  if (!Buffer)
    return "cannot read '" + Path.str() + "': " + Buffer.getError().message();
  llvm::Expected<json::Value> V = json::parse((*Buffer)->getBuffer());
  if (!V)
    return "'" + Path.str() + "' is not JSON: " + llvm::toString(V.takeError());
  Out = std::move(*V);
  return "";
}

/// The order of merged results: file, line, column, rule, message.
using SortKey = std::tuple<std::string, int64_t, int64_t, std::string,
                           std::string, std::string>;

SortKey sarifKey(const json::Object &R) {
  std::string Uri;
  int64_t Line = 0, Column = 0;
  if (const json::Array *Locs = R.getArray("locations"); Locs && !Locs->empty())
    if (const json::Object *P =
            (*Locs)[0].getAsObject()
                ? (*Locs)[0].getAsObject()->getObject("physicalLocation")
                : nullptr) {
      if (const json::Object *A = P->getObject("artifactLocation"))
        Uri = A->getString("uri").value_or("").str();
      if (const json::Object *Rg = P->getObject("region")) {
        Line = Rg->getInteger("startLine").value_or(0);
        Column = Rg->getInteger("startColumn").value_or(0);
      }
    }
  const json::Object *M = R.getObject("message");
  return {Uri, Line, Column, R.getString("ruleId").value_or("").str(),
          M ? M->getString("text").value_or("").str() : "",
          textOf(json::Value(json::Object(R)))};
}

SortKey jsonKey(const json::Object &F) {
  return {F.getString("file").value_or("").str(),
          F.getInteger("line").value_or(0), F.getInteger("column").value_or(0),
          F.getString("check").value_or("").str(),
          F.getString("message").value_or("").str(),
          textOf(json::Value(json::Object(F)))};
}

/// Merges SARIF logs: one run, whose tool and base URIs are the first
/// log's.
class SarifMerger {
public:
  std::string add(json::Value &Log, llvm::StringRef Path);
  json::Value finish(MergeSummary &Summary);

private:
  std::optional<json::Object> FirstRun;
  std::map<std::string, json::Object> Rules;
  std::map<SortKey, json::Object> Results;
  json::Array Notifications;
  bool Successful = true;
};

std::string SarifMerger::add(json::Value &Log, llvm::StringRef Path) {
  const json::Array *Runs =
      Log.getAsObject() ? Log.getAsObject()->getArray("runs") : nullptr;
  if (!Runs)
    return "'" + Path.str() + "' is not a SARIF log (no \"runs\")";
  for (const json::Value &RunV : *Runs) {
    const json::Object *Run = RunV.getAsObject();
    if (!Run)
      return "'" + Path.str() + "' has a run that is not an object";
    if (!FirstRun)
      FirstRun = *Run;
    const json::Object *Tool = Run->getObject("tool");
    const json::Object *Driver = Tool ? Tool->getObject("driver") : nullptr;
    if (const json::Array *R = Driver ? Driver->getArray("rules") : nullptr)
      for (const json::Value &Rule : *R)
        if (const json::Object *O = Rule.getAsObject())
          Rules.emplace(O->getString("id").value_or("").str(), *O);
    if (const json::Array *Res = Run->getArray("results"))
      for (const json::Value &V : *Res)
        if (const json::Object *O = V.getAsObject())
          Results.emplace(sarifKey(*O), *O);
    if (const json::Array *Inv = Run->getArray("invocations"))
      for (const json::Value &V : *Inv) {
        const json::Object *O = V.getAsObject();
        if (!O)
          continue;
        Successful &= O->getBoolean("executionSuccessful").value_or(true);
        if (const json::Array *N = O->getArray("toolExecutionNotifications"))
          Notifications.insert(Notifications.end(), N->begin(), N->end());
      }
  }
  return "";
}

json::Value SarifMerger::finish(MergeSummary &Summary) {
  std::map<std::string, int64_t> Index;
  json::Array RuleArray;
  for (auto &[Id, Rule] : Rules) {
    Index[Id] = RuleArray.size();
    RuleArray.push_back(std::move(Rule));
  }
  json::Array ResultArray;
  for (auto &[Key, Result] : Results) {
    std::string Rule = Result.getString("ruleId").value_or("").str();
    Result["ruleIndex"] = Index.count(Rule) ? Index[Rule] : int64_t(-1);
    if (Rule == "clang-diagnostic-error")
      Summary.AnalysisErrors = true;
    else
      ++Summary.Findings;
    ResultArray.push_back(std::move(Result));
  }
  Summary.AnalysisErrors |= !Successful;
  json::Object Run = FirstRun ? std::move(*FirstRun) : json::Object();
  if (json::Object *Tool = Run.getObject("tool"))
    if (json::Object *Driver = Tool->getObject("driver"))
      (*Driver)["rules"] = std::move(RuleArray);
  Run["results"] = std::move(ResultArray);
  json::Object Invocation{{"executionSuccessful", Successful}};
  if (!Notifications.empty())
    Invocation["toolExecutionNotifications"] = std::move(Notifications);
  Run["invocations"] = json::Array{std::move(Invocation)};
  return json::Object{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                      {"version", "2.1.0"},
                      {"runs", json::Array{std::move(Run)}}};
}

/// Merges the driver's JSON reports.
class JsonMerger {
public:
  std::string add(json::Value &Report, llvm::StringRef Path);
  json::Value finish(MergeSummary &Summary);

private:
  std::optional<json::Value> Version;
  std::map<SortKey, json::Object> Findings;
  json::Array Internal;
  bool Partial = false;
  int64_t Analysed = 0, Total = 0;
};

std::string JsonMerger::add(json::Value &Report, llvm::StringRef Path) {
  const json::Object *O = Report.getAsObject();
  const json::Array *F = O ? O->getArray("findings") : nullptr;
  if (!F)
    return "'" + Path.str() + "' is not a cuda-tidy JSON report (no "
           "\"findings\")";
  if (!Version)
    if (const json::Value *V = O->get("version"))
      Version = *V;
  for (const json::Value &V : *F)
    if (const json::Object *Finding = V.getAsObject())
      Findings.emplace(jsonKey(*Finding), *Finding);
  if (const json::Array *I = O->getArray("internal_errors"))
    Internal.insert(Internal.end(), I->begin(), I->end());
  if (O->getBoolean("partial").value_or(false)) {
    Partial = true;
    Analysed += O->getInteger("files_analysed").value_or(0);
    Total += O->getInteger("files_total").value_or(0);
  }
  return "";
}

json::Value JsonMerger::finish(MergeSummary &Summary) {
  json::Array Out;
  for (auto &[Key, F] : Findings) {
    if (F.getString("check") == "clang-diagnostic-error")
      Summary.AnalysisErrors = true;
    else
      ++Summary.Findings;
    Out.push_back(std::move(F));
  }
  json::Object Top{{"tool", "cuda-tidy"},
                   {"version", Version ? *Version : json::Value("")},
                   {"findings", std::move(Out)}};
  if (Partial) {
    Top["partial"] = true;
    Top["files_analysed"] = Analysed;
    Top["files_total"] = Total;
  }
  Summary.AnalysisErrors |= Partial || !Internal.empty();
  if (!Internal.empty())
    Top["internal_errors"] = std::move(Internal);
  return Top;
}

} // namespace

std::optional<ReportKind> reportKind(const json::Value &Report) {
  const json::Object *O = Report.getAsObject();
  if (O && O->getArray("runs"))
    return ReportKind::Sarif;
  if (O && O->getArray("findings"))
    return ReportKind::Json;
  return std::nullopt;
}

std::string mergeReports(const std::vector<std::string> &Paths,
                         std::optional<ReportKind> Wanted,
                         llvm::raw_ostream &OS, MergeSummary &Summary) {
  if (Paths.empty())
    return "--merge needs the reports to merge";
  SarifMerger Sarif;
  JsonMerger Json;
  for (const std::string &Path : Paths) {
    json::Value Report(nullptr);
    if (std::string Err = readReport(Path, Report); !Err.empty())
      return Err;
    std::optional<ReportKind> K = reportKind(Report);
    if (!K)
      return "'" + Path + "' is neither a SARIF log nor a cuda-tidy JSON "
             "report";
    if (!Wanted)
      Wanted = *K;
    ReportKind Kind = *Wanted;
    if (*K != Kind)
      return "'" + Path + "' is " +
             (*K == ReportKind::Sarif ? "SARIF" : "JSON") +
             "; the reports merged must all be of the same format";
    std::string Err = Kind == ReportKind::Sarif ? Sarif.add(Report, Path)
                                                : Json.add(Report, Path);
    if (!Err.empty())
      return Err;
  }
  json::Value Out = *Wanted == ReportKind::Sarif ? Sarif.finish(Summary)
                                              : Json.finish(Summary);
  OS << llvm::formatv("{0:2}", Out) << "\n";
  return "";
}

} // namespace cudatidy

#include "analyzer/baseline/Baseline.h"
#include "analyzer/InputFile.h"
#include "analyzer/OutputFile.h"

#include "analyzer/support/SourceTextCache.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace streamlint {
namespace {

using Json = nlohmann::json;

llvm::Error fail(const std::string &path, const std::string &what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "baseline %s: %s", path.c_str(), what.c_str());
}

llvm::Error readJsonBaseline(const Json &doc, Baseline &baseline) {
  const Json version = doc.value("version", Json());
  if (!version.is_number_integer() || version.get<int>() != 1)
    return fail(baseline.path, "unsupported streamlint JSON version " +
                                   version.dump() + " (expected 1)");
  const Json &findings = doc.at("findings");
  if (!findings.is_array())
    return fail(baseline.path, "'findings' is not an array");
  for (std::size_t i = 0; i < findings.size(); ++i) {
    const Json &fp = findings[i].is_object() ? findings[i].value("fingerprint", Json())
                                             : Json();
    if (!fp.is_string() || fp.get<std::string>().empty())
      return fail(baseline.path, "findings[" + std::to_string(i) +
                                     "] has no 'fingerprint'");
    baseline.fingerprints.insert(fp.get<std::string>());
  }
  return llvm::Error::success();
}

llvm::Error readSarifBaseline(const Json &doc, Baseline &baseline) {
  const Json &runs = doc.at("runs");
  if (!runs.is_array())
    return fail(baseline.path, "'runs' is not an array");
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const Json &run = runs[r];
    std::string tool;
    if (run.is_object() && run.contains("tool") && run.at("tool").is_object()) {
      Json driver = run.at("tool").value("driver", Json::object());
      if (driver.is_object())
        tool = driver.value("name", "");
    }
    if (tool != "streamlint")
      return fail(baseline.path, "runs[" + std::to_string(r) +
                                     "] is not a streamlint run (tool '" +
                                     tool + "')");
    const Json results = run.value("results", Json::array());
    for (std::size_t i = 0; i < results.size(); ++i) {
      Json fp;
      if (results[i].is_object()) {
        Json partial = results[i].value("partialFingerprints", Json::object());
        if (partial.is_object())
          fp = partial.value("streamlint/v1", Json());
      }
      if (!fp.is_string() || fp.get<std::string>().empty())
        return fail(baseline.path,
                    "runs[" + std::to_string(r) + "].results[" +
                        std::to_string(i) +
                        "] has no partialFingerprints 'streamlint/v1'");
      baseline.fingerprints.insert(fp.get<std::string>());
    }
  }
  return llvm::Error::success();
}

} // namespace

llvm::Expected<Baseline> readBaseline(const std::string &path) {
  std::string text, error;
  if (!readInputFile(path, kBaselineLimits, text, error))
    return fail(path, "cannot read: " + error);
  Json doc = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded())
    return fail(path, "not valid JSON");
  if (!doc.is_object())
    return fail(path, "expected a JSON object at the top level");
  Baseline baseline;
  baseline.path = path;
  try {
    llvm::Error error =
        doc.contains("runs")       ? readSarifBaseline(doc, baseline)
        : doc.contains("findings") ? readJsonBaseline(doc, baseline)
                                   : fail(path, "neither streamlint JSON "
                                                "('findings') nor SARIF ('runs')");
    if (error)
      return std::move(error);
  } catch (const Json::exception &e) { // a field of an unexpected type
    return fail(path, e.what());
  }
  return baseline;
}

std::size_t removeBaselineFindings(std::vector<Finding> &findings,
                                   const Baseline &baseline) {
  std::size_t before = findings.size();
  findings.erase(std::remove_if(findings.begin(), findings.end(),
                                [&](const Finding &f) {
                                  return baseline.fingerprints.count(
                                             f.fingerprint) != 0;
                                }),
                 findings.end());
  return before - findings.size();
}

llvm::Error writeBaselineFile(const std::string &path,
                              const AnalysisResult &result,
                              const OutputOptions &options,
                              SourceTextCache &sources) {
  std::string text, error;
  llvm::raw_string_ostream out(text);
  writeFindings(OutputFormat::Json, result, options, sources, out);
  if (!writeFileAtomically(path, text, error))
    return fail(path, "cannot write the baseline: " + error);
  return llvm::Error::success();
}

llvm::Error applyBaselineOptions(const std::string &readPath,
                                 const std::string &writePath,
                                 AnalysisResult &result, OutputOptions &options,
                                 SourceTextCache &sources) {
  if (!writePath.empty())
    if (llvm::Error error = writeBaselineFile(writePath, result, options, sources))
      return error;
  if (readPath.empty())
    return llvm::Error::success();
  llvm::Expected<Baseline> baseline = readBaseline(readPath);
  if (!baseline)
    return baseline.takeError();
  removeBaselineFindings(result.findings, *baseline);
  options.baselineCompared = true;
  return llvm::Error::success();
}

} // namespace streamlint

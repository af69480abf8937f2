#include "analyzer/trace/TraceFormat.h"

#include "analyzer/trace/Evidence.h"

#include <nlohmann/json.hpp>

namespace streamlint {

const std::vector<std::string> &probeCheckIds() {
  static const std::vector<std::string> ids = [] {
    std::vector<std::string> list;
    for (const EvidenceDeclaration &declaration : evidenceDeclarations())
      list.push_back(declaration.checkId);
    return list;
  }();
  return ids;
}

std::string writeTraceJson(const ProbeTrace &trace) {
  nlohmann::ordered_json sites = nlohmann::ordered_json::array();
  for (const TraceObservation &o : trace.observations)
    sites.push_back({{"check", o.check},
                     {"file", o.file},
                     {"line", o.line},
                     {"file_guessed", o.fileGuessed},
                     {"function", o.function},
                     {"api", o.api},
                     {"calls", o.calls},
                     {"misuses", o.misuses},
                     {"host_time_us", o.hostTimeUs},
                     {"bytes", o.bytes},
                     {"detail", o.detail}});
  nlohmann::ordered_json doc = {{"format", "streamlint-trace"},
                                {"version", trace.version},
                                {"program", trace.program},
                                {"exit_status", trace.exitStatus},
                                {"dropped_calls", trace.droppedCalls},
                                {"processes", trace.processes},
                                {"observations", sites}};
  return doc.dump(2) + "\n";
}

bool readTraceJson(const std::string &text, ProbeTrace &trace,
                   std::string &error) {
  nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    error = "not JSON";
    return false;
  }
  if (doc.value("format", "") != "streamlint-trace") {
    error = "not a streamlint trace (no \"format\": \"streamlint-trace\")";
    return false;
  }
  try {
    trace.version = doc.at("version").get<int>();
    if (trace.version != 1) {
      error = "unsupported trace version " + std::to_string(trace.version);
      return false;
    }
    trace.program = doc.value("program", "");
    trace.exitStatus = doc.value("exit_status", 0);
    trace.droppedCalls = doc.value("dropped_calls", std::uint64_t(0));
    trace.processes = doc.value("processes", 0u);
    for (const nlohmann::json &s : doc.at("observations")) {
      TraceObservation o;
      o.check = s.at("check").get<std::string>();
      o.file = s.at("file").get<std::string>();
      o.line = s.at("line").get<unsigned>();
      o.fileGuessed = s.value("file_guessed", false);
      o.function = s.value("function", "");
      o.api = s.value("api", "");
      o.calls = s.at("calls").get<std::uint64_t>();
      o.misuses = s.at("misuses").get<std::uint64_t>();
      o.hostTimeUs = s.value("host_time_us", 0.0);
      o.bytes = s.value("bytes", std::uint64_t(0));
      o.detail = s.value("detail", "");
      trace.observations.push_back(std::move(o));
    }
  } catch (const nlohmann::json::exception &e) {
    error = std::string("malformed trace: ") + e.what();
    return false;
  }
  return true;
}

} // namespace streamlint

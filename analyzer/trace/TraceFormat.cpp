#include "analyzer/trace/TraceFormat.h"

#include "analyzer/StoredJson.h"
#include "analyzer/trace/Evidence.h"

#include <nlohmann/json.hpp>

#include <limits>
#include <stdexcept>

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
  nlohmann::json sites = nlohmann::json::array();
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
  nlohmann::json doc = {{"format", "streamlint-trace"},
                        {"version", trace.version},
                        {"program", trace.program},
                        {"exit_status", trace.exitStatus},
                        {"dropped_calls", trace.droppedCalls},
                        {"processes", trace.processes},
                        {"observations", sites}};
  // Paths and function names come from the program's debug info: bytes
  // that are not UTF-8 are kept (analyzer/StoredJson.h), never a throw.
  escapeStrings(doc);
  return doc.dump(2) + "\n";
}

namespace {
/// A count: an integer that fits. nlohmann converts a float such as 8.9e101
/// to an integer with undefined behaviour (found by fuzz_trace under UBSan),
/// so anything but an integer is an error here.
template <typename Integer>
Integer integerField(const nlohmann::json &object, const char *key, bool required,
                     Integer fallback = 0) {
  auto it = object.find(key);
  if (it == object.end()) {
    if (required)
      throw std::runtime_error(std::string("missing \"") + key + "\"");
    return fallback;
  }
  if (!it->is_number_integer())
    throw std::runtime_error(std::string("\"") + key + "\" is not an integer");
  if (it->is_number_unsigned()) {
    auto value = it->get<std::uint64_t>();
    if (value > static_cast<std::uint64_t>(std::numeric_limits<Integer>::max()))
      throw std::runtime_error(std::string("\"") + key + "\" is out of range");
    return static_cast<Integer>(value);
  }
  auto value = it->get<std::int64_t>();
  if (value < static_cast<std::int64_t>(std::numeric_limits<Integer>::min()) ||
      (value > 0 && static_cast<std::uint64_t>(value) >
                        static_cast<std::uint64_t>(std::numeric_limits<Integer>::max())))
    throw std::runtime_error(std::string("\"") + key + "\" is out of range");
  return static_cast<Integer>(value);
}
} // namespace

bool readTraceJson(const std::string &text, ProbeTrace &trace,
                   std::string &error) {
  nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    error = "not JSON";
    return false;
  }
  // value() throws when the key holds another type ("format": 0): test the
  // type first (found by fuzz_trace).
  auto format = doc.find("format");
  if (format == doc.end() || !format->is_string() || *format != "streamlint-trace") {
    error = "not a streamlint trace (no \"format\": \"streamlint-trace\")";
    return false;
  }
  try {
    unescapeStrings(doc);
    trace.version = integerField<int>(doc, "version", true);
    if (trace.version != 1) {
      error = "unsupported trace version " + std::to_string(trace.version);
      return false;
    }
    trace.program = doc.value("program", "");
    trace.exitStatus = integerField<int>(doc, "exit_status", false);
    trace.droppedCalls = integerField<std::uint64_t>(doc, "dropped_calls", false);
    trace.processes = integerField<unsigned>(doc, "processes", false);
    for (const nlohmann::json &s : doc.at("observations")) {
      TraceObservation o;
      o.check = s.at("check").get<std::string>();
      o.file = s.at("file").get<std::string>();
      o.line = integerField<unsigned>(s, "line", true);
      o.fileGuessed = s.value("file_guessed", false);
      o.function = s.value("function", "");
      o.api = s.value("api", "");
      o.calls = integerField<std::uint64_t>(s, "calls", true);
      o.misuses = integerField<std::uint64_t>(s, "misuses", true);
      o.hostTimeUs = s.value("host_time_us", 0.0);
      o.bytes = integerField<std::uint64_t>(s, "bytes", false);
      o.detail = s.value("detail", "");
      trace.observations.push_back(std::move(o));
    }
  } catch (const nlohmann::json::exception &e) {
    error = std::string("malformed trace: ") + e.what();
    return false;
  } catch (const std::exception &e) {
    error = std::string("malformed trace: ") + e.what();
    return false;
  }
  return true;
}

} // namespace streamlint

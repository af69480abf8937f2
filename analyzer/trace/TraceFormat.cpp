#include "analyzer/trace/TraceFormat.h"

#include "analyzer/StoredJson.h"
#include "checks/CheckEvidence.h"

#include <nlohmann/json.hpp>

#include <limits>
#include <map>
#include <tuple>
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

namespace {
void joinName(std::string &list, const std::string &name) {
  if (name.empty() || list == name)
    return;
  for (std::size_t at = 0; at <= list.size();) {
    std::size_t end = list.find(',', at);
    if (end == std::string::npos)
      end = list.size();
    if (list.compare(at, end - at, name) == 0)
      return;
    at = end + 1;
  }
  list += list.empty() ? name : "," + name;
}
} // namespace

void addObservationCounts(TraceObservation &m, const TraceObservation &o) {
  accumulate(m, o);
  joinName(m.api, o.api);
  joinName(m.libraryCall, o.libraryCall);
  joinName(m.library, o.library);
  if (m.callers.empty())
    m.callers = o.callers;
  const EvidenceDeclaration *declaration = evidenceFor(m.check);
  if (declaration && declaration->detailOfTotals)
    m.detail = declaration->detailOfTotals(m.misuses, m.calls);
  else if (!o.detail.empty() && m.detail.find(o.detail) == std::string::npos)
    m.detail = m.detail.empty() ? o.detail : m.detail + "; " + o.detail;
}

ProbeTrace combineTraces(const std::vector<ProbeTrace> &traces) {
  ProbeTrace all;
  std::map<std::tuple<std::string, std::string, unsigned, std::string>, std::size_t> at;
  for (const ProbeTrace &t : traces) {
    if (all.program.empty())
      all.program = t.program;
    else if (t.program != all.program && all.program.find(t.program) == std::string::npos)
      all.program += "," + t.program;
    if (all.exitStatus == 0)
      all.exitStatus = t.exitStatus; // the first failure
    all.droppedCalls += t.droppedCalls;
    all.processes += t.processes;
    all.libraryOnlyCalls += t.libraryOnlyCalls;
    for (const TraceObservation &o : t.observations) {
      std::string firstCaller = o.callers.empty() ? "" : o.callers.front().file + ":" +
                                                             std::to_string(o.callers.front().line);
      auto key = std::make_tuple(o.check, o.file, o.line, firstCaller);
      auto [it, inserted] = at.emplace(key, all.observations.size());
      if (inserted)
        all.observations.push_back(o);
      else
        addObservationCounts(all.observations[it->second], o);
    }
  }
  return all;
}

std::string writeTraceJson(const ProbeTrace &trace) {
  nlohmann::json sites = nlohmann::json::array();
  for (const TraceObservation &o : trace.observations) {
    nlohmann::json callers = nlohmann::json::array();
    for (const TraceCaller &c : o.callers)
      callers.push_back({{"file", c.file}, {"line", c.line}, {"function", c.function}});
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
                     {"detail", o.detail},
                     {"library_call", o.libraryCall},
                     {"library", o.library},
                     {"callers", callers}});
  }
  nlohmann::json doc = {{"format", "streamlint-trace"},
                        {"version", trace.version},
                        {"program", trace.program},
                        {"exit_status", trace.exitStatus},
                        {"dropped_calls", trace.droppedCalls},
                        {"processes", trace.processes},
                        {"library_only_calls", trace.libraryOnlyCalls},
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
    trace.libraryOnlyCalls = integerField<std::uint64_t>(doc, "library_only_calls", false);
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
      o.libraryCall = s.value("library_call", "");
      o.library = s.value("library", "");
      if (auto callers = s.find("callers"); callers != s.end())
        for (const nlohmann::json &c : callers->get_ref<const nlohmann::json::array_t &>())
          o.callers.push_back({c.at("file").get<std::string>(),
                               integerField<unsigned>(c, "line", true),
                               c.value("function", "")});
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

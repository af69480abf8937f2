#include "analyzer/Finding.h"

#include <tuple>

namespace streamlint {

const char *severityName(Severity severity) {
  switch (severity) {
  case Severity::Note:
    return "note";
  case Severity::Warning:
    return "warning";
  case Severity::Error:
    return "error";
  }
  return "warning";
}

const char *dynamicStatusName(DynamicStatus status) {
  switch (status) {
  case DynamicStatus::Confirmed:
    return "confirmed";
  case DynamicStatus::Refuted:
    return "refuted";
  case DynamicStatus::NotReached:
    return "not-reached";
  case DynamicStatus::RuntimeOnly:
    return "runtime-only";
  }
  return "not-reached";
}

bool findingLess(const Finding &a, const Finding &b) {
  return std::tie(a.location.file, a.location.line, a.location.column,
                  a.checkId, a.message) <
         std::tie(b.location.file, b.location.line, b.location.column,
                  b.checkId, b.message);
}

} // namespace streamlint

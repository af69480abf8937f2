// --trace: a runtime-probe trace read back (the probe writes it, but a
// truncated or hand-edited file must only ever be an error).
#include "analyzer/trace/TraceFormat.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  streamlint::ProbeTrace trace;
  std::string error;
  if (streamlint::readTraceJson(text, trace, error))
    streamlint::writeTraceJson(trace); // what was read writes back
  return 0;
}

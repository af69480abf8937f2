// .streamlint.yaml / .json: llvm's YAML parser and our schema on any text.
#include "analyzer/config/ConfigFile.h"

#include "llvm/Support/Error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  static const std::vector<std::string> known = {
      "default-stream", "device-sync", "alloc-in-loop", "pageable-memcpy-async",
      "cuda-call-in-host-callback"};
  auto config = streamlint::parseConfigFile("/fuzz/.streamlint.yaml", text, known);
  if (!config)
    llvm::consumeError(config.takeError());
  return 0;
}

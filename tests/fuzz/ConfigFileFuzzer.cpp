// .streamlint.yaml / .json: llvm's YAML parser and our schema on any text,
// once without and once with a catalog of declared check options (one of
// each option type, as the checks declare them), so that option names and
// values are judged too.
#include "analyzer/config/ConfigFile.h"

#include "llvm/Support/Error.h"

namespace {

const streamlint::OptionCatalog &declaredOptions() {
  static const streamlint::OptionCatalog catalog = [] {
    using streamlint::OptionType;
    streamlint::OptionCatalog known;
    known.checks = {"default-stream", "device-sync", "alloc-in-loop",
                    "pageable-memcpy-async", "cuda-call-in-host-callback"};
    known.options["default-stream.PerThreadDefaultStream"] = {
        "PerThreadDefaultStream", OptionType::Choice, "ignore", {"ignore", "note"}, "note", ""};
    known.options["device-sync.ExtraSyncFunctions"] = {
        "ExtraSyncFunctions", OptionType::NameList, "", {}, "", ""};
    known.options["pageable-memcpy-async.Strict"] = {
        "Strict", OptionType::Bool, "false", {}, "true", ""};
    return known;
  }();
  return catalog;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  const streamlint::OptionCatalog &known = declaredOptions();
  const streamlint::OptionCatalog *catalogs[] = {nullptr, &known};
  for (const streamlint::OptionCatalog *options : catalogs) {
    auto config =
        streamlint::parseConfigFile("/fuzz/.streamlint.yaml", text, known.checks, options);
    if (!config)
      llvm::consumeError(config.takeError());
  }
  return 0;
}

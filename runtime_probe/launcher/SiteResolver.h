#pragma once
// Turns a raw site's PCs into the user's call site (file:line), skipping the
// probe, CUPTI, the driver, cudart, the runtime headers' wrappers and nvcc's
// launch stubs. Symbolizes each distinct PC once with LLVM's symbolizer.

#include "RawTrace.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm::symbolize {
class LLVMSymbolizer;
}

namespace streamlint::probe {

/// One frame as the symbolizer sees it (inlined frames are separate).
struct SourceFrame {
  std::string file;     // "" without line info
  unsigned line = 0;
  std::string function; // mangled (linkage) name when known
};

/// The user's call site found for a raw site.
struct SourceSite {
  std::string file;
  unsigned line = 0;
  std::string function; // demangled
  bool fileGuessed = false;
};

/// `/b/tmpxft_0001_00000000-6_app.cudafe1.cpp` -> `/b/app.cu`; other paths
/// unchanged. Sets `guessed` when it mapped.
std::string mapCudafeName(const std::string &file, bool &guessed);

/// Whether a frame belongs to CUDA's runtime, its headers or nvcc's stubs
/// rather than to the user's code.
bool isRuntimeFrame(const SourceFrame &frame);

/// Picks the user's call site from frames ordered innermost first: the first
/// frame with line info that is not a runtime frame, skipping also the host
/// stub that a `__device_stub__X` frame was called from.
std::optional<SourceSite> pickCallSite(const std::vector<SourceFrame> &frames);

/// Symbolizes raw sites of one trace (see file comment).
class SiteResolver {
public:
  SiteResolver();
  ~SiteResolver();
  std::optional<SourceSite> resolve(const RawTrace &trace, const RawSite &site);

private:
  const std::vector<SourceFrame> &framesAt(const RawModule &module,
                                           std::uintptr_t address);
  std::unique_ptr<llvm::symbolize::LLVMSymbolizer> symbolizer_;
  std::map<std::pair<std::string, std::uintptr_t>, std::vector<SourceFrame>> cache_;
};

} // namespace streamlint::probe

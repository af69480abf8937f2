#pragma once
// Turns a raw site's PCs into the user's call site (file:line), skipping the
// probe, CUPTI, the driver, cudart, the runtime headers' wrappers and nvcc's
// launch stubs, and every frame of a prebuilt library (cuBLAS, NCCL,
// PyTorch, Python, libc: api::prebuiltLibraryOf) whatever line tables it
// carries: a call made inside a library is placed at the program's call
// into it and named after it (`cublasCreate`). Symbolizes each distinct PC
// of the program once with LLVM's symbolizer; a library's PCs only by its
// exported symbols.

#include "LibrarySymbols.h"
#include "RawTrace.h"
#include "analyzer/trace/TraceFormat.h"

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
  std::string library;  // the prebuilt library it belongs to; "" for the program
  std::string object;   // a library frame's file, named only when needed
  std::uintptr_t objectAddress = 0; // ... and its address there
};

/// The user's call site found for a raw site.
struct SourceSite {
  std::string file;
  unsigned line = 0;
  std::string function; // demangled
  bool fileGuessed = false;
  std::string libraryCall; // the program's call into a library, if inside one
  std::string library;     // that library ("NCCL")
  std::vector<TraceCaller> callers; // further program frames, innermost first
  // The library frame to name when pickCallSite had no name for it.
  std::string libraryObject;
  std::uintptr_t libraryAddress = 0;
};

/// At most this many callers are kept per site.
inline constexpr std::size_t kCallersKept = 4;

/// Code of a framework inlined into the program from its installed headers
/// (`.../site-packages/torch/include/ATen/...`, `/usr/include/c++/...`): the
/// framework's, not the program's. Returns the framework's name or "".
std::string frameworkHeaderLibrary(const std::string &file);

/// `/b/tmpxft_0001_00000000-6_app.cudafe1.cpp` -> `/b/app.cu`; other paths
/// unchanged. Sets `guessed` when it mapped.
std::string mapCudafeName(const std::string &file, bool &guessed);

/// Whether a frame belongs to CUDA's runtime, its headers or nvcc's stubs
/// rather than to the user's code.
bool isRuntimeFrame(const SourceFrame &frame);

/// Picks the user's call site from frames ordered innermost first: the first
/// frame of the program with line info that is not a runtime frame, skipping
/// also the host stub that a `__device_stub__X` frame was called from. The
/// library frame just inside it names the call (libraryCall); the program's
/// frames further out become callers. `insideLibraryOnly`, when given, is set
/// when no frame is the program's but some are a library's.
std::optional<SourceSite> pickCallSite(const std::vector<SourceFrame> &frames,
                                       bool *insideLibraryOnly = nullptr);

/// Symbolizes raw sites of one trace (see file comment).
class SiteResolver {
public:
  SiteResolver();
  ~SiteResolver();
  /// `insideLibraryOnly` as pickCallSite's.
  std::optional<SourceSite> resolve(const RawTrace &trace, const RawSite &site,
                                    bool *insideLibraryOnly = nullptr);

private:
  const std::vector<SourceFrame> &framesAt(const RawModule &module,
                                           std::uintptr_t address);
  std::unique_ptr<llvm::symbolize::LLVMSymbolizer> symbolizer_;
  std::map<std::pair<std::string, std::uintptr_t>, std::vector<SourceFrame>> cache_;
  LibrarySymbols librarySymbols_;
};

} // namespace streamlint::probe

#include "SiteResolver.h"

#include "api/LibraryApiTable.h"

#include "llvm/ADT/SmallString.h"

#include "llvm/DebugInfo/Symbolize/Symbolize.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/Path.h"

#include <cctype>
#include <cstring>

namespace streamlint::probe {
namespace {

bool startsWith(const std::string &s, const char *prefix) {
  return s.rfind(prefix, 0) == 0;
}
bool endsWith(const std::string &s, const char *suffix) {
  std::size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

// Modules whose frames are never the user's call site.
bool isCudaModule(const std::string &path) {
  std::string base = llvm::sys::path::filename(path).str();
  return startsWith(base, "libcuda.so") || startsWith(base, "libcupti") ||
         startsWith(base, "libstreamlint_probe") ||
         startsWith(base, "libcudart");
}

// `__device_stub__Z1kPf` (possibly itself mangled, `_Z20__device_stub__Z1kPfPf`)
// -> `_Z1kPf`, the linkage name of the host stub that called it.
std::string deviceStubTarget(const std::string &fn) {
  static const std::string kStub = "__device_stub_";
  std::string id = fn;
  if (startsWith(fn, "_Z")) {
    std::size_t i = 2, len = 0;
    while (i < fn.size() && std::isdigit(static_cast<unsigned char>(fn[i])))
      len = len * 10 + (fn[i++] - '0');
    id = fn.substr(i, len);
  }
  return startsWith(id, kStub.c_str()) ? id.substr(kStub.size()) : "";
}

} // namespace

std::string mapCudafeName(const std::string &file, bool &guessed) {
  guessed = false;
  if (!endsWith(file, ".cudafe1.cpp") && !endsWith(file, ".cudafe1.stub.c"))
    return file;
  std::string dir = llvm::sys::path::parent_path(file).str();
  std::string base = llvm::sys::path::filename(file).str();
  // nvcc's temporaries: tmpxft_<hex>_<hex>-<n>_<name>.cudafe1.cpp
  if (startsWith(base, "tmpxft_")) {
    std::size_t dash = base.find('-');
    std::size_t underscore = dash == std::string::npos ? dash : base.find('_', dash);
    if (underscore != std::string::npos)
      base = base.substr(underscore + 1);
  }
  base = base.substr(0, base.find(".cudafe1.")) + ".cu";
  guessed = true;
  return dir.empty() ? base : dir + "/" + base;
}

/// A header of a CUDA toolkit (`/usr/local/cuda/include/...`,
/// `/usr/local/cuda-13.0/include/cccl/thrust/...`,
/// `.../targets/x86_64-linux/include/...`): the runtime's and CCCL's (Thrust,
/// CUB) code inlined into the program, never the user's call site.
bool inToolkitHeaders(const std::string &file) {
  llvm::SmallVector<llvm::StringRef, 16> parts;
  llvm::StringRef(file).split(parts, '/', -1, false);
  for (std::size_t i = 1; i < parts.size(); ++i) {
    if (parts[i] != "include")
      continue;
    llvm::StringRef parent = parts[i - 1];
    if (i >= 3 && parts[i - 2] == "targets")
      return true;
    if (parent == "cuda" ||
        (parent.starts_with("cuda-") &&
         parent.drop_front(5).find_first_not_of("0123456789.") == llvm::StringRef::npos))
      return true;
  }
  return false;
}

bool isRuntimeFrame(const SourceFrame &f) {
  const std::string &fn = f.function;
  if (startsWith(fn, "cuda") || startsWith(fn, "__cuda") ||
      startsWith(fn, "_ZN6cudart") ||
      fn.find("__device_stub_") != std::string::npos)
    return true;
  std::string base = llvm::sys::path::filename(f.file).str();
  return endsWith(f.file, ".stub.c") || base == "cuda_runtime.h" ||
         base == "cuda_runtime_api.h" || base == "host_runtime.h" ||
         base == "device_functions.h" || inToolkitHeaders(f.file);
}

std::string frameworkHeaderLibrary(const std::string &file) {
  if (file.find("/torch/include/") != std::string::npos)
    return "PyTorch";
  if (file.find("/site-packages/") != std::string::npos ||
      file.find("/dist-packages/") != std::string::npos)
    return "a Python package";
  if (startsWith(file, "/usr/include/") || file.find("/include/c++/") != std::string::npos)
    return "the C++ library";
  return "";
}

std::optional<SourceSite> pickCallSite(const std::vector<SourceFrame> &frames,
                                       bool *insideLibraryOnly) {
  std::string skipHostStub; // linkage name of the kernel's host stub
  const SourceFrame *library = nullptr; // the library frame just inside
  std::optional<SourceSite> site;
  for (const SourceFrame &f : frames) {
    bool programLine = f.library.empty() && !f.file.empty() && f.line != 0 &&
                       !isRuntimeFrame(f);
    if (site) {
      if (programLine && site->callers.size() < kCallersKept) {
        bool guessed = false;
        site->callers.push_back({mapCudafeName(f.file, guessed), f.line,
                                 llvm::demangle(f.function)});
      }
      continue;
    }
    if (!skipHostStub.empty() && f.function == skipHostStub) {
      skipHostStub.clear();
      continue;
    }
    if (std::string target = deviceStubTarget(f.function); !target.empty())
      skipHostStub = target;
    if (!f.library.empty()) {
      library = &f;
      continue;
    }
    if (!programLine)
      continue;
    site.emplace();
    site->file = mapCudafeName(f.file, site->fileGuessed);
    site->line = f.line;
    site->function = llvm::demangle(f.function);
    if (library) {
      if (!library->function.empty())
        site->libraryCall = libraryCallName(library->function);
      site->library = library->library;
      site->libraryObject = library->object;
      site->libraryAddress = library->objectAddress;
    }
  }
  if (insideLibraryOnly)
    *insideLibraryOnly = !site && library;
  return site;
}

SiteResolver::SiteResolver() {
  llvm::symbolize::LLVMSymbolizer::Options options;
  options.Demangle = false; // the stub rule compares linkage names
  options.UseSymbolTable = true;
  symbolizer_ = std::make_unique<llvm::symbolize::LLVMSymbolizer>(options);
}

SiteResolver::~SiteResolver() = default;

const std::vector<SourceFrame> &
SiteResolver::framesAt(const RawModule &module, std::uintptr_t address) {
  auto key = std::make_pair(module.path, address);
  auto it = cache_.find(key);
  if (it != cache_.end())
    return it->second;
  std::vector<SourceFrame> &frames = cache_[key];
  auto inlined = symbolizer_->symbolizeInlinedCode(
      module.path, {address, llvm::object::SectionedAddress::UndefSection});
  if (!inlined) {
    llvm::consumeError(inlined.takeError());
    return frames;
  }
  for (std::uint32_t i = 0; i < inlined->getNumberOfFrames(); ++i) {
    const llvm::DILineInfo &info = inlined->getFrame(i);
    SourceFrame f;
    if (info.FileName != llvm::DILineInfo::BadString) {
      // A build directory inside the source tree records "build/../src.cu":
      // the merge compares paths, so drop the dots.
      llvm::SmallString<256> clean(info.FileName);
      llvm::sys::path::remove_dots(clean, /*remove_dot_dot=*/true);
      f.file = std::string(clean);
    }
    f.line = info.Line;
    if (info.FunctionName != llvm::DILineInfo::BadString)
      f.function = info.FunctionName;
    f.library = frameworkHeaderLibrary(f.file);
    frames.push_back(std::move(f));
  }
  return frames;
}

std::optional<SourceSite> SiteResolver::resolve(const RawTrace &trace,
                                                const RawSite &site,
                                                bool *insideLibraryOnly) {
  std::vector<SourceFrame> frames;
  for (std::size_t i = 0; i < site.frames.size(); ++i) {
    std::uintptr_t pc = site.frames[i];
    const RawModule *module = nullptr;
    for (const RawModule &m : trace.modules)
      if (pc >= m.start && pc < m.end)
        module = &m;
    if (!module || isCudaModule(module->path))
      continue;
    // Every frame is a return address (captureStack starts at its caller's),
    // pointing after the call: look up the call itself.
    std::uintptr_t address = pc - module->bias - 1;
    if (std::string_view library = api::prebuiltLibraryOf(module->path); !library.empty()) {
      SourceFrame f; // named below, if it turns out to be the call
      f.library = std::string(library);
      f.object = module->path;
      f.objectAddress = address;
      frames.push_back(std::move(f));
      continue;
    }
    const auto &resolved = framesAt(*module, address);
    frames.insert(frames.end(), resolved.begin(), resolved.end());
  }
  std::optional<SourceSite> where = pickCallSite(frames, insideLibraryOnly);
  if (where && where->libraryCall.empty() && !where->libraryObject.empty())
    where->libraryCall =
        libraryCallName(librarySymbols_.functionAt(where->libraryObject, where->libraryAddress));
  return where;
}

} // namespace streamlint::probe

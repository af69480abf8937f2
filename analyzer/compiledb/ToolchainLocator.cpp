// Finding the CUDA toolkit an entry was built with, and clang's resource dir.
// The toolkit the command names wins over the environment: a project built
// with /opt/cuda-12.4/bin/nvcc must be parsed against those headers.
#include "analyzer/compiledb/CompileDatabase.h"
#include "analyzer/compiledb/TranslationParts.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

#include <map>
#include <mutex>

#ifndef STREAMLINT_CLANG_RESOURCE_DIR
#error "STREAMLINT_CLANG_RESOURCE_DIR must come from the build"
#endif

namespace streamlint {
namespace {

bool isToolkit(llvm::StringRef dir) {
  llvm::SmallString<256> header(dir);
  llvm::sys::path::append(header, "include", "cuda.h");
  return !dir.empty() && llvm::sys::fs::exists(header);
}

/// `<cuda>` for `<cuda>/bin/nvcc`, or "" if that is not a toolkit.
std::string toolkitAbove(llvm::StringRef program) {
  llvm::StringRef bin = llvm::sys::path::parent_path(program);
  if (llvm::sys::path::filename(bin) != "bin")
    return "";
  std::string cuda = llvm::sys::path::parent_path(bin).str();
  return isToolkit(cuda) ? cuda : "";
}

/// The toolkit of an nvcc path as the command names it (keeping the user's
/// /usr/local/cuda spelling), else of its resolved target (/usr/bin/nvcc
/// linking into a toolkit); nvcc is looked up on PATH when named bare.
std::string toolkitOfNvcc(llvm::StringRef nvcc) {
  std::string program = nvcc.str();
  if (!nvcc.contains('/')) {
    auto found = llvm::sys::findProgramByName(nvcc);
    if (!found)
      return "";
    program = *found;
  }
  std::string cuda = toolkitAbove(program);
  llvm::SmallString<256> real;
  if (cuda.empty() && !llvm::sys::fs::real_path(program, real))
    cuda = toolkitAbove(real);
  return cuda;
}

std::string cudaPathFromCommand(const CompileEntry &entry) {
  const auto &args = entry.arguments;
  for (size_t i = 0; i < args.size(); ++i) {
    llvm::StringRef arg = args[i];
    if (arg.consume_front("--cuda-path="))
      return compiledb::absolutePath(arg.str(), entry.directory);
    if (arg == "--cuda-path" && i + 1 < args.size())
      return compiledb::absolutePath(args[i + 1], entry.directory);
  }
  auto compiler = compiledb::identifyCompiler(args);
  if (compiler.isNvcc)
    return toolkitOfNvcc(compiler.executable);
  return "";
}

/// CUDA_VERSION from cuda.h (e.g. 13000 = 13.0); 0 if not found.
int readCudaVersion(llvm::StringRef cudaPath) {
  llvm::SmallString<256> header(cudaPath);
  llvm::sys::path::append(header, "include", "cuda.h");
  auto buffer = llvm::MemoryBuffer::getFile(header);
  if (!buffer)
    return 0;
  llvm::StringRef text = (*buffer)->getBuffer();
  size_t at = text.find("#define CUDA_VERSION ");
  if (at == llvm::StringRef::npos)
    return 0;
  int version = 0;
  text.substr(at + 21).ltrim().take_while(llvm::isDigit).getAsInteger(10, version);
  return version;
}

/// nvcc's build number, from the toolkit's pip-style dist-info directory
/// (`nvidia_cuda_nvcc-13.0.88.dist-info`) where the toolkit has one.
int readNvccBuild(llvm::StringRef cudaPath) {
  llvm::SmallString<256> distInfo(cudaPath);
  llvm::sys::path::append(distInfo, "dist-info");
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(distInfo, ec), end;
       !ec && it != end; it.increment(ec)) {
    llvm::StringRef name = llvm::sys::path::filename(it->path());
    if (!name.consume_front("nvidia_cuda_nvcc-") ||
        !name.consume_back(".dist-info"))
      continue;
    int build = 0;
    if (!name.rsplit('.').second.getAsInteger(10, build))
      return build;
  }
  return 0;
}

Toolchain describeToolkit(const std::string &cudaPath) {
  Toolchain toolchain;
  toolchain.clangResourceDir = STREAMLINT_CLANG_RESOURCE_DIR;
  llvm::SmallString<256> wrapper(toolchain.clangResourceDir);
  llvm::sys::path::append(wrapper, "include", "__clang_cuda_runtime_wrapper.h");
  if (!llvm::sys::fs::exists(wrapper))
    toolchain.problems.push_back(
        "clang resource directory " + toolchain.clangResourceDir +
        " has no CUDA wrapper headers; was streamlint built against a "
        "different clang?");
  if (cudaPath.empty()) {
    toolchain.problems.push_back(
        "no CUDA toolkit found (tried --cuda-path, the nvcc of the command, "
        "CUDA_PATH, /usr/local/cuda)");
    return toolchain;
  }
  toolchain.cudaPath = cudaPath;
  int version = readCudaVersion(cudaPath);
  if (version == 0)
    toolchain.problems.push_back(cudaPath + "/include/cuda.h: no CUDA_VERSION");
  toolchain.cudaVersionMajor = version / 1000;
  toolchain.cudaVersionMinor = version % 1000 / 10;
  toolchain.cudaVersionBuild = readNvccBuild(cudaPath);
  return toolchain;
}

} // namespace

Toolchain locateToolchain(const CompileEntry *hint) {
  std::string cudaPath;
  if (hint) {
    std::string fromCommand = cudaPathFromCommand(*hint);
    if (isToolkit(fromCommand))
      cudaPath = fromCommand;
  }
  if (cudaPath.empty()) {
    auto environment = llvm::sys::Process::GetEnv("CUDA_PATH");
    if (environment && isToolkit(*environment))
      cudaPath = *environment;
  }
  if (cudaPath.empty() && isToolkit("/usr/local/cuda"))
    cudaPath = "/usr/local/cuda";
  // Every entry of a database usually names the same toolkit: read it once.
  static std::mutex mutex;
  static std::map<std::string, Toolchain> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto found = cache.find(cudaPath);
  if (found == cache.end())
    found = cache.emplace(cudaPath, describeToolkit(cudaPath)).first;
  return found->second;
}

} // namespace streamlint

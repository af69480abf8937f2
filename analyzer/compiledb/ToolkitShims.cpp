// The parts of the host shim that are read from the toolkit and clang in use
// rather than written down: nvcc's CRT pulls standard headers into every
// CUDA TU (host code calls `isfinite`, `clock`, `memcpy` without including
// them), and clang's CUDA wrapper leaves out the toolkit's sm_30/sm_32
// intrinsic headers, replacing most of their functions but not all
// (`__stcs`, `__stcg`, `__stwb`, `__ldca`, `__ldlu` on CUDA 13), and the
// memory-order enums of crt/device_functions.h that come with nvcc's
// `__nv_atomic_*` builtins.
#include "analyzer/compiledb/TranslationParts.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

namespace streamlint::compiledb {
namespace {

// Standard C and C++ headers; anything else a CRT header includes (crt/...,
// libc++'s <__config>, Windows' <crtdefs.h>) is platform plumbing.
constexpr llvm::StringRef kStandardHeaders[] = {
    "assert.h", "ctype.h", "limits.h", "math.h",  "stdint.h", "stdio.h",
    "stdlib.h", "string.h", "time.h",  "cmath",   "cstdlib",  "cstdio",
    "cstring",  "ctime",   "new",      "climits", "cstdint",  "utility"};

std::string readFile(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

std::string join(llvm::StringRef dir, llvm::StringRef a, llvm::StringRef b = "") {
  llvm::SmallString<256> path(dir);
  // append() adds a separator even for an empty component.
  llvm::sys::path::append(path, a);
  if (!b.empty())
    llvm::sys::path::append(path, b);
  return std::string(path);
}

bool containsWord(llvm::StringRef text, llvm::StringRef word) {
  for (size_t at = text.find(word); at != llvm::StringRef::npos;
       at = text.find(word, at + 1)) {
    bool startOk = at == 0 || !(llvm::isAlnum(text[at - 1]) || text[at - 1] == '_');
    size_t end = at + word.size();
    bool endOk = end >= text.size() || !(llvm::isAlnum(text[end]) || text[end] == '_');
    if (startOk && endOk)
      return true;
  }
  return false;
}

/// The text of clang's own CUDA headers (`__clang_cuda_*.h`): what clang
/// already declares, so the shim leaves it out.
std::string clangCudaHeaders(llvm::StringRef clangResourceDir) {
  std::string text;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(join(clangResourceDir, "include"), ec), end;
       !ec && it != end; it.increment(ec))
    if (llvm::sys::path::filename(it->path()).starts_with("__clang_cuda_"))
      text += readFile(it->path());
  return text;
}

} // namespace

std::vector<std::string> crtSystemHeaders(llvm::StringRef cudaPath) {
  std::vector<std::string> headers;
  llvm::Regex include("^[[:blank:]]*#[[:blank:]]*include[[:blank:]]*<([^>]+)>");
  for (const char *crt : {"common_functions.h", "math_functions.h"}) {
    std::string text = readFile(join(join(cudaPath, "include", "crt"), crt));
    llvm::SmallVector<llvm::StringRef, 0> lines;
    llvm::StringRef(text).split(lines, '\n');
    for (llvm::StringRef line : lines) {
      llvm::SmallVector<llvm::StringRef, 2> match;
      if (!include.match(line, &match) ||
          !llvm::is_contained(kStandardHeaders, match[1]) ||
          llvm::is_contained(headers, match[1].str()))
        continue;
      headers.push_back(match[1].str());
    }
  }
  return headers;
}

std::string missingIntrinsicDeclarations(llvm::StringRef cudaPath,
                                         llvm::StringRef clangResourceDir) {
  std::string clangHeaders = clangCudaHeaders(clangResourceDir);
  std::error_code ec;
  std::string clangInclude = join(clangResourceDir, "include");
  if (clangHeaders.empty())
    return "";
  std::string wrapper =
      readFile(join(clangInclude, "__clang_cuda_runtime_wrapper.h"));

  // `__SM_32_INTRINSICS_DECL__ void __stcs(float *ptr, float value) __DEF_IF_HOST`
  llvm::Regex declaration("^__SM_[0-9]+_INTRINSICS_DECL__[[:blank:]]+(.*[^_A-Za-z0-9])"
                          "([_A-Za-z][_A-Za-z0-9]*)[[:blank:]]*\\(([^()]*)\\)[[:blank:]]*"
                          "__DEF_IF_HOST");
  std::string text;
  std::string include = join(cudaPath, "include");
  std::vector<std::string> intrinsicHeaders;
  for (llvm::sys::fs::directory_iterator it(include, ec), end;
       !ec && it != end; it.increment(ec)) {
    llvm::StringRef name = llvm::sys::path::filename(it->path());
    if (name.starts_with("sm_") && name.ends_with("_intrinsics.h"))
      intrinsicHeaders.push_back(it->path());
  }
  llvm::sort(intrinsicHeaders);
  for (const std::string &header : intrinsicHeaders) {
    // Headers the wrapper includes are there already, whole.
    llvm::StringRef stem = llvm::sys::path::stem(header);
    if (wrapper.find("#include \"" + stem.str() + ".h") != std::string::npos ||
        wrapper.find("#include \"" + stem.str() + ".hpp") != std::string::npos)
      continue;
    std::string source = readFile(header);
    llvm::SmallVector<llvm::StringRef, 0> lines;
    llvm::StringRef(source).split(lines, '\n');
    for (llvm::StringRef line : lines) {
      llvm::SmallVector<llvm::StringRef, 4> match;
      if (!declaration.match(line, &match) ||
          containsWord(clangHeaders, match[2]))
        continue;
      text += "__attribute__((device)) " + match[1].trim().str() + " " +
              match[2].str() + "(" + match[3].str() + ");\n";
    }
  }
  return text;
}

std::string atomicBuiltinDeclarations(llvm::StringRef cudaPath,
                                      llvm::StringRef clangResourceDir) {
  // crt/device_functions.h: `enum { __NV_ATOMIC_RELAXED, ... };` and
  // `enum { __NV_THREAD_SCOPE_THREAD, ... };`, in a part clang's wrapper
  // does not include.
  std::string source = readFile(join(join(cudaPath, "include", "crt"), "device_functions.h"));
  std::string clangHeaders = clangCudaHeaders(clangResourceDir);
  llvm::Regex enumBlock("enum[[:space:]]*\\{([^}]*)\\}[[:space:]]*;");
  std::string enums;
  llvm::StringRef rest = source;
  llvm::SmallVector<llvm::StringRef, 2> match;
  while (enumBlock.match(rest, &match)) {
    llvm::StringRef body = match[1];
    bool ours = containsWord(body, "__NV_ATOMIC_RELAXED") ||
                containsWord(body, "__NV_THREAD_SCOPE_DEVICE");
    if (ours && !containsWord(clangHeaders, body.contains("__NV_ATOMIC_RELAXED")
                                                ? "__NV_ATOMIC_RELAXED"
                                                : "__NV_THREAD_SCOPE_DEVICE"))
      enums += "enum {" + body.str() + "};\n";
    rest = rest.substr(rest.find(match[0]) + match[0].size());
  }
  if (enums.empty())
    return ""; // a toolkit before the builtins, or a clang that has them
  // nvcc's builtins (CUDA C++ Programming Guide, "Atomic Functions"): no
  // header declares them. Loose templates: only their calls must parse.
  std::string text = enums;
  const char *scope = "int __scope = __NV_THREAD_SCOPE_SYSTEM";
  auto declare = [&](const std::string &result, const std::string &name,
                     const std::string &params) {
    text += "template <typename __T, typename __U = __T, typename __V = __T> "
            "__attribute__((device)) " + result + " " + name + "(" + params + ", " +
            scope + ");\n";
  };
  declare("void", "__nv_atomic_load", "__T *, __U *, int");
  declare("__T", "__nv_atomic_load_n", "__T *, int");
  declare("void", "__nv_atomic_store", "__T *, __U *, int");
  declare("void", "__nv_atomic_store_n", "__T *, __U, int");
  declare("void", "__nv_atomic_exchange", "__T *, __U *, __V *, int");
  declare("__T", "__nv_atomic_exchange_n", "__T *, __U, int");
  declare("bool", "__nv_atomic_compare_exchange", "__T *, __U *, __V *, bool, int, int");
  declare("bool", "__nv_atomic_compare_exchange_n", "__T *, __U *, __V, bool, int, int");
  for (const char *op : {"add", "sub", "and", "or", "xor", "min", "max"}) {
    declare("__T", std::string("__nv_atomic_fetch_") + op, "__T *, __U, int");
    declare("void", std::string("__nv_atomic_") + op, "__T *, __U, int");
  }
  text += "__attribute__((device)) void __nv_atomic_thread_fence(int, " + std::string(scope) +
          ");\n";
  return text;
}

} // namespace streamlint::compiledb

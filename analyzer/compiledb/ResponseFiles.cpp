// Response files: gcc/clang's `@file` and nvcc's `--options-file`/`-optf`.
// CMake's nvcc rules put all include paths there (`-I"DIR"`, quoted), so a
// missing expansion loses every include path of the TU.
#include "analyzer/compiledb/TranslationParts.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/StringSaver.h"

namespace streamlint::compiledb {
namespace {

// Response files that include each other would otherwise loop forever.
constexpr int kMaxNesting = 16;

void expandInto(const std::vector<std::string> &args, size_t from,
                const std::string &directory, bool isNvcc, int depth,
                std::vector<std::string> &out,
                std::vector<std::string> &warnings);

void expandFile(const std::string &name, const std::string &directory,
                bool isNvcc, int depth, std::vector<std::string> &out,
                std::vector<std::string> &warnings) {
  std::string path = absolutePath(name, directory);
  if (depth >= kMaxNesting) {
    warnings.push_back(path + ": response files nested too deeply");
    return;
  }
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    warnings.push_back(path + ": cannot read response file: " +
                       buffer.getError().message());
    return;
  }
  llvm::BumpPtrAllocator alloc;
  llvm::StringSaver saver(alloc);
  llvm::SmallVector<const char *, 64> tokens;
  llvm::cl::TokenizeGNUCommandLine((*buffer)->getBuffer(), saver, tokens,
                                   /*MarkEOLs=*/false);
  std::vector<std::string> inner(tokens.begin(), tokens.end());
  expandInto(inner, 0, directory, isNvcc, depth + 1, out, warnings);
}

void expandInto(const std::vector<std::string> &args, size_t from,
                const std::string &directory, bool isNvcc, int depth,
                std::vector<std::string> &out,
                std::vector<std::string> &warnings) {
  for (size_t i = from; i < args.size(); ++i) {
    llvm::StringRef arg = args[i];
    if (arg.size() > 1 && arg.starts_with("@")) {
      expandFile(arg.drop_front().str(), directory, isNvcc, depth, out,
                 warnings);
      continue;
    }
    if (isNvcc) {
      llvm::StringRef name = arg.starts_with("--") ? arg.drop_front(2)
                             : arg.starts_with("-") ? arg.drop_front(1)
                                                    : llvm::StringRef();
      auto [key, value] = name.split('=');
      if (key == "options-file" || key == "optf") {
        if (name.contains('=')) {
          expandFile(value.str(), directory, isNvcc, depth, out, warnings);
        } else if (i + 1 < args.size()) {
          expandFile(args[++i], directory, isNvcc, depth, out, warnings);
        }
        continue;
      }
    }
    out.push_back(arg.str());
  }
}

} // namespace

std::vector<std::string> expandResponseFiles(const std::vector<std::string> &args,
                                             const std::string &directory,
                                             bool isNvcc,
                                             std::vector<std::string> &warnings) {
  std::vector<std::string> out;
  if (args.empty())
    return out;
  out.push_back(args.front()); // argv0 is never a response file
  expandInto(args, 1, directory, isNvcc, 0, out, warnings);
  return out;
}

} // namespace streamlint::compiledb

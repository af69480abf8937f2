// Response files: gcc/clang's `@file` and nvcc's `--options-file`/`-optf`.
// CMake's nvcc rules put all include paths there (`-I"DIR"`, quoted), so a
// missing expansion loses every include path of the TU: like nvcc ("Could
// not open options file"), we treat a file that cannot be expanded as an
// error of the entry, never as something to analyze around silently.
#include "analyzer/compiledb/TranslationParts.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/StringSaver.h"

namespace streamlint::compiledb {
namespace {

// Distinct files nested deeper than this are almost certainly generated
// wrongly; a cycle is caught before, by name.
constexpr size_t kMaxNesting = 16;

class ResponseFileExpander {
public:
  ResponseFileExpander(const std::string &directory, bool isNvcc,
                       std::vector<std::string> &errors)
      : directory(directory), isNvcc(isNvcc), errors(errors) {}

  void expandInto(const std::vector<std::string> &args, size_t from,
                  std::vector<std::string> &out) {
    for (size_t i = from; i < args.size(); ++i) {
      llvm::StringRef arg = args[i];
      if (arg.size() > 1 && arg.starts_with("@")) {
        expandFile("@", arg.drop_front().str(), out);
        continue;
      }
      if (isNvcc) {
        llvm::StringRef name = arg.starts_with("--") ? arg.drop_front(2)
                               : arg.starts_with("-") ? arg.drop_front(1)
                                                      : llvm::StringRef();
        auto [key, value] = name.split('=');
        if (key == "options-file" || key == "optf") {
          std::string flag = arg.split('=').first.str();
          if (name.contains('='))
            expandFile(flag + "=", value.str(), out);
          else if (i + 1 < args.size())
            expandFile(flag + " ", args[++i], out);
          else
            errors.push_back(flag + ": no file named after it");
          continue;
        }
      }
      out.push_back(arg.str());
    }
  }

private:
  void expandFile(const std::string &spelling, const std::string &name,
                  std::vector<std::string> &out) {
    std::string path = absolutePath(name, directory);
    std::string what = "'" + spelling + name + "' (" + path + ")";
    llvm::SmallString<256> real;
    std::string identity =
        llvm::sys::fs::real_path(path, real) ? path : std::string(real);
    if (auto cycle = llvm::find(active, identity); cycle != active.end()) {
      if (cycle + 1 == active.end()) {
        errors.push_back(what + ": the options file refers to itself");
      } else {
        std::vector<std::string> chain(cycle, active.end());
        chain.push_back(identity);
        errors.push_back(what + ": options files refer to each other in a "
                         "cycle: " + llvm::join(chain, " -> "));
      }
      return;
    }
    if (active.size() >= kMaxNesting) {
      errors.push_back(what + ": response files nested too deeply (more than " +
                       std::to_string(kMaxNesting) + ")");
      return;
    }
    // Only regular files: a directory cannot be read, and a device or FIFO
    // (/dev/zero, /dev/stdin) would never end or would block.
    llvm::sys::fs::file_status status;
    if (!llvm::sys::fs::status(path, status) &&
        status.type() != llvm::sys::fs::file_type::regular_file) {
      errors.push_back(what + ": cannot open options file: " +
                       (status.type() == llvm::sys::fs::file_type::directory_file
                            ? "it is a directory"
                            : "not a regular file"));
      return;
    }
    auto buffer = llvm::MemoryBuffer::getFile(path);
    if (!buffer) {
      errors.push_back(what + ": cannot open options file: " +
                       buffer.getError().message());
      return;
    }
    llvm::BumpPtrAllocator alloc;
    llvm::StringSaver saver(alloc);
    llvm::SmallVector<const char *, 64> tokens;
    llvm::cl::TokenizeGNUCommandLine((*buffer)->getBuffer(), saver, tokens,
                                     /*MarkEOLs=*/false);
    std::vector<std::string> inner(tokens.begin(), tokens.end());
    active.push_back(identity);
    expandInto(inner, 0, out);
    active.pop_back();
  }

  const std::string &directory;
  bool isNvcc;
  std::vector<std::string> &errors;
  std::vector<std::string> active; // the files being expanded, outermost first
};

} // namespace

std::vector<std::string> expandResponseFiles(const std::vector<std::string> &args,
                                             const std::string &directory,
                                             bool isNvcc,
                                             std::vector<std::string> &errors) {
  std::vector<std::string> out;
  if (args.empty())
    return out;
  out.push_back(args.front()); // argv0 is never a response file
  ResponseFileExpander(directory, isNvcc, errors).expandInto(args, 1, out);
  return out;
}

} // namespace streamlint::compiledb

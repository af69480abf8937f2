// nvcc flags in clang's terms (docs/compile-database.md).
// One table says what each nvcc option means; anything not in it is dropped
// and recorded, never passed on: clang rejects or misreads nvcc spellings
// (`-arch=native` becomes `-march`).
#include "analyzer/compiledb/TranslationParts.h"

#include <algorithm>

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/StringSaver.h"

namespace streamlint::compiledb {

std::vector<std::string> splitHostCompilerOptions(llvm::StringRef value) {
  // nvcc first splits the value on commas, a backslash escaping the next
  // character (`\,` is a comma), then pastes the pieces, space-separated,
  // into the shell command that runs the host compiler: the shell splits
  // on blanks and removes quotes. Seen with `nvcc --dryrun` (CUDA 13.0):
  // -Xcompiler "-DA='a,b'" reaches gcc as -DA='a b', one argument.
  std::string joined;
  for (size_t i = 0; i < value.size(); ++i) {
    if (value[i] == '\\' && i + 1 < value.size())
      joined += value[++i];
    else
      joined += value[i] == ',' ? ' ' : value[i];
  }
  llvm::BumpPtrAllocator alloc;
  llvm::StringSaver saver(alloc);
  llvm::SmallVector<const char *, 8> tokens;
  llvm::cl::TokenizeGNUCommandLine(joined, saver, tokens);
  return {tokens.begin(), tokens.end()};
}

namespace {

enum class Action {
  Drop,             // no meaning for parsing (codegen, linking, nvcc's own warnings)
  IncludePath,      // -I
  SystemInclude,    // -isystem
  Define,           // -D
  Undefine,         // -U
  PreInclude,       // -include
  Standard,         // -std
  Optimize,         // -O
  Language,         // -x
  GpuArch,          // -arch, -code, -gencode
  Rdc,              // -rdc=true|false
  RdcOn,            // -dc
  RelaxedConstexpr, // --expt-relaxed-constexpr
  ExtendedLambda,   // --extended-lambda
  DefaultStream,    // --default-stream legacy|null|per-thread
  HostFlags,        // -Xcompiler X,Y
  PassThrough,      // same spelling in clang (-m64, -w)
  WarningAsError,   // -Werror <kind>: value optional in practice
};

struct NvccOption {
  llvm::StringRef name; // without leading dashes
  Action action;
  bool takesValue;
};

// nvcc accepts both `-name` and `--name` for its long options; short and long
// spellings of one option are listed side by side.
constexpr NvccOption kOptions[] = {
    {"I", Action::IncludePath, true},
    {"include-path", Action::IncludePath, true},
    {"isystem", Action::SystemInclude, true},
    {"system-include", Action::SystemInclude, true},
    {"D", Action::Define, true},
    {"define-macro", Action::Define, true},
    {"U", Action::Undefine, true},
    {"undefine-macro", Action::Undefine, true},
    {"include", Action::PreInclude, true},
    {"pre-include", Action::PreInclude, true},
    {"std", Action::Standard, true},
    {"O", Action::Optimize, true},
    {"optimize", Action::Optimize, true},
    {"x", Action::Language, true},
    {"arch", Action::GpuArch, true},
    {"gpu-architecture", Action::GpuArch, true},
    {"code", Action::GpuArch, true},
    {"gpu-code", Action::GpuArch, true},
    {"gencode", Action::GpuArch, true},
    {"generate-code", Action::GpuArch, true},
    {"rdc", Action::Rdc, true},
    {"relocatable-device-code", Action::Rdc, true},
    {"dc", Action::RdcOn, false},
    {"device-c", Action::RdcOn, false},
    {"expt-relaxed-constexpr", Action::RelaxedConstexpr, false},
    {"extended-lambda", Action::ExtendedLambda, false},
    {"expt-extended-lambda", Action::ExtendedLambda, false},
    {"default-stream", Action::DefaultStream, true},
    {"Xcompiler", Action::HostFlags, true},
    {"compiler-options", Action::HostFlags, true},
    {"m64", Action::PassThrough, false},
    {"m32", Action::PassThrough, false},
    {"w", Action::PassThrough, false},
    {"disable-warnings", Action::PassThrough, false},
    {"Werror", Action::WarningAsError, true},
    // Dropped, with their value.
    {"o", Action::Drop, true},
    {"output-file", Action::Drop, true},
    {"ccbin", Action::Drop, true},
    {"compiler-bindir", Action::Drop, true},
    {"MF", Action::Drop, true},
    {"dependency-output", Action::Drop, true},
    {"MT", Action::Drop, true},
    {"dependency-target-name", Action::Drop, true},
    {"Xptxas", Action::Drop, true},
    {"ptxas-options", Action::Drop, true},
    {"Xnvlink", Action::Drop, true},
    {"nvlink-options", Action::Drop, true},
    {"Xfatbin", Action::Drop, true},
    {"fatbin-options", Action::Drop, true},
    {"Xarchive", Action::Drop, true},
    {"archive-options", Action::Drop, true},
    {"Xlinker", Action::Drop, true},
    {"linker-options", Action::Drop, true},
    {"Xcudafe", Action::Drop, true},
    {"diag-suppress", Action::Drop, true},
    {"diag_suppress", Action::Drop, true},
    {"diag-warn", Action::Drop, true},
    {"diag_warn", Action::Drop, true},
    {"diag-error", Action::Drop, true},
    {"diag_error", Action::Drop, true},
    {"diag-default", Action::Drop, true},
    {"maxrregcount", Action::Drop, true},
    {"ftz", Action::Drop, true},
    {"prec-div", Action::Drop, true},
    {"prec-sqrt", Action::Drop, true},
    {"fmad", Action::Drop, true},
    {"cudart", Action::Drop, true},
    {"cudadevrt", Action::Drop, true},
    {"L", Action::Drop, true},
    {"library-path", Action::Drop, true},
    {"l", Action::Drop, true},
    {"library", Action::Drop, true},
    {"keep-dir", Action::Drop, true},
    {"odir", Action::Drop, true},
    {"output-directory", Action::Drop, true},
    {"threads", Action::Drop, true},
    {"t", Action::Drop, true},
    {"split-compile", Action::Drop, true},
    {"time", Action::Drop, true},
    {"dopt", Action::Drop, true},
    {"static-global-template-stub", Action::Drop, true},
    {"device-stack-protector", Action::Drop, true},
    {"run-args", Action::Drop, true},
    // Dropped, no value.
    {"forward-unknown-to-host-compiler", Action::Drop, false},
    {"forward-unknown-to-host-linker", Action::Drop, false},
    {"use_fast_math", Action::Drop, false},
    {"use-fast-math", Action::Drop, false},
    {"lineinfo", Action::Drop, false},
    {"generate-line-info", Action::Drop, false},
    {"G", Action::Drop, false},
    {"device-debug", Action::Drop, false},
    {"g", Action::Drop, false},
    {"debug", Action::Drop, false},
    {"keep", Action::Drop, false},
    {"c", Action::Drop, false},
    {"compile", Action::Drop, false},
    {"MD", Action::Drop, false},
    {"MMD", Action::Drop, false},
    {"M", Action::Drop, false},
    {"MM", Action::Drop, false},
    {"MP", Action::Drop, false},
    {"generate-dependencies-with-compile", Action::Drop, false},
    {"generate-nonsystem-dependencies-with-compile", Action::Drop, false},
    {"v", Action::Drop, false},
    {"verbose", Action::Drop, false},
    {"lib", Action::Drop, false},
    {"dlink", Action::Drop, false},
    {"device-link", Action::Drop, false},
    {"dw", Action::Drop, false},
    {"device-w", Action::Drop, false},
    {"cubin", Action::Drop, false},
    {"ptx", Action::Drop, false},
    {"fatbin", Action::Drop, false},
    {"dlto", Action::Drop, false},
    {"restrict", Action::Drop, false},
    {"src-in-ptx", Action::Drop, false},
    {"source-in-ptx", Action::Drop, false},
    {"res-usage", Action::Drop, false},
    {"resource-usage", Action::Drop, false},
    {"extra-device-vectorization", Action::Drop, false},
    {"ewp", Action::Drop, false},
    {"extensible-whole-program", Action::Drop, false},
    {"display-error-number", Action::Drop, false},
    {"no-display-error-number", Action::Drop, false},
    {"allow-unsupported-compiler", Action::Drop, false},
    {"pg", Action::Drop, false},
    {"shared", Action::Drop, false},
};

const NvccOption *findOption(llvm::StringRef name) {
  for (const auto &option : kOptions)
    if (option.name == name)
      return &option;
  return nullptr;
}

// Single-letter options nvcc also accepts with the value attached (-Ifoo).
constexpr llvm::StringRef kAttachedValueOptions[] = {"I", "D", "U", "O", "L", "l"};

// Host-compiler flags that change how code parses; with
// -forward-unknown-to-host-compiler nvcc hands them to the host compiler.
bool isForwardableHostFlag(llvm::StringRef flag) {
  static constexpr llvm::StringRef kExact[] = {
      "-pthread", "-fopenmp", "-fno-exceptions", "-fexceptions",
      "-fno-rtti", "-frtti", "-fsigned-char", "-funsigned-char",
      "-fPIC", "-fpic", "-mfma"};
  if (llvm::is_contained(kExact, flag))
    return true;
  return flag.starts_with("-march=") || flag.starts_with("-mtune=") ||
         flag.starts_with("-mavx") || flag.starts_with("-msse") ||
         flag.starts_with("-fvisibility=");
}

std::string normalizeLanguage(llvm::StringRef value) {
  if (value == "cu" || value == "cuda")
    return "cuda";
  if (value == "c")
    return "c";
  return "c++"; // nvcc's -x c++, and anything else it hands to the host compiler
}

class NvccTranslator {
public:
  NvccTranslator(const std::string &directory, const std::string &mainFile)
      : directory(directory), mainFile(mainFile) {}

  TranslatedFlags run(const std::vector<std::string> &args, size_t first) {
    for (size_t i = first; i < args.size(); ++i)
      i = handle(args, i);
    out.gpuArch = pickGpuArch(archValues);
    if (rdc)
      out.flags.push_back("-fgpu-rdc");
    return std::move(out);
  }

private:
  /// Handles args[i]; returns the index of the last argument consumed.
  size_t handle(const std::vector<std::string> &args, size_t i) {
    llvm::StringRef arg = args[i];
    if (!arg.starts_with("-") || arg == "-") {
      if (absolutePath(arg.str(), directory) != mainFile)
        out.droppedFlags.push_back(arg.str()); // a second input
      return i;
    }
    llvm::StringRef name = arg.drop_front(arg.starts_with("--") ? 2 : 1);
    auto [key, inlineValue] = name.split('=');
    bool hasInlineValue = name.contains('=');
    const NvccOption *option = findOption(key);
    if (!option) {
      for (llvm::StringRef letter : kAttachedValueOptions) {
        if (!arg.starts_with("--") && name.size() > 1 &&
            name.starts_with(letter)) {
          option = findOption(letter);
          inlineValue = name.drop_front(1);
          hasInlineValue = true;
          break;
        }
      }
    }
    if (!option) {
      if (forwardUnknown && isForwardableHostFlag(arg))
        out.flags.push_back(arg.str());
      else if (key.starts_with("W")) // nvcc's and the host's warning flags
        return i;
      else
        out.droppedFlags.push_back(arg.str());
      return i;
    }
    if (key == "forward-unknown-to-host-compiler")
      forwardUnknown = true;
    std::string value;
    if (option->takesValue) {
      if (hasInlineValue) {
        value = inlineValue.str();
      } else if (option->action == Action::WarningAsError) {
        // `-Werror all-warnings`; a bare -Werror takes nothing.
        if (i + 1 < args.size() && !llvm::StringRef(args[i + 1]).starts_with("-"))
          ++i;
        return i;
      } else if (i + 1 < args.size()) {
        value = args[++i];
      } else {
        out.droppedFlags.push_back(arg.str());
        return i;
      }
    }
    apply(*option, value);
    return i;
  }

  void apply(const NvccOption &option, const std::string &value) {
    switch (option.action) {
    case Action::Drop:
    case Action::WarningAsError:
      return;
    case Action::IncludePath:
      out.flags.push_back("-I" + absolutePath(value, directory));
      return;
    case Action::SystemInclude:
      out.flags.push_back("-isystem");
      out.flags.push_back(absolutePath(value, directory));
      return;
    case Action::Define:
      out.flags.push_back("-D" + value);
      return;
    case Action::Undefine:
      out.flags.push_back("-U" + value);
      return;
    case Action::PreInclude:
      out.flags.push_back("-include");
      out.flags.push_back(forcedIncludePath(value, directory));
      return;
    case Action::Standard:
      out.flags.push_back("-std=" + value);
      return;
    case Action::Optimize:
      out.flags.push_back("-O" + value);
      return;
    case Action::Language:
      out.language = normalizeLanguage(value);
      return;
    case Action::GpuArch:
      archValues.push_back(value);
      return;
    case Action::Rdc:
      rdc = value == "true";
      return;
    case Action::RdcOn:
      rdc = true;
      return;
    case Action::RelaxedConstexpr:
      out.flags.push_back("-D__CUDACC_RELAXED_CONSTEXPR__");
      return;
    case Action::ExtendedLambda:
      out.flags.push_back("-D__CUDACC_EXTENDED_LAMBDA__");
      return;
    case Action::DefaultStream:
      if (value == "per-thread")
        out.flags.push_back("-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1");
      else if (value != "legacy" && value != "null")
        out.droppedFlags.push_back("--default-stream=" + value);
      return;
    case Action::HostFlags: {
      appendHostFlags(splitHostCompilerOptions(value), directory, out);
      return;
    }
    case Action::PassThrough:
      out.flags.push_back(option.name == "disable-warnings"
                              ? "-w"
                              : "-" + option.name.str());
      return;
    }
  }

  const std::string &directory;
  const std::string &mainFile;
  TranslatedFlags out;
  std::vector<std::string> archValues;
  bool rdc = false;
  bool forwardUnknown = false;
};

} // namespace

TranslatedFlags translateNvccFlags(const std::vector<std::string> &args,
                                   size_t first, const std::string &directory,
                                   const std::string &mainFile) {
  // -forward-unknown-to-host-compiler may come after the flags it affects.
  NvccTranslator translator(directory, mainFile);
  std::vector<std::string> ordered(args);
  auto forward = std::find_if(
      ordered.begin() + std::min(first, ordered.size()), ordered.end(),
      [](llvm::StringRef arg) {
        return arg.ltrim('-') == "forward-unknown-to-host-compiler";
      });
  if (forward != ordered.end() && forward != ordered.begin() + first)
    std::rotate(ordered.begin() + first, forward, forward + 1);
  return translator.run(ordered, first);
}

} // namespace streamlint::compiledb

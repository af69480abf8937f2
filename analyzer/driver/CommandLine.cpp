#include "analyzer/driver/CommandLine.h"
#include "analyzer/driver/ReportPolicy.h"

#include "clang/Basic/Version.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

namespace streamlint {
namespace {

namespace cl = llvm::cl;

cl::OptionCategory category("streamlint options");

const char *const overview = R"(streamlint: find CUDA stream misuse in host code.

Reads a compile database (compile_commands.json written by CMake with nvcc or
clang, Bear or Bazel), parses the host side of each translation unit with
clang and reports implicit legacy-default-stream work, device-wide
synchronization and allocations on hot paths, pageable memory in async copies
and CUDA calls inside host callbacks.
)";

const char *const moreHelp = R"(
Examples:
  streamlint -p build/
  streamlint -p build/ src/a.cu src/b.cu
  streamlint -p build/ -j 8 --format sarif -o streamlint.sarif
  streamlint -p build/ --checks='-*,default-stream' --format json
  streamlint -p build/ --min-severity=warning --diff-base=origin/main
  streamlint -p build/ --shard=1/2 -o shard-1.json    # CI: one job per shard,
  streamlint -p build/ --merge-shards shard-*.json --format sarif -o out.sarif

Output formats (--format):
  text    clang-style "file:line:col: warning: message [check-id]" with the
          source line and a caret; colors on a terminal only
  json    stable schema, see docs/output-formats.md
  sarif   SARIF 2.1.0 for GitHub code scanning and editors
  github  GitHub Actions workflow annotations
  gitlab  GitLab Code Quality report

Configuration (.streamlint.yaml or .streamlint.json, see docs/configuration.md):
  For each analyzed file the nearest config file in its directory or a parent
  applies (parents too while it says InheritParentConfig: true):
    Checks: '-*,device-sync'              # like --checks
    CheckOptions: {device-sync.Name: value}
    HeaderFilterRegex: 'src/.*'           # findings in other headers dropped
    ExcludePaths: ['third_party/*']       # relative to the config file
  The command line wins: --checks is appended to Checks, --check-option and
  --header-filter replace. --dump-config prints the result.

Suppressing a finding: // NOLINT, // NOLINT(check-id), // NOLINTNEXTLINE(...),
// NOLINTBEGIN(...) ... // NOLINTEND(...); check lists take globs and the
optional "streamlint-" prefix (docs/suppressions.md).

Adopting streamlint on existing code (docs/baseline.md):
  streamlint -p build/ --write-baseline streamlint-baseline.json
  streamlint -p build/ --baseline streamlint-baseline.json   # new findings only
  --baseline also reads a previous --format=sarif report. Findings are matched
  by fingerprint (check, file, statement text, function), not by line.

In GitHub Actions, --format github also appends a table of all findings to
$GITHUB_STEP_SUMMARY.

Exit codes:
  0  no warnings (notes alone do not fail); --write-baseline wrote them
  1  at least one warning or error finding (at or above --min-severity; on
     a changed line with --diff-base/--diff-file)
  2  usage or input error (bad option, unreadable or malformed compile
     database or config file, a named file with no entry, unreadable trace,
     a bad diff; a check selection that enables no check or names one that
     does not exist: no silent green run, --allow-no-checks permits none)
  3  some translation unit could not be analyzed fully (compile errors);
     the others were analyzed and reported. The report says which TUs and
     whether clang stopped at a fatal error (a missing include, too many
     errors: findings after it are likely missing) or recovered.
     --partial-analysis=warn keeps reporting them but exits 0/1 by the
     findings alone (docs/compile-database.md, "Exit 3 in CI").
  4  --fix/--fix-dry-run: some applicable fix was not applied (the file
     changed since the analysis, is read-only, is outside --fix-root,
     conflicts with another fix, or could not be written); the summary line
     says how many and why. 2 and 3 take precedence over 4, and 4 over 1.

Without file arguments, translation units that include no CUDA header and call
no CUDA API are skipped and counted in the summary; --all-translation-units
analyzes them too.
)";

cl::opt<std::string> buildPath("p", cl::desc("Build directory holding compile_commands.json "
                                             "(default: search up from the current directory)"),
                               cl::value_desc("build-path"), cl::cat(category));
cl::list<std::string> sourceFiles(cl::Positional, cl::desc("[<source>...]"),
                                  cl::cat(category));
cl::opt<std::string> checks("checks", cl::desc("Comma-separated globs of checks to run; "
                                               "'-' disables (e.g. '-*,default-stream')"),
                            cl::init("*"), cl::cat(category));
cl::opt<bool> allowNoChecks(
    "allow-no-checks",
    cl::desc("A check selection that enables no check is not an error (as clang-tidy's "
             "--allow-no-checks): parse only"),
    cl::cat(category));
cl::opt<bool> listChecks("list-checks", cl::desc("List the checks and exit"),
                         cl::cat(category));
cl::opt<bool> fix("fix", cl::desc("Apply the fixes of findings to files under the project root "
                                   "(see --fix-root; each file replaced atomically, only if "
                                   "unchanged since the analysis)"),
                  cl::cat(category));
cl::opt<bool> fixDryRun("fix-dry-run",
                        cl::desc("Print the fixes --fix would apply as a unified diff on "
                                 "stdout; change nothing"),
                        cl::cat(category));
cl::opt<bool> fixNotes("fix-notes",
                       cl::desc("With --fix, --fix-dry-run or --export-fixes: also apply "
                                "the first suggested fix of a finding that has no applicable "
                                "fix (as clang-tidy's --fix-notes); such fixes may change "
                                "stream ordering: review the diff"),
                       cl::cat(category));
cl::opt<std::string> fixRoot("fix-root",
                             cl::desc("Fixes may only edit files under this directory (default: "
                                      "the source tree of the compile database's files, widened "
                                      "to its git/hg/svn checkout)"),
                             cl::value_desc("dir"), cl::cat(category));
cl::opt<std::string> exportFixes("export-fixes",
                                 cl::desc("Write the fixes as YAML for clang-apply-replacements"),
                                 cl::value_desc("file"), cl::cat(category));
cl::opt<bool> showCommands("show-commands",
                           cl::desc("Print the clang command line used for each translation "
                                    "unit (after nvcc translation) and exit"),
                           cl::cat(category));
cl::opt<std::string> configFile("config-file",
                               cl::desc("Use this config file for every file instead of "
                                        "searching for .streamlint.yaml/.json"),
                               cl::value_desc("path"), cl::cat(category));
cl::opt<bool> dumpConfigOption("dump-config",
                               cl::desc("Print the effective configuration (for the first named "
                                        "file, else the current directory) as YAML and exit"),
                               cl::cat(category));
cl::opt<std::string> headerFilter("header-filter",
                                  cl::desc("Report findings in headers whose path matches this "
                                           "regex (overrides HeaderFilterRegex)"),
                                  cl::value_desc("regex"), cl::cat(category));
cl::opt<bool> thirdPartyHeaders(
    "third-party-headers",
    cl::desc("Report findings in headers outside the project (a framework's include "
             "directory passed with -I); by default they are hidden and counted, unless "
             "a header filter is set"),
    cl::cat(category));
cl::opt<bool> skipFilesNotInDatabase(
    "skip-files-not-in-database",
    cl::desc("Named files without a compile database entry (headers, new files) are "
             "skipped with one line on stderr instead of being an error"),
    cl::cat(category));
cl::list<std::string> checkOptions("check-option",
                                   cl::desc("Set a check option: <check-id>.<Name>=<value>"),
                                   cl::value_desc("id.Name=value"), cl::cat(category));
cl::opt<std::string> format("format", cl::desc("Output format: text, json, sarif, github, gitlab"),
                            cl::init("text"), cl::cat(category));
cl::opt<std::string> output("o", cl::desc("Write the report to <file> instead of stdout"),
                            cl::value_desc("file"), cl::cat(category));
cl::alias outputLong("output", cl::aliasopt(output));
cl::opt<unsigned> jobs("j", cl::Prefix, cl::desc("Translation units analyzed in parallel (default: all cores)"),
                       cl::init(0), cl::cat(category));
cl::list<std::string> extraArgs("extra-arg", cl::desc("Append an argument to every compile command"),
                                cl::cat(category));
cl::list<std::string> extraArgsBefore("extra-arg-before",
                                      cl::desc("Prepend an argument to every compile command"),
                                      cl::cat(category));
cl::list<std::string> trace("trace",
                            cl::desc("Merge runtime traces written by streamlint-probe "
                                     "(repeatable; a directory: its *.trace files)"),
                            cl::value_desc("file|dir"), cl::cat(category));
cl::opt<std::string> baseline("baseline",
                              cl::desc("Report only findings not in this earlier "
                                       "--format=json/sarif report or --write-baseline file"),
                              cl::value_desc("file"), cl::cat(category));
cl::opt<std::string> writeBaseline("write-baseline",
                                   cl::desc("Write all current findings (JSON) for a later "
                                            "--baseline"),
                                   cl::value_desc("file"), cl::cat(category));
cl::opt<cl::boolOrDefault> useColor("use-color",
                                   cl::desc("Colors in text output (default: only on a terminal); "
                                            "--use-color=false turns them off"),
                                   cl::cat(category));
cl::opt<bool> strict("strict",
                     cl::desc("Set every check's strictness options: also report, as "
                              "notes, what cannot be decided (an async copy whose host "
                              "memory is of unknown origin) or is legal but costly "
                              "(default-stream use in a per-thread-default-stream build)"),
                     cl::cat(category));
cl::opt<std::string> partialAnalysis(
    "partial-analysis",
    cl::desc("What a translation unit that could not be analyzed fully does to the exit "
             "code: 'error' (default) exits 3; 'warn' reports it and exits 0/1 by the "
             "findings"),
    cl::value_desc("error|warn"), cl::init("error"), cl::cat(category));
cl::opt<bool> allTranslationUnits(
    "all-translation-units",
    cl::desc("Analyze every entry of the compile database; by default, when no file is "
             "named, entries that include no CUDA header and call no CUDA API are skipped "
             "(and counted)"),
    cl::cat(category));
cl::opt<std::string> cacheDir(
    "cache-dir",
    cl::desc("The project index: per-TU results reused while the command, config and "
             "every file the TU reads are unchanged (default: STREAMLINT_CACHE_DIR, "
             "else .streamlint/ beside compile_commands.json; docs/index.md)"),
    cl::value_desc("dir"), cl::cat(category));
cl::opt<bool> noCache("no-cache",
                      cl::desc("Neither read nor write the project index"),
                      cl::cat(category));
cl::opt<bool> usePreambles(
    "preambles",
    cl::desc("Keep each TU's parsed include prefix (a preamble) beside the project index "
             "and reuse it while nothing it read changed: a re-run after an edit of a "
             ".cu file re-parses only its body; the first parse of each TU costs more "
             "(docs/index.md, \"Preambles\")"),
    cl::cat(category));
cl::opt<bool> noPreambles("no-preambles",
                          cl::desc("Parse every TU whole (overrides --preambles)"),
                          cl::cat(category));
cl::opt<bool> parseLibraryBodies(
    "parse-library-bodies",
    cl::desc("Parse the bodies of functions in system headers (the toolkit's, Thrust's, "
             "CUB's, the C++ library's), as a compiler does. By default they are skipped: "
             "no check reads them, and on Thrust/CUB code they are a third of the parse "
             "(docs/index.md, \"Skipped library bodies\")"),
    cl::cat(category));
cl::opt<unsigned> preambleCacheSize(
    "preamble-cache-size",
    cl::desc("At most this many MiB of preambles beside the project index; the least "
             "recently used are removed beyond it (default 4096; 0: no limit)"),
    cl::value_desc("MiB"), cl::init(4096), cl::cat(category));
cl::opt<std::string> shard(
    "shard",
    cl::desc("CI shards: analyze only this deterministic 1/N of the TUs (by a hash of each "
             "file's path relative to the compile database) and write a shard part to -o "
             "for --merge-shards (docs/index.md)"),
    cl::value_desc("I/N"), cl::cat(category));
cl::opt<bool> mergeShards(
    "merge-shards",
    cl::desc("The arguments are the parts of every --shard=I/N run (files, or directories "
             "holding them): write the report one run over the whole database gives, "
             "whole-program findings included"),
    cl::cat(category));
cl::opt<bool> quiet("quiet", cl::desc("Do not print the summary on stderr"),
                    cl::cat(category));
cl::opt<cl::boolOrDefault> progress(
    "progress",
    cl::desc("Print [N/M] file on stderr as each translation unit finishes (default: "
             "only when stderr is a terminal); --progress=false turns it off"),
    cl::cat(category));
cl::opt<std::string> minSeverity(
    "min-severity",
    cl::desc("Report only findings of this severity or higher; the others neither "
             "appear nor fail the run (overrides MinSeverity)"),
    cl::value_desc("note|warning|error"), cl::cat(category));
cl::opt<std::string> warningsAsErrors(
    "warnings-as-errors",
    cl::desc("Comma-separated globs of checks whose warnings are reported as errors "
             "(appended to WarningsAsErrors), e.g. with --min-severity=error to fail "
             "only on them"),
    cl::value_desc("globs"), cl::cat(category));
cl::opt<std::string> diffBase(
    "diff-base",
    cl::desc("Report only findings on lines changed since this git revision (`git diff "
             "REV`: the working tree against it; for a branch pass its merge base)"),
    cl::value_desc("rev"), cl::cat(category));
cl::opt<std::string> diffFile(
    "diff-file",
    cl::desc("Report only findings on lines this unified diff adds or changes ('-' reads "
             "stdin), as clang-tidy-diff: e.g. git diff -U0 origin/main... | streamlint "
             "--diff-file=-"),
    cl::value_desc("file"), cl::cat(category));
cl::opt<bool> crashRecovery(
    "crash-recovery",
    cl::desc("A TU whose parse crashes clang is reported and the run goes on "
             "(default); --crash-recovery=false lets a debugger see the crash"),
    cl::init(true), cl::cat(category));

llvm::Error usageError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// --shard and --merge-shards, and what they exclude.
llvm::Error shardOptions(CommandLineOptions &result) {
  if (mergeShards) {
    if (!shard.empty())
      return usageError("--shard and --merge-shards exclude each other");
    if (result.analyzer.files.empty())
      return usageError("--merge-shards: name the shard parts (files written by "
                        "--shard=I/N -o FILE, or directories holding them)");
    result.shardParts = std::move(result.analyzer.files);
    result.analyzer.files.clear();
    return llvm::Error::success();
  }
  if (shard.empty())
    return llvm::Error::success();
  auto spec = parseShardSpec(shard);
  if (!spec)
    return spec.takeError();
  result.shard = *spec;
  if (!result.analyzer.files.empty())
    return usageError("--shard analyzes the whole compile database; it takes no "
                      "file arguments");
  if (result.outputPath.empty())
    return usageError("--shard: name the shard part to write with -o FILE");
  if (format.getNumOccurrences() || fix || fixDryRun || fixNotes || !exportFixes.empty() ||
      !baseline.empty() || !writeBaseline.empty() || !trace.empty() ||
      !minSeverity.empty() || !warningsAsErrors.empty() || !diffBase.empty() ||
      !diffFile.empty())
    return usageError("--shard writes a shard part; --format, --fix, --fix-dry-run, "
                      "--fix-notes, --export-fixes, --baseline, --write-baseline, --trace, "
                      "--min-severity, --warnings-as-errors, --diff-base and "
                      "--diff-file belong to the --merge-shards run");
  return llvm::Error::success();
}

} // namespace

llvm::Expected<CommandLineOptions> parseCommandLine(int argc, const char **argv) {
  cl::HideUnrelatedOptions(category);
  cl::SetVersionPrinter([](llvm::raw_ostream &out) {
    out << "streamlint " STREAMLINT_VERSION " (commit " STREAMLINT_COMMIT ")\n"
        << "  built with LLVM " LLVM_VERSION_STRING " (" << clang::getClangFullVersion()
        << ")\n";
  });
  cl::extrahelp more(moreHelp);
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  // The parser names the program by argv[0], which may be an absolute path:
  // messages and "Try: 'streamlint --help'" say "streamlint".
  std::vector<const char *> arguments(argv, argv + argc);
  if (!arguments.empty())
    arguments[0] = "streamlint";
  if (!cl::ParseCommandLineOptions(argc, arguments.data(), overview, &errorStream)) {
    // fail() prefixes "streamlint: error: "; the parser's own prefix goes.
    llvm::SmallVector<llvm::StringRef, 4> lines;
    llvm::StringRef(errors).trim().split(lines, '\n');
    std::string message;
    for (llvm::StringRef line : lines) {
      line.consume_front("streamlint: ");
      message += (message.empty() ? "" : "\n") + line.str();
    }
    return usageError(message);
  }

  CommandLineOptions result;
  result.analyzer.buildPath = buildPath;
  result.analyzer.files.assign(sourceFiles.begin(), sourceFiles.end());
  result.analyzer.checks = checks;
  result.analyzer.jobs = jobs;
  result.analyzer.crashRecovery = crashRecovery;
  result.analyzer.translate.extraArgs.assign(extraArgs.begin(), extraArgs.end());
  result.analyzer.translate.extraArgsBefore.assign(extraArgsBefore.begin(),
                                                   extraArgsBefore.end());
  result.analyzer.translate.parseLibraryBodies = parseLibraryBodies;
  for (const std::string &setting : checkOptions) {
    auto [key, value] = llvm::StringRef(setting).split('=');
    if (!key.contains('.') || !llvm::StringRef(setting).contains('='))
      return usageError("--check-option '" + setting +
                        "': expected <check-id>.<Name>=<value>");
    result.analyzer.checkOptions.set(key.str(), value.str());
  }
  ConfigOverrides config;
  // --strict sets every option the checks declare a strict value for (see
  // ConfigResolver); an explicit --check-option still wins.
  config.strict = strict;
  config.configFile = configFile;
  if (checks.getNumOccurrences())
    config.checks = checks;
  config.checkOptions = result.analyzer.checkOptions.all();
  if (headerFilter.getNumOccurrences()) {
    std::string problem;
    if (!llvm::Regex(headerFilter).isValid(problem))
      return usageError("--header-filter '" + headerFilter + "': " + problem);
    config.headerFilterRegex = headerFilter;
  }
  if (minSeverity.getNumOccurrences()) {
    if (!parseSeverity(minSeverity))
      return usageError("--min-severity '" + minSeverity + "': expected note, warning or error");
    config.minSeverity = minSeverity;
  }
  if (warningsAsErrors.getNumOccurrences())
    config.warningsAsErrors = warningsAsErrors;
  result.analyzer.config = std::move(config);
  result.analyzer.skipFilesNotInDatabase = skipFilesNotInDatabase;
  auto parsedFormat = parseOutputFormat(format);
  if (!parsedFormat)
    return usageError("--format '" + format +
                      "': expected text, json, sarif, github or gitlab");
  result.format = *parsedFormat;
  result.outputPath = output;
  result.tracePaths.assign(trace.begin(), trace.end());
  result.baselinePath = baseline;
  result.writeBaselinePath = writeBaseline;
  result.color = useColor == cl::BOU_TRUE    ? ColorMode::Always
                 : useColor == cl::BOU_FALSE ? ColorMode::Never
                                             : ColorMode::Auto;
  result.listChecks = listChecks;
  result.checksGiven = checks.getNumOccurrences() > 0;
  result.allowNoChecks = allowNoChecks;
  result.showCommands = showCommands;
  result.dumpConfig = dumpConfigOption;
  if (fix && fixDryRun)
    return usageError("--fix and --fix-dry-run exclude each other");
  result.fix = fix;
  result.fixDryRun = fixDryRun;
  result.exportFixesPath = exportFixes;
  if (fixNotes && !fix && !fixDryRun && exportFixes.empty())
    return usageError("--fix-notes applies suggested fixes: use it with --fix, "
                      "--fix-dry-run or --export-fixes");
  result.fixNotes = fixNotes;
  if (!fixRoot.empty() && !llvm::sys::fs::is_directory(fixRoot))
    return usageError("--fix-root '" + fixRoot + "': not a directory");
  result.fixRoot = fixRoot;
  result.analyzer.fixRoot = fixRoot;
  result.analyzer.reportThirdPartyHeaders = thirdPartyHeaders;
  result.quiet = quiet;
  result.analyzer.progress = progress == cl::BOU_TRUE ||
                             (progress == cl::BOU_UNSET &&
                              llvm::sys::Process::StandardErrIsDisplayed());
  if (!diffBase.empty() && !diffFile.empty())
    return usageError("--diff-base and --diff-file exclude each other");
  result.diffBase = diffBase;
  result.diffFile = diffFile;
  if (partialAnalysis == "warn")
    result.partialAnalysis = PartialAnalysisPolicy::Warn;
  else if (partialAnalysis != "error")
    return usageError("--partial-analysis '" + partialAnalysis +
                      "': expected error or warn");
  if (llvm::Error error = shardOptions(result))
    return std::move(error);
  result.analyzer.skipTranslationUnitsWithoutCuda =
      !allTranslationUnits && result.analyzer.files.empty();
  // Named files keep whole-program context: the other TUs are read from the
  // index (or analyzed) as a run naming no file would analyze them.
  result.analyzer.wholeProgramContext = true;
  result.analyzer.skipContextWithoutCuda = !allTranslationUnits;
  result.analyzer.useIndex = !noCache;
  result.analyzer.preambles = usePreambles && !noPreambles;
  result.analyzer.preambleLimitBytes = uint64_t(preambleCacheSize) << 20;
  result.analyzer.cacheDirectory = cacheDir;
  if (cacheDir.empty())
    result.analyzer.cacheDirectory =
        llvm::sys::Process::GetEnv("STREAMLINT_CACHE_DIR").value_or("");
  return result;
}

} // namespace streamlint

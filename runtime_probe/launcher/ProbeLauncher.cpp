// streamlint-probe: runs a program with the CUPTI probe injected and turns
// the raw traces its processes leave into one symbolized trace.
//
//   streamlint-probe [-o TRACE] [-v] [--keep-raw] -- PROGRAM [ARGS...]
//   streamlint-probe [-o TRACE] --symbolize RAW...

#include "EvidenceBuilder.h"
#include "RawTrace.h"
#include "SiteResolver.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using namespace streamlint;
using namespace streamlint::probe;

struct Options {
  std::string output = "streamlint.trace";
  bool verbose = false;
  bool keepRaw = false;
  std::vector<std::string> rawFiles; // --symbolize
  std::vector<char *> command;
};

[[noreturn]] void usage(const char *why) {
  std::fprintf(stderr,
               "streamlint-probe: %s\n"
               "usage: streamlint-probe [-o TRACE] [-v] [--keep-raw] -- PROGRAM [ARGS...]\n"
               "       streamlint-probe [-o TRACE] --symbolize RAW...\n",
               why);
  std::exit(2);
}

Options parse(int argc, char **argv) {
  Options o;
  int i = 1;
  for (; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--") {
      ++i;
      break;
    }
    if (a == "-o" || a == "--output") {
      if (i + 1 == argc || argv[i + 1][0] == '\0')
        usage((a + " needs a value: the trace file to write").c_str());
      o.output = argv[++i];
    } else if (a.rfind("--output=", 0) == 0 && a.size() > 9) {
      o.output = a.substr(9);
    } else if (a == "-v") {
      o.verbose = true;
    } else if (a == "--keep-raw") {
      o.keepRaw = true;
    } else if (a == "--symbolize") {
      while (i + 1 < argc && argv[i + 1][0] != '-')
        o.rawFiles.push_back(argv[++i]);
      if (o.rawFiles.empty())
        usage("--symbolize needs the raw trace files to read");
    } else if (a[0] != '-') {
      break; // the program, without "--"
    } else {
      usage(("unknown option " + a).c_str());
    }
  }
  for (; i < argc; ++i)
    o.command.push_back(argv[i]);
  o.command.push_back(nullptr);
  if (!o.rawFiles.empty() && o.command.size() > 1)
    usage("--symbolize reads raw traces: it runs no program");
  if (o.rawFiles.empty() && o.command.size() == 1)
    usage("no program to run");
  return o;
}

std::string probeLibrary(const char *argv0) {
  if (const char *env = std::getenv("STREAMLINT_PROBE_LIBRARY"))
    return env;
  // Installed, the library is private: <prefix>/lib/streamlint/ (as Debian
  // wants a package's private libraries); in the build tree, ../lib.
  std::string self = llvm::sys::fs::getMainExecutable(argv0, (void *)&probeLibrary);
  llvm::SmallString<256> lib;
  for (const char *directory : {"lib/streamlint", "lib"}) {
    lib = llvm::sys::path::parent_path(self);
    llvm::sys::path::append(lib, "..", directory, "libstreamlint_probe.so");
    llvm::sys::path::remove_dots(lib, true);
    if (llvm::sys::fs::exists(lib))
      break;
  }
  return std::string(lib);
}

pid_t gChild = -1;

/// Passes a signal sent to the launcher on to the program. A signal the
/// terminal sent (Ctrl-C, Ctrl-Backslash, a hang-up) already reached the program,
/// which is in the same foreground process group: forwarding it would
/// deliver it twice.
void forwardSignal(int sig, siginfo_t *info, void *) {
  if (gChild > 0 && !(info && info->si_code == SI_KERNEL))
    kill(gChild, sig);
}

constexpr int kForwardedSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

/// The exit status a shell gives a command it cannot run: 127 when it is
/// not found, 126 when it is found but cannot be executed.
int cannotRunStatus(int error) { return error == ENOENT || error == ENOTDIR ? 127 : 126; }

// Runs the program; returns its wait status.
int runProgram(const Options &o, const std::string &library,
               const std::string &rawDir) {
  if (const char *previous = std::getenv("CUDA_INJECTION64_PATH"))
    std::fprintf(stderr,
                 "streamlint-probe: CUDA_INJECTION64_PATH was already set (%s): "
                 "another CUDA tool is attached; the probe replaces it\n",
                 previous);
  setenv("CUDA_INJECTION64_PATH", library.c_str(), 1);
  setenv("STREAMLINT_PROBE_RAW_DIR", rawDir.c_str(), 1);
  struct sigaction forward {};
  forward.sa_sigaction = forwardSignal;
  forward.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&forward.sa_mask);
  for (int sig : kForwardedSignals)
    sigaction(sig, &forward, nullptr);
  // Held back until gChild is set: a signal that came between fork and the
  // assignment (the program may already be running) would otherwise be lost.
  sigset_t forwarded, previous;
  sigemptyset(&forwarded);
  for (int sig : kForwardedSignals)
    sigaddset(&forwarded, sig);
  sigprocmask(SIG_BLOCK, &forwarded, &previous);
  gChild = fork();
  if (gChild == 0) {
    for (int sig : kForwardedSignals)
      std::signal(sig, SIG_DFL);
    sigprocmask(SIG_SETMASK, &previous, nullptr);
    execvp(o.command[0], o.command.data());
    int error = errno;
    std::fprintf(stderr, "streamlint-probe: cannot run %s: %s\n", o.command[0],
                 std::strerror(error));
    _exit(cannotRunStatus(error));
  }
  sigprocmask(SIG_SETMASK, &previous, nullptr); // delivers what came meanwhile
  if (gChild < 0) {
    std::perror("streamlint-probe: fork");
    std::exit(126);
  }
  int status = 0;
  while (waitpid(gChild, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

// Reads and symbolizes raw traces into `trace`; false if one of them could
// not be read or is not a raw trace (each is named on stderr).
bool symbolize(const std::vector<std::string> &rawFiles, ProbeTrace &trace) {
  SiteResolver resolver;
  EvidenceBuilder evidence;
  bool allRead = true;
  for (const std::string &file : rawFiles) {
    std::ifstream in(file);
    RawTrace raw;
    std::string error;
    if (!in.is_open() || llvm::sys::fs::is_directory(file)) {
      std::fprintf(stderr, "streamlint-probe: cannot read %s: %s\n", file.c_str(),
                   llvm::sys::fs::exists(file) ? "not a readable file"
                                               : "no such file");
      allRead = false;
      continue;
    }
    if (!readRawTrace(in, raw, error)) {
      std::fprintf(stderr, "streamlint-probe: %s: %s\n", file.c_str(), error.c_str());
      allRead = false;
      continue;
    }
    if (!raw.complete)
      std::fprintf(stderr, "streamlint-probe: %s: trace was cut short; using what is there\n",
                   file.c_str());
    ++trace.processes;
    trace.droppedCalls += raw.droppedCalls;
    for (const RawSite &site : raw.sites) {
      bool insideLibraryOnly = false;
      if (auto where = resolver.resolve(raw, site, &insideLibraryOnly))
        evidence.add(site, *where);
      else if (insideLibraryOnly)
        evidence.addLibraryOnly(site);
      else
        evidence.addUnresolved(site);
    }
  }
  trace.observations = evidence.observations();
  trace.libraryOnlyCalls = evidence.libraryOnlyCalls();
  if (evidence.unresolvedCalls())
    std::fprintf(stderr,
                 "streamlint-probe: %llu calls came from code without debug "
                 "info (build with -g or -lineinfo) and have no source line\n",
                 static_cast<unsigned long long>(evidence.unresolvedCalls()));
  return allRead;
}

/// Whether the trace file can be written, asked before the program runs
/// (a run whose trace is then lost is wasted). Creates it if missing.
bool canWriteTrace(const std::string &path) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    std::fprintf(stderr, "streamlint-probe: cannot write the trace to %s: %s\n",
                 path.c_str(), std::strerror(errno));
    return false;
  }
  ::close(fd);
  return true;
}

std::vector<std::string> rawFilesIn(const std::string &dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec))
    if (llvm::sys::path::extension(it->path()) == ".raw")
      files.push_back(it->path());
  std::sort(files.begin(), files.end());
  return files;
}

} // namespace

int main(int argc, char **argv) {
  Options o = parse(argc, argv);
  if (!canWriteTrace(o.output))
    return 2;
  ProbeTrace trace;
  int status = 0;
  std::string rawDir;
  bool symbolizeOnly = !o.rawFiles.empty();
  if (!symbolizeOnly) {
    char pattern[] = "/tmp/streamlint-probe.XXXXXX";
    if (!mkdtemp(pattern)) {
      std::perror("streamlint-probe: mkdtemp");
      return 126;
    }
    rawDir = pattern;
    trace.program = o.command[0];
    status = runProgram(o, probeLibrary(argv[0]), rawDir);
    trace.exitStatus = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    o.rawFiles = rawFilesIn(rawDir);
    if (o.rawFiles.empty())
      std::fprintf(stderr, "streamlint-probe: no process left a trace: the program "
                           "made no CUDA calls or the probe could not attach\n");
  }
  // A raw trace named on the command line that cannot be read fails the
  // run; one a process of the program left damaged is reported and skipped.
  auto symbolizeStart = std::chrono::steady_clock::now();
  if (!symbolize(o.rawFiles, trace) && symbolizeOnly)
    return 2;
  double symbolizeMs = std::chrono::duration<double, std::milli>(
                           std::chrono::steady_clock::now() - symbolizeStart)
                           .count();
  std::ofstream out(o.output);
  out << writeTraceJson(trace);
  out.close();
  bool written = static_cast<bool>(out);
  if (!written)
    std::fprintf(stderr, "streamlint-probe: cannot write the trace to %s\n",
                 o.output.c_str());
  else if (o.verbose)
    std::fprintf(stderr, "streamlint-probe: wrote %s: %zu observations from %u "
                         "process(es), %llu calls dropped, %llu calls inside "
                         "libraries with no frame of the program; symbolized in "
                         "%.1f ms\n",
                 o.output.c_str(), trace.observations.size(), trace.processes,
                 static_cast<unsigned long long>(trace.droppedCalls),
                 static_cast<unsigned long long>(trace.libraryOnlyCalls), symbolizeMs);
  if (!rawDir.empty() && !o.keepRaw) {
    for (const std::string &f : o.rawFiles)
      std::remove(f.c_str());
    rmdir(rawDir.c_str());
  } else if (!rawDir.empty()) {
    std::fprintf(stderr, "streamlint-probe: raw traces kept in %s\n", rawDir.c_str());
  }
  if (WIFSIGNALED(status)) { // die the way the program died
    std::fflush(nullptr);
    std::signal(WTERMSIG(status), SIG_DFL);
    raise(WTERMSIG(status));
  }
  int exitStatus = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
  // The program's own failure comes first; a lost trace fails a run that
  // otherwise succeeded (a CI step must not pass without its trace).
  return exitStatus == 0 && !written ? 2 : exitStatus;
}

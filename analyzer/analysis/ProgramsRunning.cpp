// ProgramOrdering.h: the programs of a compile database that run a
// function (programsRunning: the mains whose calls reach it), and what the
// per-thread default stream as a fix's target needs of them: no host
// threads that may run CUDA work, and a created stream.
#include "analyzer/analysis/ProgramOrdering.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>

namespace streamlint::ordering {

namespace {

/// The per-thread judgement's two refusals.
std::string startsThreads(const std::string &who, const std::string &where) {
  return who + " starts host threads (" + where +
         "): each has its own per-thread default stream, where the legacy stream "
         "ordered all of their work";
}
const char *const NoStreamCreated = "the program creates no stream: all of its work is on the "
                                    "legacy stream, and moving it off is a design decision";

} // namespace

std::string ProgramOrdering::realPath(const std::string &path) const {
  auto [found, inserted] = realPaths_.try_emplace(path, path);
  llvm::SmallString<256> real;
  if (inserted && !llvm::sys::fs::real_path(path, real))
    found->second = std::string(real);
  return found->second;
}

std::optional<std::set<std::string>>
ProgramOrdering::programsRunning(const std::string &usr) const {
  std::set<std::string> visiting;
  return reachOf(usr, visiting).mains;
}

ProgramOrdering::Reach ProgramOrdering::reachOf(const std::string &usr,
                                                std::set<std::string> &visiting) const {
  if (auto memo = programs_.find(usr); memo != programs_.end())
    return {memo->second, false};
  bool throughPointers = placedByItsTakers(usr);
  if (isMain(usr) || startupCalls_.count(usr) || (!openReason(usr).empty() && !throughPointers)) {
    programs_[usr] = std::nullopt;
    return {};
  }
  if (!visiting.insert(usr).second)
    return {std::set<std::string>(), true};
  Reach reach{std::set<std::string>(), false};
  // The programs `function` runs in join this one's; false when not known.
  // Every main has the same USR: `mainFile` says which.
  auto runsIn = [&](const std::string &function, const std::string &mainFile) {
    if (isMain(function)) {
      if (!mainFiles_.count(mainFile))
        return false;
      reach.mains->insert(mainFile);
      return true;
    }
    Reach above = reachOf(function, visiting);
    reach.partial = reach.partial || above.partial;
    if (!above.mains)
      return false;
    reach.mains->insert(above.mains->begin(), above.mains->end());
    return true;
  };
  static const std::vector<const OrderedCall *> none;
  auto calls = callsTo_.find(usr);
  for (const OrderedCall *call : calls == callsTo_.end() ? none : calls->second)
    if (!runsIn(call->caller, isMain(call->caller) ? realPath(call->site.file) : "")) {
      reach.mains.reset();
      break;
    }
  // A pointer to it exists only where its address is taken.
  if (throughPointers && reach.mains)
    for (const auto &[unit, taker] : takers_.at(usr))
      if (!runsIn(taker, unit ? unit->mainFile : "")) {
        reach.mains.reset();
        break;
      }
  visiting.erase(usr);
  if (!reach.mains || !reach.partial || visiting.empty())
    programs_[usr] = reach.mains;
  return reach;
}

bool ProgramOrdering::placedByItsTakers(const std::string &usr) const {
  auto found = all_.find(usr);
  if (found == all_.end() || found->second->isMain || !found->second->openBecause.empty() ||
      !hasMain_ || !addressTaken_.count(usr))
    return false;
  auto uses = takers_.find(usr);
  return uses != takers_.end() &&
         llvm::none_of(uses->second, [](const auto &use) { return use.second.empty(); });
}

std::optional<std::set<std::string>>
ProgramOrdering::programsRunningEvent(const UnitProgramFacts &unit,
                                      const ProgramEvent &event) const {
  if (event.function.empty())
    return std::nullopt;
  // In main: its TU's program (every main has the same USR).
  if (isMain(event.function))
    return unit.mainFile.empty() ? std::nullopt
                                 : std::optional(std::set<std::string>{unit.mainFile});
  return programsRunning(event.function);
}

std::string ProgramOrdering::problemInPrograms(const std::set<std::string> &programs) const {
  auto runs = [&](const std::optional<std::set<std::string>> &running) {
    return running && llvm::any_of(*running, [&](const std::string &p) {
             return programs.count(p) > 0;
           });
  };
  std::vector<std::string> threads;
  for (const UnitProgramFacts &unit : units_)
    for (const ProgramEvent &thread : unit.threadStarters)
      if (std::optional<std::set<std::string>> running = programsRunningEvent(unit, thread);
          !running || runs(running))
        threads.push_back(thread.what);
  if (!threads.empty())
    return startsThreads("the program", *std::min_element(threads.begin(), threads.end()));
  for (const std::string &program : programs) {
    // Streams created in its main's TUs, or in functions only known
    // programs run. Not counted: a creation any program may run, and one
    // in a function defined at two places (its callers are those of every
    // definition, more programs than run this one): the program creating
    // none keeps the design-decision refusal.
    bool creates = false;
    for (const UnitProgramFacts &unit : units_) {
      creates = creates || (unit.mainFile == program && !unit.streamCreations.empty());
      for (const ProgramEvent &creation : unit.streamCreators) {
        auto defined = all_.find(creation.function);
        if (creates || (defined != all_.end() && !defined->second->definedDifferently.empty()))
          continue;
        if (std::optional<std::set<std::string>> running = programsRunningEvent(unit, creation))
          creates = running->count(program) > 0;
      }
    }
    if (!creates)
      return NoStreamCreated;
  }
  return "";
}

std::string ProgramOrdering::perThreadProblem(const std::string &fixFile,
                                              const std::string &function) const {
  std::string file = realPath(fixFile);
  // Several programs: a function that only some mains reach by calls is
  // judged with what runs in their programs.
  if (mainFiles_.size() > 1) {
    std::optional<std::set<std::string>> programs;
    if (isMain(function)) {
      if (mainFiles_.count(file))
        programs = std::set<std::string>{file};
    } else {
      programs = programsRunning(function);
    }
    if (programs && !programs->empty())
      return problemInPrograms(*programs);
  }
  std::vector<std::string> threads = hostThreads_, creations = streamCreations_;
  // Otherwise, code in the file that defines a TU's main is, in every
  // program that holds it, with that main: a TU whose main is defined
  // elsewhere is another program (two mains do not link). Only those TUs
  // are left out; a TU without main may be linked into any program.
  if (mainFiles_.size() > 1 && mainFiles_.count(file)) {
    // Threads: those of every TU that may be in its program. Streams
    // created: only its main's TUs'; a TU without main may be another
    // program's, and the program creating none keeps the moves
    // suggestions (a design decision), as a run on it alone would.
    threads.clear();
    creations.clear();
    for (const UnitProgramFacts &unit : units_) {
      if (unit.mainFile.empty() || unit.mainFile == file)
        threads.insert(threads.end(), unit.hostThreads.begin(), unit.hostThreads.end());
      if (unit.mainFile == file)
        creations.insert(creations.end(), unit.streamCreations.begin(),
                         unit.streamCreations.end());
    }
    std::sort(threads.begin(), threads.end());
  }
  // Several programs, and neither the calls nor main's file place the
  // function: any of them may run it, and the sentence says so rather than
  // "the program" (a reader looks for the thread in the fix's own program).
  std::string program = "the program";
  if (mainFiles_.size() > 1 && !mainFiles_.count(file) && !isMain(function)) {
    std::string why = openReason(function);
    program = "'" + nameOf(function) + "' may run in any program of the compile database (" +
              (why.empty() ? "a function that calls it may be called from outside it" : why) +
              "), and one of them";
  }
  if (!threads.empty())
    return startsThreads(program, threads.front());
  if (creations.empty())
    return NoStreamCreated;
  return "";
}

} // namespace streamlint::ordering

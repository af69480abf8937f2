// ProgramOrdering::programsRunning and the per-thread judgement it feeds,
// on made-up facts of several TUs: which programs of one compile database
// run a function, and which threads and stream creations count for a fix.
#include "analyzer/analysis/CalleeLeaves.h"
#include "analyzer/analysis/OrderingSummary.h"
#include "analyzer/analysis/ProgramOrdering.h"

#include <gtest/gtest.h>

namespace streamlint::ordering {
namespace {

OrderedFunction function(const std::string &usr, const std::string &file, bool isMain = false,
                         std::string open = "") {
  OrderedFunction f;
  f.usr = usr;
  f.name = usr.substr(usr.rfind('@') + 1);
  f.isMain = isMain;
  f.openBecause = std::move(open);
  f.definedAt = {file, 1, 0};
  return f;
}

OrderedCall call(const std::string &caller, const std::string &callee, const std::string &file) {
  OrderedCall c;
  c.caller = caller;
  c.callerName = caller.substr(caller.rfind('@') + 1);
  c.callee = callee;
  c.site = {file, 5, 3};
  return c;
}

const char *kMain = "c:@F@main";

/// Two programs: /p/a.cu's main calls stepA and shared; /p/b.cu's main
/// calls runWorkers (in /p/workers.cu, which defines no main) and shared.
/// Both mains create a stream; `threadIn` starts a thread in workers.cu.
OrderingFacts twoPrograms(const std::string &threadIn, bool openWorker = false,
                          bool startup = false) {
  OrderingFacts facts;
  OrderingFacts a;
  a.functions = {function(kMain, "/p/a.cu", true), function("c:@F@stepA", "/p/a_step.cu"),
                 function("c:@F@shared", "/p/shared.cu")};
  a.calls = {call(kMain, "c:@F@stepA", "/p/a.cu"), call(kMain, "c:@F@shared", "/p/a.cu")};
  a.streamCreations = {"cudaStreamCreate at a.cu:3"};
  a.streamCreators = {{"cudaStreamCreate at a.cu:3", kMain}};
  facts.addUnit(a);
  OrderingFacts b;
  b.functions = {function(kMain, "/p/b.cu", true)};
  b.calls = {call(kMain, "c:@F@runWorkers", "/p/b.cu"), call(kMain, "c:@F@shared", "/p/b.cu")};
  b.streamCreations = {"cudaStreamCreate at b.cu:3"};
  b.streamCreators = {{"cudaStreamCreate at b.cu:3", kMain}};
  facts.addUnit(b);
  OrderingFacts workers;
  workers.functions = {function("c:@F@runWorkers", "/p/workers.cu"),
                       function("c:@F@spawn", "/p/workers.cu", false,
                                openWorker ? "its address is taken" : "")};
  workers.calls = {call("c:@F@runWorkers", "c:@F@spawn", "/p/workers.cu")};
  workers.hostThreads = {"std::thread at workers.cu:9"};
  workers.threadStarters = {{"std::thread at workers.cu:9", threadIn}};
  if (startup)
    workers.startupCalls = {"c:@F@spawn"};
  facts.addUnit(workers);
  facts.normalize();
  return facts;
}

TEST(ProgramsRunning, FollowsCallsUpToTheMainsThatReachAFunction) {
  OrderingFacts facts = twoPrograms("c:@F@spawn");
  ProgramOrdering program(facts);
  EXPECT_EQ(program.programsRunning("c:@F@stepA"), std::set<std::string>{"/p/a.cu"});
  EXPECT_EQ(program.programsRunning("c:@F@spawn"), std::set<std::string>{"/p/b.cu"});
  EXPECT_EQ(program.programsRunning("c:@F@shared"),
            (std::set<std::string>{"/p/a.cu", "/p/b.cu"}));
  // A's code runs beside no thread; code B runs beside its workers'.
  EXPECT_EQ(program.perThreadProblem("/p/a_step.cu", "c:@F@stepA"), "");
  EXPECT_EQ(program.perThreadProblem("/p/a.cu", kMain), "");
  EXPECT_NE(program.perThreadProblem("/p/shared.cu", "c:@F@shared")
                .find("starts host threads (std::thread at workers.cu:9)"),
            std::string::npos);
  EXPECT_NE(program.perThreadProblem("/p/b.cu", kMain).find("starts host threads"),
            std::string::npos);
}

TEST(ProgramsRunning, RecursionReachesThroughTheCycle) {
  OrderingFacts facts;
  OrderingFacts a;
  a.functions = {function(kMain, "/p/a.cu", true), function("c:@F@even", "/p/r.cu"),
                 function("c:@F@odd", "/p/r.cu"), function("c:@F@ping", "/p/r.cu"),
                 function("c:@F@pong", "/p/r.cu")};
  // main -> even <-> odd; ping <-> pong, which no main calls.
  a.calls = {call(kMain, "c:@F@even", "/p/a.cu"), call("c:@F@even", "c:@F@odd", "/p/r.cu"),
             call("c:@F@odd", "c:@F@even", "/p/r.cu"), call("c:@F@ping", "c:@F@pong", "/p/r.cu"),
             call("c:@F@pong", "c:@F@ping", "/p/r.cu")};
  facts.addUnit(a);
  OrderingFacts b;
  b.functions = {function(kMain, "/p/b.cu", true)};
  facts.addUnit(b);
  facts.normalize();
  ProgramOrdering program(facts);
  // Asked in either order: the first answer memoized is complete.
  EXPECT_EQ(program.programsRunning("c:@F@odd"), std::set<std::string>{"/p/a.cu"});
  EXPECT_EQ(program.programsRunning("c:@F@even"), std::set<std::string>{"/p/a.cu"});
  EXPECT_EQ(program.programsRunning("c:@F@pong"), std::set<std::string>());
  // A call from a main in a file the units do not name: not known.
  facts.calls.push_back(call(kMain, "c:@F@ping", "/p/elsewhere.cu"));
  facts.normalize();
  ProgramOrdering other(facts);
  EXPECT_EQ(other.programsRunning("c:@F@pong"), std::nullopt);
}

TEST(ProgramsRunning, AThreadAnyProgramMayStartCountsForEvery) {
  // Started where code outside the calls may call it: an address taken on
  // the way up, a global's initializer, outside any function.
  for (const OrderingFacts &facts :
       {twoPrograms("c:@F@spawn", /*openWorker=*/true), twoPrograms("c:@F@spawn", false, true),
        twoPrograms("")}) {
    ProgramOrdering program(facts);
    EXPECT_NE(program.perThreadProblem("/p/a_step.cu", "c:@F@stepA").find("starts host threads"),
              std::string::npos);
  }
  // A function no main calls is open ("no call of it"): any program.
  OrderingFacts facts = twoPrograms("c:@F@spawn");
  ProgramOrdering program(facts);
  EXPECT_EQ(program.programsRunning("c:@F@uncalled"), std::nullopt);
}

// A function the calls cannot place, in a file without main: the refusal
// says that any program may run it and one of them starts threads, not
// "the program starts host threads" (cuda-samples' whole database named
// cudaOpenMP's thread for 155 moves of other samples' kernel files).
TEST(ProgramsRunning, AFunctionAnyProgramMayRunSaysWhy) {
  OrderingFacts facts = twoPrograms("c:@F@spawn");
  facts.functions.push_back(function("c:@F@uncalled", "/p/kernels.cu"));
  facts.normalize();
  ProgramOrdering program(facts);
  EXPECT_EQ(program.perThreadProblem("/p/kernels.cu", "c:@F@uncalled"),
            "'uncalled' may run in any program of the compile database (no call of it is in "
            "the analyzed program), and one of them starts host threads (std::thread at "
            "workers.cu:9): each has its own per-thread default stream, where the legacy "
            "stream ordered all of their work");
  // A program's own code keeps "the program".
  EXPECT_EQ(program.perThreadProblem("/p/b.cu", kMain).rfind("the program starts host threads", 0),
            0u);
}

TEST(ProgramsRunning, AProgramCreatingNoStreamKeepsTheDesignDecision) {
  OrderingFacts facts;
  OrderingFacts a;
  a.functions = {function(kMain, "/p/a.cu", true), function("c:@F@make", "/p/lib.cu"),
                 function("c:@F@stepA", "/p/a_step.cu")};
  a.calls = {call(kMain, "c:@F@make", "/p/a.cu"), call(kMain, "c:@F@stepA", "/p/a.cu")};
  facts.addUnit(a);
  OrderingFacts b;
  b.functions = {function(kMain, "/p/b.cu", true), function("c:@F@stepB", "/p/b_step.cu")};
  b.calls = {call(kMain, "c:@F@stepB", "/p/b.cu")};
  facts.addUnit(b);
  // lib.cu defines no main; its stream creation runs in A only.
  OrderingFacts lib;
  lib.streamCreations = {"cudaStreamCreate at lib.cu:4"};
  lib.streamCreators = {{"cudaStreamCreate at lib.cu:4", "c:@F@make"}};
  facts.addUnit(lib);
  facts.normalize();
  ProgramOrdering program(facts);
  EXPECT_EQ(program.perThreadProblem("/p/a_step.cu", "c:@F@stepA"), "");
  EXPECT_NE(program.perThreadProblem("/p/b_step.cu", "c:@F@stepB").find("creates no stream"),
            std::string::npos);
}

TEST(ProgramsRunning, ACreationInAFunctionDefinedTwiceCountsForNeither) {
  // Each sample of a suite defines its own runTest; only B's creates a
  // stream. Its callers are both mains, but A's runTest creates none.
  OrderingFacts facts;
  for (const char *file : {"/p/a.cu", "/p/b.cu"}) {
    OrderingFacts unit;
    unit.functions = {function(kMain, file, true), function("c:@F@runTest", file)};
    unit.functions.back().definedAt.line = 9;
    unit.calls = {call(kMain, "c:@F@runTest", file)};
    if (std::string(file) == "/p/b.cu") {
      unit.streamCreations = {"cudaStreamCreate at b.cu:10"};
      unit.streamCreators = {{"cudaStreamCreate at b.cu:10", "c:@F@runTest"}};
    }
    facts.addUnit(unit);
  }
  facts.normalize();
  ProgramOrdering program(facts);
  EXPECT_EQ(program.programsRunning("c:@F@runTest"),
            (std::set<std::string>{"/p/a.cu", "/p/b.cu"}));
  EXPECT_NE(program.perThreadProblem("/p/a.cu", "c:@F@runTest").find("creates no stream"),
            std::string::npos);
}

/// Two programs; /p/callback.cu (no main) defines onDone, which starts a
/// thread and is called only through a pointer taken in `taker`: b.cu's
/// main, registerAll (which b.cu's main calls) or "" (a global's
/// initializer).
OrderingFacts pointerPrograms(const std::string &taker) {
  OrderingFacts facts;
  OrderingFacts a;
  a.functions = {function(kMain, "/p/a.cu", true), function("c:@F@stepA", "/p/a_step.cu")};
  a.calls = {call(kMain, "c:@F@stepA", "/p/a.cu")};
  a.streamCreations = {"cudaStreamCreate at a.cu:3"};
  a.streamCreators = {{"cudaStreamCreate at a.cu:3", kMain}};
  OrderingFacts b;
  b.functions = {function(kMain, "/p/b.cu", true)};
  b.calls = {call(kMain, "c:@F@registerAll", "/p/b.cu")};
  b.streamCreations = {"cudaStreamCreate at b.cu:3"};
  b.streamCreators = {{"cudaStreamCreate at b.cu:3", kMain}};
  OrderingFacts callback;
  callback.functions = {function("c:@F@onDone", "/p/callback.cu"),
                        function("c:@F@registerAll", "/p/callback.cu")};
  callback.hostThreads = {"pthread_create at callback.cu:9"};
  callback.threadStarters = {{"pthread_create at callback.cu:9", "c:@F@onDone"}};
  OrderingFacts &taking = taker == kMain ? b : callback;
  taking.addressTaken = {"c:@F@onDone"};
  taking.addressTakers = {{"c:@F@onDone", taker}};
  facts.addUnit(a);
  facts.addUnit(b);
  facts.addUnit(callback);
  facts.normalize();
  return facts;
}

// cuda-samples' simpleCallback starts threads in cutStartThread, called
// from a stream callback whose address its main hands to
// cudaStreamAddCallback; in the suite's whole database (with the .cpp
// files) that thread counted for all 293 refused moves of every other
// sample. A pointer exists only in the programs that take it.
TEST(ProgramsRunning, AFunctionCalledThroughAPointerRunsWhereItsAddressIsTaken) {
  for (const std::string taker : {std::string(kMain), std::string("c:@F@registerAll")}) {
    OrderingFacts facts = pointerPrograms(taker);
    ProgramOrdering program(facts);
    EXPECT_EQ(program.programsRunning("c:@F@onDone"), std::set<std::string>{"/p/b.cu"})
        << taker;
    EXPECT_EQ(program.perThreadProblem("/p/a_step.cu", "c:@F@stepA"), "") << taker;
    EXPECT_EQ(program.perThreadProblem("/p/b.cu", kMain)
                  .rfind("the program starts host threads (pthread_create at callback.cu:9)", 0),
              0u)
        << taker;
  }
  // Taken in a global's initializer: every program that links its TU.
  OrderingFacts facts = pointerPrograms("");
  ProgramOrdering program(facts);
  EXPECT_EQ(program.programsRunning("c:@F@onDone"), std::nullopt);
  EXPECT_NE(program.perThreadProblem("/p/a_step.cu", "c:@F@stepA").find("starts host threads"),
            std::string::npos);
}

TEST(ProgramsRunning, AddressTakersSurviveJsonAndOlderSummariesKeepTheFunctionOpen) {
  OrderingFacts facts;
  facts.addressTaken = {"c:@F@onDone"};
  facts.addressTakers = {{"c:@F@onDone", "c:@F@registerAll"}};
  OrderingFacts back;
  std::string error;
  ASSERT_TRUE(fromJsonText(toJsonText(facts), back, error)) << error;
  ASSERT_EQ(back.addressTakers.size(), 1u);
  EXPECT_EQ(back.addressTakers[0].what, "c:@F@onDone");
  EXPECT_EQ(back.addressTakers[0].function, "c:@F@registerAll");
  // Written before the uses were: each in no known function.
  std::string older = toJsonText(facts);
  size_t at = older.find("\"addressTakers\"");
  ASSERT_NE(at, std::string::npos);
  older.replace(at, std::string("\"addressTakers\"").size(), "\"addressTakers_\"");
  OrderingFacts old;
  ASSERT_TRUE(fromJsonText(older, old, error)) << error;
  ASSERT_EQ(old.addressTakers.size(), 1u);
  EXPECT_EQ(old.addressTakers[0].function, "");
}

TEST(ProgramsRunning, EventsSurviveJsonAndOlderSummariesCountForEveryProgram) {
  OrderingFacts facts;
  facts.threadStarters = {{"std::thread at w.cu:9", "c:@F@spawn"}};
  facts.streamCreators = {{"cudaStreamCreate at w.cu:3", "c:@F@make"}};
  facts.startupCalls = {"c:@F@spawn"};
  OrderingFacts back;
  std::string error;
  ASSERT_TRUE(fromJsonText(toJsonText(facts), back, error)) << error;
  ASSERT_EQ(back.threadStarters.size(), 1u);
  EXPECT_EQ(back.threadStarters[0].function, "c:@F@spawn");
  EXPECT_EQ(back.streamCreators[0].what, "cudaStreamCreate at w.cu:3");
  EXPECT_EQ(back.startupCalls, facts.startupCalls);
  // A summary written before the events were: its threads are in no known
  // function, so they count for every program.
  std::string older = toJsonText(OrderingFacts());
  size_t at = older.find("\"threadStarters\"");
  ASSERT_NE(at, std::string::npos);
  older.replace(at, std::string("\"threadStarters\":[]").size(), "\"threadStarters_\":[]");
  older.replace(older.find("\"hostThreads\":[]"), std::string("\"hostThreads\":[]").size(),
                "\"hostThreads\":[\"pthread_create at old.cu:4\"]");
  OrderingFacts old;
  ASSERT_TRUE(fromJsonText(older, old, error)) << error;
  ASSERT_EQ(old.threadStarters.size(), 1u);
  EXPECT_EQ(old.threadStarters[0].function, "");
}

/// A callee the program calls but does not define is named as its USR
/// spells it, not by the USR ("c:@F@createResult#**$@S@resultsData#").
TEST(FunctionName, FallsBackToTheNameTheUsrSpells) {
  OrderedFunction defined = function("c:@F@produce#*I#", "/p/a.cu");
  defined.name = "produce";
  FunctionsByUsr all = {{defined.usr, &defined}};
  EXPECT_EQ(functionName(all, "c:@F@produce#*I#"), "produce");
  EXPECT_EQ(functionName(all, "c:@F@createResult#**$@S@resultsData#"), "createResult");
  EXPECT_EQ(functionName(all, "c:@N@ns@S@Timer@F@start#"), "start");
  EXPECT_EQ(functionName(all, "c:@S@Odd"), "c:@S@Odd");
}

} // namespace
} // namespace streamlint::ordering

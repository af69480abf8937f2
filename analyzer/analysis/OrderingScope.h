#pragma once
// Which of a TU's ordering facts (OrderingSummary.h) the whole-program pass
// can ever read, so that collectOrderingFacts computes and stores no others.
//
// resolveConditionalFixes reads, starting at a fix's function:
//  - the calls of a function (callsTo_) only when no TU says it is open
//    (openReason answers first, and a function is open when any TU says
//    so): a call of a function that this TU defines and finds open, or that
//    every TU finds open (openInEveryTranslationUnit), is never read;
//  - a function's summary (what it leaves pending, does first, its only
//    stream parameter) only for the callees named by a call it reads, by a
//    fix's calleesOnTarget, or by another summary it reads;
//  - a function's identity (name, main, openness) for every function.
// So every TU stores every function's identity, the calls of functions that
// may be closed in the program, and the summaries of the functions those
// calls and its fixes name, with their closure; a named callee whose body
// this TU does not hold is summarized by the TU that defines it, because a
// function some caller may see without its body (a non-inline external
// definition: mayBeCalledWithoutItsBody) is summarized wherever it is
// defined. An inline function, a template instantiation or a function with
// internal linkage is defined in every TU that calls it, so that TU's own
// closure summarizes it. docs/measurements/heavy-tu-analysis-cost.md.

#include "clang/AST/Decl.h"

#include <string>

namespace streamlint {

/// Why code outside the analyzed program may call `function` ("it is
/// virtual", ...; `libraryTarget`: the TU is built for a shared library);
/// "" when only the program's own calls can. OrderedFunction::openBecause.
std::string openBecause(const clang::FunctionDecl &function, bool libraryTarget);

/// The part of openBecause that every TU holding a declaration of
/// `function` finds alike (virtual, a constructor, destructor or
/// conversion, an operator): "" when some TU may find it closed.
std::string openInEveryTranslationUnit(const clang::FunctionDecl &function);

/// Whether a TU may call `function` without holding its body (it is not
/// inline in C++, not a template instantiation, has external linkage): its
/// summary is then stored by every TU that defines it.
bool mayBeCalledWithoutItsBody(const clang::FunctionDecl &function);

} // namespace streamlint

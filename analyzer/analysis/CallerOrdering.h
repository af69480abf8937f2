#pragma once
// The clang side of OrderingSummary.h: what one TU contributes to deciding
// rules 3, 4 and 7 of docs/fixes.md from the real callers, and the fixes
// whose verdict waits for them.

#include "analyzer/Finding.h"
#include "analyzer/analysis/OrderingSafety.h"
#include "analyzer/analysis/OrderingSummary.h"
#include "analyzer/analysis/StreamSources.h"
#include "analyzer/analysis/TranslationUnitContext.h"

#include "clang/AST/Decl.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <string>
#include <vector>

namespace streamlint {

/// Adds the TU's ordering facts to `facts`: every call of a user function
/// with what its caller has pending before it and does after it, which
/// stream each stream argument is; each function's openness (code outside
/// the program may call it; `libraryTarget`: the TU is built for a shared
/// library); each write of a global or member stream; the functions whose
/// address is taken. Only what the whole-program pass can read
/// (OrderingScope.h): `facts.fixes`, the TU's conditional fixes, are set
/// first, since the callees they name keep their summaries.
void collectOrderingFacts(TranslationUnitContext &context, bool libraryTarget,
                          ordering::OrderingFacts &facts);

/// The conditional fixes the TU's checks recorded (recordConditionalFix),
/// taken: the driver adds them to the TU's facts once its checks ran.
std::vector<ordering::ConditionalFix> takeConditionalFixes(const TranslationUnitContext &context);

/// When rule 4 (unknown callers) or the target's unknown blocking is what
/// may refuse a fix in `function`: its verdict under every assumption
/// (`judge` gives one), for the whole-program pass to decide. Nullopt when
/// no assumption makes it keep every edge, when the function is main, or
/// when the target is a local whose creation the function does not show.
std::optional<ordering::ConditionalFix>
conditionalOrdering(const clang::FunctionDecl &function, const clang::ValueDecl &target,
                    bool narrow,
                    llvm::function_ref<OrderingVerdict(const OrderingAssumption &)> judge);

/// The same for a fix whose target is the per-thread default stream
/// (`cudaStreamPerThread`, blocking): always decided by the whole program,
/// main included, which must also create streams and start no host thread.
/// Nullopt when no assumption about the callers keeps every edge.
std::optional<ordering::ConditionalFix>
perThreadConditional(const clang::FunctionDecl &function, bool narrow,
                     llvm::function_ref<OrderingVerdict(const OrderingAssumption &)> judge);

/// Records `conditional` for `fix` of `finding` for the TU of `context`
/// (kept until takeConditionalFixes; TUs run on several threads);
/// `descriptionBefore` is the fix's description before the verdict.
void recordConditionalFix(ordering::ConditionalFix conditional, const Finding &finding,
                          const FixIt &fix, std::string descriptionBefore,
                          TranslationUnitContext &context);

} // namespace streamlint

#pragma once
// What of a parsed TU the checks read: the top-level declarations outside
// system headers. Every finding in a system header is dropped
// (TranslationUnitContext::takeFindings) and the call graph stops at system
// functions (analyzer/reach/CallGraphBuilder.cpp), so the AST walks and the
// parent map need not cover them; on a PyTorch extension TU about half the
// top-level declarations are the C++ library's and the toolkit's, and the
// parent map over them cost more memory than the rest of the analysis.
//
// When a run reports no finding outside the project's directories (no
// header filter, no --third-party-headers, no named header outside them),
// the scope is narrower: the main file and the project's files. A library
// header's function (torch's, under `-I`) is then walked only when walked
// code calls it, directly or through other such functions: the call graph
// pulls it in (TranslationUnitContext::pulledFunctions), and the driver adds
// it to the scope, which the matchers, the ordering facts and pointer
// provenance then walk. What is not walked is what no project code of the TU
// reaches by a direct call: a finding there would be hidden as a
// third-party header's anyway.

#include "clang/AST/ASTContext.h"

#include <string>
#include <vector>

namespace streamlint {

/// The top-level declarations whose location (expanded) is not in a system
/// header, in order; those without a location are kept. With
/// `walkedDirectories`, only those in the main file or under one of them.
std::vector<clang::Decl *>
userTopLevelDeclarations(clang::ASTContext &ast,
                         const std::vector<std::string> &walkedDirectories = {});

/// Limits `ast`'s traversal scope (MatchFinder::matchAST, RecursiveASTVisitor
/// ::TraverseAST, and ASTContext::getParents, built on first use) to
/// userTopLevelDeclarations. Call before anything asks for parents.
void limitTraversalToUserCode(clang::ASTContext &ast,
                              const std::vector<std::string> &walkedDirectories = {});

/// Adds `functions` (definitions outside the scope that walked code calls,
/// TranslationUnitContext::pulledFunctions) to `ast`'s traversal scope, so
/// that the matchers, the ordering facts and pointer provenance walk them
/// too; clears clang's parent map, which the next question builds again.
void addToTraversalScope(clang::ASTContext &ast,
                         const std::vector<const clang::FunctionDecl *> &functions);

/// Whether `decl`'s location, expanded, is in a system header (a
/// declaration without a location is not).
bool declaredInSystemHeader(const clang::Decl &decl, const clang::SourceManager &sources);

/// Whether `function` is the library's: declared in a system header, or a
/// builtin (__builtin_abort: clang declares a builtin where the TU first
/// uses it, so its location says nothing; a system header's body using it
/// first, or that body skipped, must not change what a call of it is).
bool isLibraryFunction(const clang::FunctionDecl &function, const clang::SourceManager &sources);

/// Whether the parse skips the body of the function `decl` (clang's
/// ASTConsumer::shouldSkipFunctionBody, asked only when the invocation
/// skips function bodies: ClangInvocation::parseLibraryBodies off): those
/// declared in system headers. No walk enters them (see above) and the
/// CUDA API table names what a library call does, so their bodies only cost
/// the parse, above all the instantiations of Thrust's and CUB's algorithms
/// a TU's calls would otherwise make. Clang still parses what it must
/// (constexpr functions, deduced return types).
bool skipsBodyOf(const clang::Decl &decl, const clang::SourceManager &sources);

/// Whether `ast`'s traversal scope is the whole TU.
bool traversesWholeTranslationUnit(const clang::ASTContext &ast);

/// RecursiveASTVisitor's rule for children of a declaration context it
/// reaches otherwise (blocks, captured statements, lambda classes).
bool traversedThroughItsExpression(const clang::Decl &decl);

} // namespace streamlint

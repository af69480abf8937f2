#pragma once
// What of a parsed TU the checks read: the top-level declarations outside
// system headers. Every finding in a system header is dropped
// (TranslationUnitContext::takeFindings) and the call graph stops at system
// functions (analyzer/reach/CallGraphBuilder.cpp), so the AST walks and the
// parent map need not cover them; on a PyTorch extension TU about half the
// top-level declarations are the C++ library's and the toolkit's, and the
// parent map over them cost more memory than the rest of the analysis.

#include "clang/AST/ASTContext.h"

#include <vector>

namespace streamlint {

/// The top-level declarations whose location (expanded) is not in a system
/// header, in order; those without a location are kept.
std::vector<clang::Decl *> userTopLevelDeclarations(clang::ASTContext &ast);

/// Limits `ast`'s traversal scope (MatchFinder::matchAST, RecursiveASTVisitor
/// ::TraverseAST, and ASTContext::getParents, built on first use) to
/// userTopLevelDeclarations. Call before anything asks for parents.
void limitTraversalToUserCode(clang::ASTContext &ast);

/// Whether `ast`'s traversal scope is the whole TU.
bool traversesWholeTranslationUnit(const clang::ASTContext &ast);

/// RecursiveASTVisitor's rule for children of a declaration context it
/// reaches otherwise (blocks, captured statements, lambda classes).
bool traversedThroughItsExpression(const clang::Decl &decl);

} // namespace streamlint

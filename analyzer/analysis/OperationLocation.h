#pragma once
// The branches and loops around one operation of a function's body
// (StreamOperation::conditions and ::loops), found from the path of the walk
// that met it, or where that may differ, from clang's parent map.

#include "analyzer/analysis/StreamOperations.h"

#include "clang/AST/ASTContext.h"

#include <vector>

namespace streamlint {

/// Fills op.conditions and op.loops: the statements between op.node and the
/// body of `function` that may skip or repeat it. `path` is the walk's path
/// from the body down to op.node: its statements, with a null entry where
/// the walk went through a declaration, a type, a name qualifier, a template
/// argument or an attribute (whose expressions clang's parent map gives a
/// parent that is no statement: the search stops there).
///
/// The answer is the parent map's, which clang builds for the whole TU on
/// its first question (on a PyTorch extension TU 0.55 s and 114 MiB): the
/// map is asked only where a node may have a parent outside the path, in a
/// template's pattern or instantiation (they share the statements that do
/// not depend on the template's parameters, and the map gives the parent
/// from the body it walked first), in a lambda's body (whose parent is the
/// lambda expression, in the enclosing function) and above C++20's
/// rewritten comparisons (the walk visits their operands directly).
void locateOperation(StreamOperation &op, const std::vector<const clang::Stmt *> &path,
                     const clang::FunctionDecl &function, clang::ASTContext &ast);

} // namespace streamlint

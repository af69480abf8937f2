#pragma once
// What pointer provenance must see all the callers and writes of, within
// one TU (ProvenanceIndex::visibleCallers, closedInTranslationUnit): the
// TU's file-local declarations.

#include "clang/AST/Decl.h"

namespace streamlint {

/// Whether `decl` is or holds what the index treats as closed in the TU, all
/// of whose callers and writes it must see: a host function, class or global
/// pointer variable with no external visibility, or a lambda whose call
/// operator has none. Of a declaration from the preamble (a project header
/// in the include prefix) that holds none, no library instantiation made
/// while the preamble was built (and so in no list of the parse's) needs
/// reading: what the index records of externally visible functions is open
/// anyway (visibleCallers).
bool holdsFileLocalDeclaration(clang::Decl &decl);

} // namespace streamlint

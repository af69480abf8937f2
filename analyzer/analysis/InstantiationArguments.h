#pragma once
// Whether a template instantiation was made with something a predicate
// accepts: a type, declaration or template among its template arguments (or
// those of the class template specializations around it), looked through
// pointers, references, arrays, function types and the arguments of other
// specializations. An instantiation in a library header can call or write
// what the user's code declares only through such an argument (a lambda
// given to std::for_each, std::function's handler of it, a member of
// std::vector<UserType>); pointer provenance reads no other (ProvenanceIndex).

#include "clang/AST/Decl.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace streamlint {

/// Whether `function` (an instantiation) or a specialization it is a member
/// of was instantiated with an argument naming a declaration `accepts`
/// (given the declaration of a class, enum, variable, function or
/// template). Arguments too deeply nested to read count as accepted.
bool instantiatedWith(const clang::FunctionDecl &function,
                      llvm::function_ref<bool(const clang::Decl &)> accepts);

} // namespace streamlint

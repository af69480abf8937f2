#pragma once
// Calls of the C and C++ standard libraries (libc, libm, libstdc++, libc++)
// that cannot issue CUDA work, wait for the device, or run code of the
// program: the function is the standard library's, and nothing it is given
// can call back into the program (no function pointer, lambda, functor or
// std::function, and no type of the program whose operators, constructors or
// destructors a template would call). CUDA toolkit and third-party library
// functions (cuBLAS, NCCL, Thrust, CUB, torch) never count, even when their
// headers are system headers.

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <vector>

namespace streamlint {

/// Whether `function` belongs to the C or C++ standard library: declared in
/// a system header and either in namespace std (or a namespace or class
/// nested in it: std::chrono::steady_clock::now), or a C function
/// (extern "C", global namespace) that a C library header declares (string.h,
/// math.h, stdlib.h, time.h, glibc's bits/ headers, ...).
bool isStandardLibraryFunction(const clang::FunctionDecl &function,
                               const clang::SourceManager &sources);

/// Whether values of `type` carry no code of the program: builtin, enum and
/// pointer-to-data types (of such types), and standard library classes whose
/// template arguments are such types. Function types, lambdas, functors and
/// the program's own classes are not.
bool isLibraryOnlyType(clang::QualType type, const clang::SourceManager &sources);

/// A call of a standard library function whose arguments (the object of a
/// member call included) and template arguments are all library-only types:
/// it runs no code of the program and issues no CUDA work.
bool isSelfContainedLibraryCall(const clang::CallExpr &call, const clang::SourceManager &sources);

/// Whether an object of `type` (a class, by value or reference) can reach
/// only memory the device never writes: builtin and enum values, classes
/// whose fields are such values (std::chrono durations and time points),
/// std::basic_string (its text is the library's own allocation) and the
/// standard streams (std::cout). Containers, views and smart pointers can
/// reach page-locked or managed memory and do not count.
bool reachesOnlyLibraryMemory(clang::QualType type, const clang::SourceManager &sources);

/// Whether `argument` names a standard library function (`std::endl`
/// passed to operator<<, `&std::tolower`): a callable that runs no code of
/// the program when its own template arguments are library-only.
bool namesStandardFunction(const clang::Expr &argument, const clang::SourceManager &sources);

/// The code of the program `call` hands its callee: the functions its
/// callable arguments name (a lambda's operator(), `f` or `&f`, a functor's
/// operator()s). Sets `unresolved` for one it cannot name (a function pointer
/// variable, a generic lambda, a std::function or std::bind).
std::vector<const clang::FunctionDecl *>
programCallables(const clang::CallExpr &call, const clang::SourceManager &sources,
                 bool &unresolved);

/// Whether `call` hands the callee code of the program it may call: a
/// function pointer or reference (not one naming a standard function), a
/// lambda, or an object with an operator() that is not the standard
/// library's alone (a functor, a std::function or std::bind of the
/// program's code).
bool passesProgramCallable(const clang::CallExpr &call, const clang::SourceManager &sources);

/// The arguments of `call` the callee may read or write memory through: the
/// object of a member call and every argument (an operator's object is its
/// first argument).
std::vector<const clang::Expr *> argumentsWithObject(const clang::CallExpr &call);

} // namespace streamlint

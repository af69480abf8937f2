#pragma once
// Loops over devices: `for (int d = 0; d < n; ++d) { cudaSetDevice(d); ... }`.
// Each iteration selects another device (the API table's selectsDevice:
// cudaSetDevice, cuCtxSetCurrent) from the loop's own variable, so the body
// runs once per device: set-up (allocate a buffer per GPU) or teardown
// (synchronize each GPU), not a hot path. The reach analysis treats such a
// loop as straight-line code, as it does `do { } while (0)`; a loop inside
// its body, or around it, still repeats.

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

namespace streamlint {

/// True for a for or range-for loop whose body (not a repeating loop or a
/// lambda nested in it; a `do { } while (0)` error-check macro is looked
/// into) calls a device-selecting API with an argument that reads
/// a variable the loop steps: for's init or increment variables, range-for's
/// element, and variables the body sets from those (`device = gpus[i]`). `while (true) { cudaSetDevice(0); ... }` selects the same device
/// every time and is a loop.
bool visitsEachDeviceOnce(const clang::Stmt &loop, const clang::ASTContext &ast);

/// Whether `function`, or a function it calls that the TU defines outside
/// system headers (a few calls deep), selects a device (the same API
/// rows): afterwards the legacy stream is another device's, which orders
/// nothing of the first device's streams.
bool selectsDevices(const clang::FunctionDecl &function, unsigned depth = 0);

} // namespace streamlint

#pragma once
// Processes that end with `_exit` never run the probe's atexit flush:
// Python's `os._exit`, which every multiprocessing worker, forked or
// spawned, ends with, and C programs' children. The probe points the
// program's own `_exit`/`_Exit` imports (GOT slots of the executable and of
// libpython) at a function that writes the trace and then ends the process
// the way `_exit` does.

namespace streamlint::probe {

/// Points the `_exit` and `_Exit` imports of the main executable and of
/// `libpython*` at a function that calls `beforeExit` and then exits the
/// process with the status given. Returns how many slots it rewrote.
/// Not thread-safe against concurrent dlopen; called once at start.
unsigned hookExitImports(void (*beforeExit)());

} // namespace streamlint::probe

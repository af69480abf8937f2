#pragma once
#include <cstddef>
// Defined in alloc.cu; used by main.cu.
void *mallocChecked(size_t bytes);
void *mallocPinned(size_t bytes);
float *floatsChecked(size_t n);
void *unknownSource(size_t bytes);
float *floatsAcross(size_t n);

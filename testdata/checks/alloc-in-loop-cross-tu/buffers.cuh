#pragma once
#include <cstddef>
float *acquireScratch(size_t bytes);
void releaseScratch(float *scratch);

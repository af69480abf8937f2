#pragma once
#pragma clang system_header
#include <thrust/algorithms.h>

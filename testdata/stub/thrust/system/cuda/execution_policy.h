#pragma once
#pragma clang system_header
#include <thrust/execution_policy.h>

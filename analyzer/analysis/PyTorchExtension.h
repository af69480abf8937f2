#pragma once
// Whether a translation unit is a PyTorch C++/CUDA extension: it includes
// ATen's or c10's CUDA headers, so PyTorch hands its work a current stream
// (at::cuda::getCurrentCUDAStream()) that launches and library calls must use.

#include "clang/AST/ASTContext.h"

namespace streamlint {

/// True when `at::cuda::getCurrentCUDAStream` or
/// `c10::cuda::getCurrentCUDAStream` is declared in the TU.
bool isPyTorchExtension(const clang::ASTContext &ast);

/// What a fix passes for the stream in a PyTorch extension.
inline constexpr const char *PyTorchCurrentStream = "at::cuda::getCurrentCUDAStream()";

} // namespace streamlint

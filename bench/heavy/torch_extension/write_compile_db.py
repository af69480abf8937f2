#!/usr/bin/env python3
"""Writes compile_commands.json for this extension the way
torch.utils.cpp_extension.BuildExtension (with ninja) compiles it:
setuptools' -I include directories (torch's, the toolkit's, Python's) in
cflags, and for .cu files nvcc with torch's COMMON_NVCC_FLAGS,
--compiler-options '-fPIC', the extension defines and one -gencode.

    write_compile_db.py SOURCE_DIR TORCH_INCLUDE BUILD_DIR [NAME]
"""
import json
import os
import sys
import sysconfig

source_dir, torch_include, build_dir = (os.path.abspath(p) for p in sys.argv[1:4])
name = sys.argv[4] if len(sys.argv) > 4 else "fused_ext"
cuda_home = os.environ.get("CUDA_HOME", "/usr/local/cuda")
python_include = sysconfig.get_paths()["include"]

include_dirs = [torch_include, os.path.join(torch_include, "torch/csrc/api/include"),
                os.path.join(cuda_home, "include"), python_include]
cflags = ["-I" + d for d in include_dirs]
defines = ["-DTORCH_API_INCLUDE_EXTENSION_H", '-DPYBIND11_COMPILER_TYPE="_gcc"',
           '-DPYBIND11_STDLIB="_libstdcpp"', '-DPYBIND11_BUILD_ABI="_cxxabi1018"',
           "-DTORCH_EXTENSION_NAME=" + name, "-D_GLIBCXX_USE_CXX11_ABI=1"]
common_nvcc = ["-D__CUDA_NO_HALF_OPERATORS__", "-D__CUDA_NO_HALF_CONVERSIONS__",
               "-D__CUDA_NO_BFLOAT16_CONVERSIONS__", "-D__CUDA_NO_HALF2_OPERATORS__",
               "--expt-relaxed-constexpr"]
obj_dir = os.path.join(build_dir, "temp.linux-x86_64-cpython")
entries = []
for source in sorted(os.listdir(source_dir)):
    path = os.path.join(source_dir, source)
    obj = os.path.join(obj_dir, source + ".o")
    if source.endswith(".cu"):
        args = ([os.path.join(cuda_home, "bin/nvcc"), "--generate-dependencies-with-compile",
                 "--dependency-output", obj + ".d"] + cflags + ["-c", path, "-o", obj] +
                common_nvcc + ["--compiler-options", "-fPIC", "-O2"] + defines +
                ["-gencode=arch=compute_90,code=sm_90", "-std=c++17"])
    elif source.endswith(".cpp"):
        args = (["c++", "-MMD", "-MF", obj + ".d", "-pthread", "-fPIC"] + cflags +
                ["-c", path, "-o", obj, "-O2"] + defines + ["-std=c++17"])
    else:
        continue
    entries.append({"directory": build_dir, "file": path, "arguments": args, "output": obj})
os.makedirs(build_dir, exist_ok=True)
with open(os.path.join(build_dir, "compile_commands.json"), "w") as out:
    json.dump(entries, out, indent=2)
